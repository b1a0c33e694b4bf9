#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# x86_64: every spelling GNU as accepts for an indirect branch (issue 14,
# item 12).  For each one the real assembler is the oracle: what it
# assembles the spelling to (objdump) decides which register the check
# must read (the target's own, or %r11 loaded with it: doc/abi.md 1) and
# what the checked branch must still be.  Then:
#  - annotated with .kcfi_call, the check reads exactly that target, the
#    branch after it is the same kind of branch through that register, the
#    object decodes (kcfi-elfcheck: one trap of the right type);
#  - unannotated in an instrumented unit, it is refused with file:line;
#  - spellings a check cannot keep the meaning of (far branches, 16-bit
#    targets, REX.B/X/R, lock/rep/{vex}) are refused under .kcfi_call and
#    pass unchanged under .kcfi_call_unchecked;
#  - the same spellings in a plain .s, or between #APP and #NO_APP, pass
#    byte for byte.
. "$top_srcdir/tests/lib.sh"

V='	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0'
VOID=$(fnv1a _ZTSFvvE)

# dis FILE.o: the instructions of its .text, "mnemonic operands", blanks squeezed.
dis() {
	objdump -d --no-show-raw-insn "$1" | awk -F'\t' 'NF >= 2 && $1 ~ /^ *[0-9a-f]+:$/ { s = $2
		sub(/ *#.*/, "", s); gsub(/ +/, " ", s); sub(/ $/, "", s); print s }'
}

# Checked spellings: "spelling|what GNU as makes of it".
while IFS='|' read -r sp want; do
	[ -n "$sp" ] || continue
	printf '\t.text\n\t%s\n' "$sp" >"$T/ref.s"
	as -o "$T/ref.o" "$T/ref.s" 2>/dev/null || { fail "'$sp': GNU as rejects it (test data stale?)"; continue; }
	got=$(dis "$T/ref.o")
	[ "$got" = "$want" ] || { fail "'$sp': GNU as assembles '$got', the test expects '$want'"; continue; }
	# The branch as GNU as prints it: [prefixes] call|jmp *TARGET
	kind=$(printf '%s\n' "$want" | sed 's/^\(.* \)\{0,1\}\(call\|jmp\) .*/\2/')
	# rex, rex.W: nothing a near branch needs; the check's branch drops them.
	pfx=$(printf '%s\n' "$want" | sed -n 's/^\(.*\) \(call\|jmp\) .*/\1/p' | sed 's/rex[.A-Z]*//; s/^ *//')
	target=$(printf '%s\n' "$want" | sed 's/.* \*//')
	printf '%s\n\t.kcfi_type 1, "void (void)"\n\t.text\n\t.globl f\nf:\n\t.kcfi_call 1\n\t%s\n\tret\n' \
		"$V" "$sp" >"$T/c.s"
	if ! "$KCFI_AS" --kcfi-save="$T/c.out.s" -o "$T/c.o" "$T/c.s" 2>"$T/c.err"; then
		fail "'$sp': refused"; sed 's/^/    /' "$T/c.err"; continue
	fi
	dis "$T/c.o" >"$T/c.dis"
	# The register the check reads (doc/abi.md 1): the branch's own, but
	# %r11 for memory targets, %r10 (the scratch) and %r12 (needs a SIB).
	case $target in
	%r10|%r12|%rsp|%*[\(:]*) reg=%r11 ;;
	%*) reg=$target ;;
	*) reg=%r11 ;;
	esac
	# The load of the target, unless it is in that register already.
	first=$(sed -n 1p "$T/c.dis")
	if [ "$target" = "$reg" ]; then
		want_first='mov $'
	else
		want_first="mov $target,%r11"
	fi
	case $first in
	"$want_first"*) pass "'$sp': the check loads $target" ;;
	*) fail "'$sp': the check begins with '$first', not '$want_first'"; sed 's/^/    /' "$T/c.dis" ;;
	esac
	last=$(grep -E '(call|jmp) ' "$T/c.dis" | tail -1)
	want_last="${pfx:+$pfx }$kind *$reg"
	[ "$last" = "$want_last" ] && pass "'$sp': then '$want_last'" ||
		fail "'$sp': the checked branch is '$last', not '$want_last'"
	"$ELFCHECK" "$T/c.o" >"$T/c.check" 2>&1
	[ "$(grep -c "^trap .*type=$VOID target=${reg#%} " "$T/c.check")" -eq 1 ] &&
		pass "'$sp': one decodable check of void (void)" ||
		{ fail "'$sp': kcfi-elfcheck"; sed 's/^/    /' "$T/c.check"; }

	# Unannotated, it is refused.
	printf '%s\n\t.text\nf:\n\t%s\n' "$V" "$sp" >"$T/u.s"
	if "$KCFI_AS" -o "$T/u.o" "$T/u.s" 2>"$T/u.err"; then
		fail "'$sp': accepted without an annotation"
	elif grep -q "^$T/u.s:4: error: .*without a kcfi annotation" "$T/u.err"; then
		pass "'$sp': refused without an annotation"
	else
		fail "'$sp': unannotated: wrong message"; sed 's/^/    /' "$T/u.err"
	fi
done <<'END'
call *%rax|call *%rax
CALL *%RAX|call *%rax
CallQ *%Rax|call *%rax
callq	 *  %rdx|call *%rdx
call *%rax # why|call *%rax
jmp	%rdx	# why ; not a statement|jmp *%rdx
JMP *%RSI|jmp *%rsi
jmpq *%r11|jmp *%r11
call %rax|call *%rax
jmp %rcx|jmp *%rcx
CALL %R11|call *%r11
rex.W call *%rax|rex.W call *%rax
REX.W call *%r9|rex.WB call *%r9
rex64 jmp *%rax|rex.W jmp *%rax
rex call *%rax|rex call *%rax
{disp32} call *8(%rax)|call *0x8(%rax)
{disp8} call *8(%rax)|call *0x8(%rax)
{load} call *%rax|call *%rax
{nooptimize} jmp *%rdi|jmp *%rdi
notrack call *%rax|notrack call *%rax
NOTRACK CALL *%RCX|notrack call *%rcx
ds call *%rax|notrack call *%rax
cs call *%rax|cs call *%rax
bnd jmp *%rax|bnd jmp *%rax
call *(%rax)|call *(%rax)
call (%rax)|call *(%rax)
call 8(%rax)|call *0x8(%rax)
call *(%rax,%rbx,8)|call *(%rax,%rbx,8)
call 8(,%rax,8)|call *0x8(,%rax,8)
call *sym(%rip)|call *0x0(%rip)
call sym(%rip)|call *0x0(%rip)
jmp sym(%rip)|jmp *0x0(%rip)
call *sym|call *0x0
call *%fs:8|call *%fs:0x8
call *%FS:8|call *%fs:0x8
call *%gs:(%rax)|call *%gs:(%rax)
call %fs:(%rax)|call *%fs:(%rax)
fs call *8|call *%fs:0x8
gs jmp *(%rdi)|jmp *%gs:(%rdi)
jmp *%fs:8|jmp *%fs:0x8
END

# Spellings that are branches a check cannot keep the meaning of.
while IFS='|' read -r sp why; do
	[ -n "$sp" ] || continue
	printf '\t.text\n\t%s\n' "$sp" >"$T/ref.s"
	as -o "$T/ref.o" "$T/ref.s" 2>/dev/null || { fail "'$sp': GNU as rejects it (test data stale?)"; continue; }
	printf '%s\n\t.kcfi_type 1, "void (void)"\n\t.text\nf:\n\t.kcfi_call 1\n\t%s\n' "$V" "$sp" >"$T/r.s"
	if "$KCFI_AS" -o "$T/r.o" "$T/r.s" 2>"$T/r.err"; then
		fail "'$sp': checked"
	elif grep -q "^$T/r.s:6: error: .*cannot be checked by KCFI: .*$why" "$T/r.err"; then
		pass "'$sp': refused under .kcfi_call ($why)"
	else
		fail "'$sp': wrong message"; sed 's/^/    /' "$T/r.err"
	fi
	printf '%s\n\t.text\nf:\n\t.kcfi_call_unchecked\n\t%s\n' "$V" "$sp" >"$T/n.s"
	check "'$sp': passes unchanged under .kcfi_call_unchecked" sh -c \
		"'$KCFI_AS' --kcfi-save='$T/n.out.s' -o '$T/n.o' '$T/n.s' && grep -qxF '	$sp' '$T/n.out.s' &&
		 [ \"\$(objdump -d '$T/n.o' | grep -c ud2)\" -eq 0 ]"
	printf '%s\n\t.text\nf:\n\t%s\n' "$V" "$sp" >"$T/u.s"
	check "'$sp': refused without an annotation" sh -c \
		"! '$KCFI_AS' -o '$T/u.o' '$T/u.s' 2>'$T/u.err' && grep -q ':4: error: .*without a kcfi annotation' '$T/u.err'"
done <<'END'
lcall *(%rax)|far branch
LCALLW *(%rax)|far branch
ljmp *(%rax)|far branch
ljmpl *8(%rdi)|far branch
lcall (%rax)|far branch
callw *%ax|16-bit
jmpw *%ax|16-bit
call *%ax|16-bit
call *%r11w|16-bit
data16 call *%rax|16-bit
rex.B call *%rax|REX prefix with R, X or B
rex.WRXB jmp *%rax|REX prefix with R, X or B
rex.X call *(%rax,%rbx)|REX prefix with R, X or B
addr32 call *(%eax)|prefix a checked branch cannot carry
END

# Spellings GNU as reads as direct branches stay unannotated.
for sp in 'call (sym)' 'call %fs:8' 'CALL sym' 'Jmp 1f' 'JNE 1f' 'call __X86_INDIRECT_THUNK_RAX'; do
	printf '%s\n\t.text\nf:\n\t%s\n1:\n\tret\n' "$V" "$sp" >"$T/d.s"
	check "'$sp' is a direct branch" "$KCFI_AS" -o "$T/d.o" "$T/d.s"
done

# expect_error NAME LINE PATTERN < input
expect_error() {
	cat >"$T/e.s"
	if "$KCFI_AS" -o "$T/e.o" "$T/e.s" >"$T/e.err" 2>&1; then
		fail "$1: accepted"
	elif grep -q "^$T/e.s:$2: error: .*$3" "$T/e.err"; then
		pass "$1"
	else
		fail "$1: expected 'e.s:$2: error: ...$3', got:"; sed 's/^/    /' "$T/e.err"
	fi
}

# GNU as reads on after ';' on a .loc, .cfi_* or line-marker line.
expect_error loc-then-call 5 "without a kcfi annotation" <<END
$V
	.text
	.file 1 "a.c"
f:
	.loc 1 2 3 ; call *%rax
END
expect_error cfi-then-call 4 "without a kcfi annotation" <<END
$V
	.text
f:
	.cfi_startproc ; jmp *%rax
	.cfi_endproc
END
expect_error marker-then-call 4 "without a kcfi annotation" <<END
$V
	.text
f:
# 5 "f.c" 1 ; call *%rax
END
printf '%s\n\t.text\nf:\n# 5 "f.c" 1 # ; call *%%rax\n\tret\n' "$V" >"$T/marker-comment.s"
check "a line marker's comment stays a comment" "$KCFI_AS" -o "$T/mc.o" "$T/marker-comment.s"

# In Intel syntax "call rax" is an indirect call: a switch to it, in any
# letter case, is refused outside #APP.
expect_error intel-syntax 4 "reads AT&T syntax only" <<END
$V
	.text
f:
	.INTEL_SYNTAX noprefix
	call	rax
END

# A prefix alone on its line applies to the next instruction: after the
# annotation it joins the branch (and is judged with it), before the
# annotation it would prefix the check.
printf '%s\n\t.kcfi_type 1, "void (void)"\n\t.text\nf:\n\t.kcfi_call 1\n\tnotrack\n\tCALL *%%RAX\n' "$V" >"$T/pl.s"
check "a notrack line after .kcfi_call joins the branch" sh -c \
	"'$KCFI_AS' -o '$T/pl.o' '$T/pl.s' && objdump -d '$T/pl.o' | grep -q 'notrack call \*%rax'"
expect_error rexb-line 7 "cannot be checked by KCFI: a REX prefix" <<END
$V
	.kcfi_type 1, "void (void)"
	.text
f:
	.kcfi_call 1
	rex.B
	call	*%rax
END
expect_error prefix-before-call 6 "after the prefix at line 5" <<END
$V
	.kcfi_type 1, "void (void)"
	.text
f:
	data16
	.kcfi_call 1
	call	*%r11
END
expect_error prefix-before-func 5 "after the prefix at line 4" <<END
$V
	.kcfi_type 1, "void (void)"
	.text
	rex.B
	.kcfi_func f, 1
f:
	ret
END

# Raw instruction bytes between an annotation and its branch.
for d in '.byte 0xff, 0xd0' '.byte 0x41' '.4byte 0xd0ff' '.long 0xd0ff' '.word 0xd0ff' \
	 '.value 0x4141' '.insn 0xff/2, %rax' '.BYTE 0x41'; do
	for k in '.kcfi_call 1' .kcfi_call_direct .kcfi_branch_nocall; do
		expect_error "raw $d after $k" 6 "directive '${d%% *}' between ${k%% *}" <<END
$V
	.kcfi_type 1, "void (void)"
	.text
f:
	$k
	$d
	jmp	*%rax
END
	done
done
# The one pattern that has data there: GCC's TLS GD call with -fno-plt.
printf '%s\n\t.text\nf:\n\t.kcfi_call_direct\n\tdata16 leaq tv@tlsgd(%%rip), %%rdi\n\t.byte 0x66\n\trex64\n\tcall *__tls_get_addr@GOTPCREL(%%rip)\n' \
	"$V" >"$T/tls.s"
check "data16 bytes in GCC's TLS GD call" "$KCFI_AS" -o "$T/tls.o" "$T/tls.s"

# Everything above passes byte for byte in a plain .s, and between #APP and
# #NO_APP of an instrumented unit (there kcfi-as adds only a label before
# the block and a label and its .debug record after it, and the unit's
# first record, of zeros, at .kcfi_version).
{
	printf '\t.text\nf:\n'
	for sp in 'call *%rax' 'CALL *%RAX' 'rex.B call *%rax' 'lcall *(%rax)' 'call %rax' \
		  '{disp32} call *8(%rax)' 'fs call *8' 'data16' 'call *%rax' '.byte 0xff, 0xd0'; do
		printf '\t%s\n' "$sp"
	done
	printf '# 5 "f.c" 1 ; call *%%rax\n\t.loc 1 2 3 ; jmp *%%rax\n'
} >"$T/plain-body.s"
{ printf '\t.file 1 "a.c"\n'; cat "$T/plain-body.s"; } >"$T/plain.s"
check "a plain .s with every spelling is byte-identical" sh -c \
	"'$KCFI_AS' --kcfi-save='$T/plain.out.s' -o '$T/plain.o' '$T/plain.s' && cmp '$T/plain.s' '$T/plain.out.s' &&
	 as -o '$T/plain.ref.o' '$T/plain.s' 2>/dev/null && cmp '$T/plain.o' '$T/plain.ref.o'"
{ printf '%s\n\t.file 1 "a.c"\n#APP\n' "$V"; cat "$T/plain-body.s"; printf '#NO_APP\n\tret\n'; } >"$T/app.s"
check "... and between #APP and #NO_APP" sh -c \
	"'$KCFI_AS' --kcfi-save='$T/app.out.s' -o '$T/app.o' '$T/app.s' && tail -n +2 '$T/app.s' >'$T/app.tail' &&
	 grep -v -e '^# [0-9]* \"$T/app.s\"' -e '^\.Lkcfi_exempt[01]:\$' \
		-e '^	\.pushsection	\.debug,\"\",%progbits\$' -e '^	\.balign	8\$' -e '^	\.zero	24\$' \
		-e '^	\.quad	\.Lkcfi_exempt0, \.Lkcfi_exempt1, 1\$' -e '^	\.popsection\$' \
		'$T/app.out.s' | cmp - '$T/app.tail'"

# Unusual spellings run: a matching target returns, another type traps.
cat >"$T/callers.s" <<END
$V
	.kcfi_type 1, "int (int)"
	.text
	.kcfi_func call_a
	.globl	call_a
call_a:			# int call_a(int (*fp)(int))
	movq	%rdi, %rax
	movl	\$7, %edi
	.kcfi_call 1
	CALLQ	*%RAX
	ret
	.kcfi_func call_b
	.globl	call_b
call_b:
	pushq	%rdi
	movl	\$7, %edi
	.kcfi_call 1
	{disp32} notrack call	0(%rsp)
	popq	%rdi
	ret
	.kcfi_func call_c
	.globl	call_c
call_c:
	movq	%rdi, %rcx
	movl	\$7, %edi
	.kcfi_call 1
	rex.W
	JMP	%RCX
END
cat >"$T/main.c" <<'END'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int call_a(int (*)(int)), call_b(int (*)(int)), call_c(int (*)(int));
int twice(int x) { return 2 * x; }
int other(long x) { return (int)x; }
int main(int argc, char **argv)
{
	int (*fp)(int) = argc > 2 ? (int (*)(int))other : twice;
	/* direct calls: call_a... have no preamble */
	printf("%d\n", !strcmp(argv[1], "a") ? call_a(fp) : !strcmp(argv[1], "b") ? call_b(fp) : call_c(fp));
	return 0;
}
END
if "$KCFI_GCC" -fsanitize=kcfi -O2 -o "$T/prog" "$T/main.c" "$T/callers.s" 2>"$T/prog.err"; then
	for v in a b c; do
		check "run $v: matched call through an unusual spelling" sh -c "[ \"\$('$T/prog' $v)\" = 14 ]"
		sh -c "'$T/prog' $v mismatch" >/dev/null 2>&1
		rc=$?
		[ $rc -eq 132 ] && pass "run $v: another type traps (SIGILL)" || fail "run $v: exit $rc, not 132 (SIGILL)"
	done
else
	fail "callers.s does not build"; sed 's/^/    /' "$T/prog.err"
fi
finish
