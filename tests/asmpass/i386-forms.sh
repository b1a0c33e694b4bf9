#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# i386 (doc/abi.md 1a): every spelling of an indirect branch GNU as takes in
# 32-bit mode, through kcfi-as --32 and GNU as, read back with objdump: the
# target's register (a memory target loaded into %eax once), a cmpl of
# int (int)'s id at -4, je over an int3, the branch with its prefixes kept.
# Spellings whose meaning a check cannot keep are refused with file:line.
. "$top_srcdir/tests/lib.sh"

ID=$(printf '0x%x' $(( $(fnv1a _ZTSFiiE) )))
unit() {	# BRANCH [PREFIX-M]
	printf '\t.kcfi_version 1, "x86_64-linux-gnu", ptr=32, long=32, char=signed, prefix=%s\n' "${2:-0}"
	printf '\t.kcfi_type 1, "int (int)"\n\t.text\n\t.globl fp\nfp:\n\t.kcfi_call 1\n\t%s\n' "$1"
}
# decoded BRANCH [M]: the instructions kcfi-as made of it, ';'-separated.
decoded() {
	unit "$1" "${2:-0}" >"$T/f.s"
	"$KCFI_AS" --32 -o "$T/f.o" "$T/f.s" 2>"$T/f.err" || { cat "$T/f.err"; return 1; }
	objdump -d "$T/f.o" | sed -n 's/^ *[0-9a-f]*:\t[^\t]*\t//p' | sed 's/ *<[^>]*>//; s/  */ /g; s/ *$//' |
		tr '\n' ';'
}
becomes() {	# BRANCH WANT [M]
	got=$(decoded "$1" "${3:-0}") || return 1
	[ "$got" = "$2" ] || { echo "want: $2"; echo " got: $got"; false; }
}
chk() { echo "cmpl \$$ID,-0x${2:-4}(%$1);je $3;int3;"; }

check "calll *%eax" becomes 'calll *%eax' "$(chk eax 4 a)call *%eax;"
check "CALL *%EAX (any case)" becomes 'CALL *%EAX' "$(chk eax 4 a)call *%eax;"
check "call %eax (no star)" becomes 'call %eax' "$(chk eax 4 a)call *%eax;"
check "jmpl *%ecx, a sibcall" becomes 'jmpl *%ecx' "$(chk ecx 4 a)jmp *%ecx;"
check "notrack call *%edx" becomes 'notrack call *%edx' "$(chk edx 4 a)notrack call *%edx;"
check "cs call *%esi" becomes 'cs call *%esi' "$(chk esi 4 a)cs call *%esi;"
check "bnd jmp *%edi" becomes 'bnd jmp *%edi' "$(chk edi 4 a)bnd jmp *%edi;"
check "call *(%eax): loaded once" becomes 'call *(%eax)' "mov (%eax),%eax;$(chk eax 4 c)call *%eax;"
check "call (%eax): indirect without a star" becomes 'call (%eax)' "mov (%eax),%eax;$(chk eax 4 c)call *%eax;"
check "call *fp: an absolute address" becomes 'call *fp' "mov 0x0,%eax;$(chk eax 4 f)call *%eax;"
check "call *fp@GOT(%ebx)" becomes 'call *fp@GOT(%ebx)' "mov 0x0(%ebx),%eax;$(chk eax 4 10)call *%eax;"
check "call *%gs:0x10: the segment stays with the load" becomes 'call *%gs:0x10' \
	"mov %gs:0x10,%eax;$(chk eax 4 10)call *%eax;"
check "gs call *0x10: the prefix word too" becomes 'gs call *0x10' \
	"mov %gs:0x10,%eax;$(chk eax 4 10)call *%eax;"
check "{disp32} call *4(%esp): the encoding stays with the load" becomes '{disp32} call *4(%esp)' \
	"mov 0x4(%esp),%eax;$(chk eax 4 11)call *%eax;"
check "patchable prefix M=3: the id at -7" becomes 'call *%ecx' "$(chk ecx 7 a)call *%ecx;" 3

refused() {	# BRANCH REASON
	unit "$1" >"$T/r.s"
	r_pat=$(printf '%s' "$1" | sed 's/[*.[]/\\&/g')
	! (cd "$T" && "$KCFI_AS" --32 -o r.o r.s 2>r.err) &&
		grep -q "^r\.s:7: error: '$r_pat' (annotated by \.kcfi_call at line 6) cannot be checked by KCFI: $2" "$T/r.err" ||
		{ cat "$T/r.err"; false; }
}
check "callq is refused (no 64-bit near branch in 32-bit mode)" refused 'callq *%eax' 'the q suffix'
check "callw is refused" refused 'callw *%ax' 'a 16-bit near branch'
check "data16 is refused" refused 'data16 call *%eax' 'a 16-bit near branch'
check "lcall is refused" refused 'lcall *(%eax)' 'a far branch'
check "a 64-bit register is refused" refused 'call *%rax' 'its target is not a 32-bit general register'
# .kcfi_call arg=: the registers must be general ones, eight at most.
argerr() {	# KEYS PATTERN
	printf '\t.kcfi_version 1, "x86_64-linux-gnu", ptr=32, long=32, char=signed, prefix=0\n\t.kcfi_type 1, "int (int)"\n\t.text\nf:\n\t.kcfi_call 1%s\n\tcall\t*4(%%esp)\n' "$1" >"$T/a.s"
	! (cd "$T" && "$KCFI_AS" --32 --kcfi-no-assemble --kcfi-save=a.out a.s 2>a.err) &&
		grep -q "^a\.s:[56][0-9:]*: error: .*$2" "$T/a.err" || { cat "$T/a.err"; false; }
}
check "arg=xmm0 is an error (no general register)" argerr ', arg=xmm0' "the argument register 'xmm0' is no general register of i386"
check "nine arg= keys are an error" argerr "$(printf ', arg=ax%.0s' 1 2 3 4 5 6 7 8 9)" 'too many .kcfi_call arg= registers'
check "arg=ax, arg=cx, arg=dx through memory is refused, naming the register" argerr ', arg=ax, arg=cx, arg=dx' \
	"would overwrite eax (the i386 check writes eax), which carries an argument of this call"

# Calls GCC prints without an annotation from insns that are no calls to
# the plugin: -pg's in PIC code and the TLS general-dynamic call under
# -fno-plt, each through the GOT slot of one named function.  They pass
# unchecked, recorded as direct (5); any other unannotated call is refused.
bare() {	# BRANCH
	printf '\t.kcfi_version 1, "x86_64-linux-gnu", ptr=32, long=32, char=signed, prefix=0\n\t.text\nf:\n%s\n' "$1" >"$T/b.s"
	(cd "$T" && "$KCFI_AS" --32 --kcfi-no-assemble --kcfi-save=b.out b.s 2>b.err)
}
passes() { bare "$1" && grep -q '^	\.long	\.Lkcfi_exempt0, 0, \.Lkcfi_exempt0, 0, 5, 0$' "$T/b.out" || { cat "$T/b.err"; false; }; }
check "-pg: 1: call *mcount@GOT(%ebx) passes" passes '1:	call	*mcount@GOT(%ebx)'
check "TLS: call *___tls_get_addr@GOT(%esi) passes" passes '	call	*___tls_get_addr@GOT(%esi)'
check "another GOT call without annotation is refused" sh -c \
	"! (cd '$T' && printf '\t.kcfi_version 1, \"x86_64-linux-gnu\", ptr=32, long=32, char=signed, prefix=0\n\t.text\nf:\n\tcall\t*other@GOT(%%esi)\n' >o.s &&
	   '$KCFI_AS' --32 --kcfi-no-assemble --kcfi-save=o.out o.s 2>o.err) && grep -q '^o\.s:4: error: an indirect call' '$T/o.err'"
check "the 64-bit -pg form is not the 32-bit one" sh -c \
	"! (cd '$T' && printf '\t.kcfi_version 1, \"x86_64-linux-gnu\", ptr=32, long=32, char=signed, prefix=0\n\t.text\nf:\n1:\tcall\t*mcount@GOTPCREL(%%rip)\n' >p.s &&
	   '$KCFI_AS' --32 --kcfi-no-assemble --kcfi-save=p.out p.s 2>p.err)"
finish
