#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Retpolines through kcfi-as.  thunk-inline: GCC's inline retpoline after a
# call-site directive is one indirect branch; a checked one becomes the check
# and the same retpoline through %r11 under GCC's labels, the others pass
# unchanged, anything off its shape is refused.  thunk: a TU that defines
# retpoline thunks of its own gets __x86_indirect_thunk_r11 for its checks,
# in GCC's comdat group, unless it has it already; with thunk-extern, none.
# -pg: the profiler's "1: call *mcount@GOTPCREL(%rip)" passes unannotated.
. "$top_srcdir/tests/lib.sh"

V='	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0'
VOID=$(fnv1a _ZTSFvvE)
equal() { [ "$1" = "$2" ] || { echo "${3:-value}: want $1, got $2"; false; }; }

prologue() {	# DIRECTIVE: a function whose body starts with it
	printf '%s\n\t.kcfi_type 1, "void (void)"\n\t.kcfi_type 2, "int ()"\n\t.text\n' "$V"
	printf '\t.globl\tf\n\t.type\tf, @function\nf:\n.LFB0:\n\t.cfi_startproc\n\tsubq\t$24, %%rsp\n\t.cfi_def_cfa_offset 32\n#APP\n%s\n#NO_APP\n' "$1"
}
call_form() {	# REG [CFI-LINE]
	printf '\tjmp\t.LIND1\n.LIND0:\n\tcall\t.LIND3\n.LIND2:\n\tpause\n\tlfence\n\tjmp\t.LIND2\n.LIND3:\n'
	[ -n "${2:-}" ] && printf '\t%s\n' "$2"
	printf '\tmov\t%%%s, (%%rsp)\n\tret\n.LIND1:\n\tcall\t.LIND0\n' "$1"
}
sib_form() {	# REG [CFI-LINE]
	printf '\tcall\t.LIND5\n.LIND4:\n\tpause\n\tlfence\n\tjmp\t.LIND4\n.LIND5:\n'
	[ -n "${2:-}" ] && printf '\t%s\n' "$2"
	printf '\tmov\t%%%s, (%%rsp)\n\tret\n' "$1"
}
epilogue() { printf '\taddq\t$24, %%rsp\n\t.cfi_def_cfa_offset 8\n\tret\n\t.cfi_endproc\n.LFE0:\n\t.size\tf, .-f\n'; }

as_ok() {	# NAME: $T/NAME.s -> $T/NAME.o, rewritten text in $T/NAME.out
	"$KCFI_AS" --kcfi-save="$T/$1.out" -o "$T/$1.o" "$T/$1.s"
}
# expect_error NAME LINE PATTERN
expect_error() {
	if "$KCFI_AS" -o "$T/$1.o" "$T/$1.s" >"$T/$1.err" 2>&1; then
		fail "$1: accepted"; return
	fi
	grep -q "^$T/$1.s:$2: error: .*$3" "$T/$1.err" && pass "$1: refused at line $2" ||
		{ fail "$1: expected '$1.s:$2: error: ...$3', got:"; sed 's/^/    /' "$T/$1.err"; }
}
# the check, then exactly the retpoline through %r11 (FORM: call or sib)
rebuilt() {	# OUT FORM CFI(0/1)
	sed -n '/^\.Lkcfi0_call:/,/^#/p' "$1" | grep -v '^#' >"$1.seq"
	{
		echo '.Lkcfi0_call:'
		[ "$3" = 1 ] && printf '\t.cfi_remember_state\n'
		if [ "$2" = call ]; then
			printf '\tjmp\t.LIND1\n.LIND0:\n\tcall\t.LIND3\n.LIND2:\n\tpause\n\tlfence\n\tjmp\t.LIND2\n.LIND3:\n'
		else
			printf '\tcall\t.LIND5\n.LIND4:\n\tpause\n\tlfence\n\tjmp\t.LIND4\n.LIND5:\n'
		fi
		[ "$3" = 1 ] && printf '\t.cfi_def_cfa_offset 16\n'
		printf '\tmov\t%%r11, (%%rsp)\n\tret\n'
		[ "$3" = 1 ] && printf '\t.cfi_restore_state\n'
		[ "$2" = call ] && printf '.LIND1:\n\tcall\t.LIND0\n'
	} >"$1.want"
	diff "$1.want" "$1.seq"
}

# -- thunk-inline, checked --------------------------------------------------
for reg in rax r11 r8; do
	for cfi in 0 1; do
		c=; [ $cfi = 1 ] && c='.cfi_def_cfa_offset 16'
		n=inline-call-$reg-$cfi
		{ prologue '	.kcfi_call 1'; call_form $reg "$c"; epilogue; } >"$T/$n.s"
		if as_ok $n; then
			check "$n: the retpoline is rebuilt through %r11" rebuilt "$T/$n.out" call $cfi
			check "$n: one check of void (void)" sh -c \
				"'$ELFCHECK' '$T/$n.o' | grep -c '^trap .*type=$VOID target=r11 disp=-4' | grep -qx 1"
			if [ $reg = r11 ]; then
				check "$n: no move for a target in %r11" sh -c "! grep -q 'movq.*%r11\$' '$T/$n.out'"
			else
				check "$n: the target is moved to %r11" grep -q "movq	%$reg, %r11" "$T/$n.out"
			fi
		else
			fail "$n: kcfi-as failed"
		fi
		n=inline-sib-$reg-$cfi
		{ prologue '	.kcfi_call 1'; sib_form $reg "$c"; epilogue; } >"$T/$n.s"
		as_ok $n && check "$n: the tail retpoline is rebuilt through %r11" rebuilt "$T/$n.out" sib $cfi ||
			fail "$n: kcfi-as failed"
	done
done
# -fno-dwarf2-cfi-asm: GCC's own .eh_frame refers to its labels.
{ prologue '	.kcfi_call 1'; call_form rax; epilogue; printf '\t.section\t.eh_frame,"a",@progbits\n\t.long\t.LIND3-.LFB0\n'; } >"$T/ehframe.s"
check "GCC's labels stay defined for its .eh_frame" as_ok ehframe

# -- thunk-inline, passed on unchanged ---------------------------------------
same() {	# NAME: the input's lines from the directive on are in the output
	# (with the function's .debug range record before its .size,
	# and the type name records at the end)
	sed -n '/^\.LIND/,$p' "$T/$1.s" >"$T/$1.in-tail"
	sed -n '/^\.LIND/,$p' "$T/$1.out" | grep -v -e '^# [0-9]' -e '^\.Lkcfi_exempt[0-9]*:$' \
		-e '^	\.pushsection	\.debug,"",%progbits$' -e '^	\.balign	8$' \
		-e '^	\.quad	\.Lkcfi_fn[0-9]*, \.Lkcfi_exempt[0-9]*, 64$' -e '^	\.popsection$' \
		-e '^	\.quad	[0-9]*, [0-9]*, 65$' -e '^	\.ascii	"_ZTS[A-Za-z0-9_.]*"$' \
		-e '^	\.zero	[0-9]*$' >"$T/$1.out-tail"
	diff "$T/$1.in-tail" "$T/$1.out-tail" && ! grep -q ud2 "$T/$1.out"
}
for d in '	.kcfi_call_unchecked:call' '	.kcfi_call 2:call' '	.kcfi_branch_nocall:sib' '	.kcfi_call_unchecked:sib'; do
	n=pass-$(echo "${d#	}" | tr -cd 'a-z0-9')
	{ prologue "${d%:*}"; if [ "${d##*:}" = call ]; then call_form rax; else sib_form rax; fi; epilogue; } >"$T/$n.s"
	as_ok $n && check "${d#	}: the inline retpoline passes unchanged" same $n || fail "$n: kcfi-as failed"
done
{ prologue '	.kcfi_call_direct'; call_form rax; epilogue; } >"$T/direct.s"
check ".kcfi_call_direct before a jmp .LIND: a direct jump, unchanged" sh -c \
	"'$KCFI_AS' --kcfi-save='$T/direct.out' -o '$T/direct.o' '$T/direct.s' && grep -q 'mov	%rax, (%rsp)' '$T/direct.out'"

# -- thunk-inline, refused ----------------------------------------------------
{ prologue '	.kcfi_branch_nocall'; call_form rax; epilogue; } >"$T/nocall-call.s"
expect_error nocall-call 26 'must annotate an indirect jump, but the sequence that follows it is an indirect call'
{ prologue '	.kcfi_call 1'; call_form rax | sed '/lfence/d'; epilogue; } >"$T/no-lfence.s"
expect_error no-lfence 20 "inline retpoline expected 'lfence', found 'jmp	.LIND2'"
{ prologue '	.kcfi_call 1'; call_form rax | sed 's/jmp	\.LIND2/jmp	.LIND0/'; epilogue; } >"$T/wrong-loop.s"
expect_error wrong-loop 21 'expected a jump back to its pause'
{ prologue '	.kcfi_call 1'; call_form rax | sed 's/^\.LIND3:/.LIND9:/'; epilogue; } >"$T/wrong-label.s"
expect_error wrong-label 22 'expected the label its first call goes to'
{ prologue '	.kcfi_call 1'; call_form rax | sed 's/(%rsp)/8(%rsp)/'; epilogue; } >"$T/wrong-mov.s"
expect_error wrong-mov 23 "expected 'mov %reg, (%rsp)'"
{ prologue '	.kcfi_call 1'; call_form rax | sed 's/call	\.LIND0/call	.LIND0; nop/'; epilogue; } >"$T/trailing.s"
expect_error trailing 26 "'nop' shares its line with the end of the branch"
{ prologue '	.kcfi_call 1'; call_form rax | sed 's/^\.LIND3:/#APP\n.LIND3:/'; epilogue; } >"$T/app.s"
expect_error app 22 "'#APP' inside the branch that .kcfi_call (line 13) annotates"
{ prologue '	.kcfi_call 1'; call_form rax | sed -n '1,6p'; } >"$T/eof.s"
expect_error eof 13 'the input ends inside the branch it annotates'
{ prologue '	.kcfi_call 1'; printf '\tjmp\t.L5\n'; epilogue; } >"$T/other-label.s"
expect_error other-label 15 "must annotate an indirect branch, but 'jmp	.L5' is a direct jump"
{ prologue '	.kcfi_call 1'; printf '\tjmp\t.LIND1\n'; call_form rax | sed 1d; epilogue; } >"$T/first-ok.s"
check "(the refusals above are of well-formed neighbours)" as_ok first-ok

# -- thunk ---------------------------------------------------------------------
thunk_tu() {	# CALL-LINE DIRECTIVE THUNK-SECTIONS...
	call=$1 dir=$2; shift 2
	{ prologue "$dir"; printf '\t%s\n' "$call"; epilogue
	  for r in "$@"; do
		printf '\t.section\t.text.__x86_indirect_thunk_%s,"axG",@progbits,__x86_indirect_thunk_%s,comdat\n' $r $r
		printf '\t.globl\t__x86_indirect_thunk_%s\n\t.hidden\t__x86_indirect_thunk_%s\n\t.type\t__x86_indirect_thunk_%s, @function\n__x86_indirect_thunk_%s:\n' $r $r $r $r
		printf '\t.cfi_startproc\n\tcall\t.LIND1%s\n.LIND0%s:\n\tpause\n\tlfence\n\tjmp\t.LIND0%s\n.LIND1%s:\n\t.cfi_def_cfa_offset 16\n\tmov\t%%%s, (%%rsp)\n\tret\n\t.cfi_endproc\n' $r $r $r $r $r
	  done
	  printf '\t.section\t.note.GNU-stack,"",@progbits\n'; }
}
defs() { "$READELF" -sW "$1" | grep -cE "[0-9] FUNC +GLOBAL +HIDDEN +[0-9]+ __x86_indirect_thunk_r11\$" || true; }
thunk_tu 'call	__x86_indirect_thunk_rax' '	.kcfi_call 1' rax >"$T/thunk.s"
if as_ok thunk; then
	check "thunk: __x86_indirect_thunk_r11 is defined, hidden" equal 1 "$(defs "$T/thunk.o")" "definitions"
	check "thunk: in GCC's comdat group" sh -c \
		"'$READELF' -gW '$T/thunk.o' | grep -q 'COMDAT group section .*\\[__x86_indirect_thunk_r11\\]'"
	check "thunk: as GCC's retpoline, through %r11" sh -c \
		"sed -n '/^__x86_indirect_thunk_r11:/,/popsection/p' '$T/thunk.out' | tr -s '\t ' ' ' | tr '\n' ';' | grep -q '^__x86_indirect_thunk_r11:; .cfi_startproc; call .Lkcfi_thunk_r11_set;.Lkcfi_thunk_r11_spin:; pause; lfence; jmp .Lkcfi_thunk_r11_spin;.Lkcfi_thunk_r11_set:; .cfi_def_cfa_offset 16; mov %r11, (%rsp); ret; .cfi_endproc;'"
	check "thunk: the check calls it" grep -q '^	call	__x86_indirect_thunk_r11$' "$T/thunk.out"
else
	fail "thunk: kcfi-as failed"
fi
thunk_tu 'jmp	__x86_indirect_thunk_r11' '	.kcfi_call 1' r11 rax >"$T/has-r11.s"
as_ok has-r11 && check "thunk: a TU with its own r11 thunk gets no second one" equal 1 "$(defs "$T/has-r11.o")" "definitions" ||
	fail "has-r11: kcfi-as failed"
thunk_tu 'call	__x86_indirect_thunk_rax' '	.kcfi_call_unchecked' rax >"$T/unchecked.s"
as_ok unchecked && check "thunk: no check, no r11 thunk" sh -c "! grep -q __x86_indirect_thunk_r11 '$T/unchecked.out'" ||
	fail "unchecked: kcfi-as failed"
thunk_tu 'call	__x86_indirect_thunk_rax' '	.kcfi_call 1' >"$T/extern.s"
as_ok extern && check "thunk-extern: the r11 thunk stays undefined" sh -c \
	"'$READELF' -sW '$T/extern.o' | grep -qE 'UND __x86_indirect_thunk_r11\$' && [ $(defs "$T/extern.o") -eq 0 ]" ||
	fail "extern: kcfi-as failed"
sed '/cfi_/d' "$T/thunk.s" >"$T/nocfi.s"
as_ok nocfi && check "thunk: no CFI in a TU without" sh -c "! grep -q cfi_ '$T/nocfi.out'" ||
	fail "nocfi: kcfi-as failed"

# -- the profiler -------------------------------------------------------------------
prof() { printf '%s\n\t.text\nf:\n%s\n\tret\n' "$V" "$1"; }
for name in mcount __fentry__ my_hook; do
	prof "1:	call	*$name@GOTPCREL(%rip)" >"$T/prof.s"
	check "-pg: '1: call *$name@GOTPCREL(%rip)' passes unannotated" as_ok prof
done
prof '	call	*mcount@GOTPCREL(%rip)' >"$T/prof-nolabel.s"
expect_error prof-nolabel 4 'without a kcfi annotation'
prof '1:	call	*%r10' >"$T/prof-reg.s"
expect_error prof-reg 4 'without a kcfi annotation'
prof '1:	call	*mcount@GOTPCREL(%rax)' >"$T/prof-base.s"
expect_error prof-base 4 'without a kcfi annotation'
prof '2:	call	*mcount@GOTPCREL(%rip)' >"$T/prof-two.s"
expect_error prof-two 4 'without a kcfi annotation'

# -- Intel syntax -----------------------------------------------------------------
printf '\t.intel_syntax noprefix\n%s\n\t.text\nf:\n\tret\n' "$V" >"$T/intel.s"
expect_error intel 2 'reads AT&T syntax only'
printf '\t.intel_syntax noprefix\n\t.att_syntax prefix\n%s\n\t.text\nf:\n\tret\n' "$V" >"$T/intel-att.s"
check "Intel syntax switched back before .kcfi_version is fine" as_ok intel-att
finish
