#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Golden tests: hand-written annotated assembly in, rewritten assembly out,
# compared line for line with a reviewed expectation, for x86_64, i386,
# aarch64 and riscv64 (doc/abi.md 1-3), arm in both states, and extern
# stubs on the backends that have them.  The expectations are also checked
# here against facts computed independently, so a wrong one cannot hide.
. "$top_srcdir/tests/lib.sh"
G=$top_srcdir/tests/golden

for f in x86_64-basic x86_64-prefix; do
	cp "$G/$f.s" "$T/$f.s"
	if (cd "$T" && "$KCFI_AS" --kcfi-no-assemble --kcfi-save="$f.out" "$f.s" 2>"$f.err"); then
		check "$f: output is the reviewed expectation" diff -u "$G/$f.expected" "$T/$f.out"
	else
		fail "$f: kcfi-as refused it"; cat "$T/$f.err"
	fi
	# The expectation assembles, and an independent decoder accepts it.
	m=$(sed -n 's/.*prefix=\([0-9]*\)$/\1/p' "$G/$f.s")
	check "$f: the expectation assembles into decodable checks (M=$m)" sh -c \
		"as --64 -o '$T/$f.o' '$G/$f.expected' && '$ELFCHECK' --prefix=$m '$T/$f.o' >'$T/$f.chk'"
done

# Facts in the expectations: ids (FNV-1a of the mangled names), where the
# checks load from, the preamble layout, the unmasked __kcfi_typeid_.
u32() { printf '%u' $(($1)); }
neg() { printf '%u' $(( (0x100000000 - $1) & 0xffffffff )); }
VPI=$(fnv1a _ZTSFvPiE) II=$(fnv1a _ZTSFiiE)
IOCTL=$(fnv1a _ZTSFlP4filejmE) VV=$(fnv1a _ZTSFvvE)
B=$G/x86_64-basic.expected P=$G/x86_64-prefix.expected
count() { grep -c -- "$1" "$2" || true; }
check "basic: two preambles carry void (int *)'s and int (int)'s id" sh -c \
	"grep -q 'movl	\$$(u32 "$VPI"), %eax' '$B' && [ \$(grep -c 'movl	\$$(u32 "$II"), %eax' '$B') -eq 2 ]"
check "basic: each check compares against the negated id" sh -c \
	"[ \$(grep -c 'movl	\$$(neg "$VPI"), %r10d' '$B') -eq 2 ] && [ \$(grep -c 'movl	\$$(neg "$II"), %r10d' '$B') -eq 4 ]"
check "basic: loads at -4, six checks, six .kcfi_traps entries" sh -c \
	"[ \$(grep -c 'addl	-4(%r[a-z0-9]*), %r10d' '$B') -eq 6 ] && [ \$(grep -c '^	\.long	\.Lkcfi[0-9]_trap-\.Lkcfi[0-9]_entry' '$B') -eq 6 ]"
# doc/abi.md 1: the check tests the register the call uses (as Clang's),
# except the scratch %r10 and %r12, whose addl would need a SIB byte; those
# and memory targets go to %r11 first.
check "basic: %rsi and %rbp are checked in place, no move" sh -c \
	"[ \$(grep -c '^	movq' '$B') -eq 3 ] && for r in rsi rbp; do
	   grep -A9 \"addl	-4(%\$r), %r10d\" '$B' | grep -q \"^	call	\\*%\$r\\\$\" || exit 1; done"
check "basic: %r10, %r12 and 16(%rdi) are moved to %r11 first" sh -c \
	"grep -q '^	movq	%r10, %r11\$' '$B' && grep -q '^	movq	%r12, %r11\$' '$B' &&
	 grep -q '^	movq	16(%rdi), %r11\$' '$B' && [ \$(grep -c 'addl	-4(%r11), %r10d' '$B') -eq 4 ]"
check "basic: 11 NOPs before each movl, the local one has no .globl" sh -c \
	"awk '/^__cfi_/ { n = 0; next } /^	nop/ { n++ } /movl.*%eax/ && n != 11 { exit 1 }' '$B' && ! grep -q 'globl	__cfi_local_taken' '$B'"
check "basic: __kcfi_typeid_ext_target is weak, unmasked int (int)" sh -c \
	"grep -q '^	\.weak	__kcfi_typeid_ext_target' '$B' && grep -q '^	\.set	__kcfi_typeid_ext_target, $(u32 "$II")\$' '$B'"
check "basic: unchecked and inline-asm calls are untouched" sh -c \
	"grep -q '^	call	\*%rax\$' '$B' && grep -q '^	call	\*%rcx\$' '$B'"
check "basic: both are recorded in .debug: no_sanitize (2), the #APP block (1)" sh -c \
	"grep -B6 '^	call	\*%rax\$' '$B' | grep -q '^	\.quad	\.Lkcfi_exempt\([0-9]*\), \.Lkcfi_exempt\1, 2\$' &&
	 grep -A5 '^	call	\*%rcx\$' '$B' | grep -q '^	\.quad	\.Lkcfi_exempt[0-9]*, \.Lkcfi_exempt[0-9]*, 1\$'"
check "prefix: checks load at -15 and go through the r11 thunk" sh -c \
	"[ \$(grep -c 'addl	-15(%r11), %r10d' '$P') -eq 3 ] && [ \$(grep -c '__x86_indirect_thunk_r11' '$P') -eq 2 ] && grep -A1 '^	cs\$' '$P' | grep -q 'call	__x86_indirect_thunk_r11'"
check "prefix: preambles between the alignment and .LPFE, no padding (11 + 5 = 16)" sh -c \
	"grep -B3 '^\.LPFE1:' '$P' | grep -q 'movl	\$$(u32 "$IOCTL"), %eax' && grep -B3 '^\.LPFE2:' '$P' | grep -q 'movl	\$$(u32 "$VV"), %eax'"
check "prefix: COMDAT preamble is weak, its trap table in the group" sh -c \
	"grep -q '^	\.weak	__cfi_shared' '$P' && grep -q 'kcfi_traps,\"aoG\",@progbits,\.text\.shared,shared,comdat' '$P'"
check "prefix: the untyped function gets 5 NOPs so that its entry stays aligned" sh -c \
	"awk '/^	\.p2align 4/ { n = 0; go = 1; next } go && /^	nop/ { n++ } /^\.LPFE3:/ { exit n != 5 }' '$P'"

# i386 (gcc -m32): the x86_64 triple with ptr=32, which kcfi-as takes for
# i386 under the assembler's --32 only.  Clang 22's sequence: cmpl of the id
# at -4 through the target's register (memory targets loaded into %eax
# first), je over an int3, no .kcfi_traps.
f=i386-basic R=$G/$f.expected
cp "$G/$f.s" "$T/$f.s"
if (cd "$T" && "$KCFI_AS" --32 --kcfi-no-assemble --kcfi-save="$f.out" "$f.s" 2>"$f.err"); then
	check "$f: output is the reviewed expectation" diff -u "$R" "$T/$f.out"
else
	fail "$f: kcfi-as refused it"; cat "$T/$f.err"
fi
check "$f: the expectation assembles, and kcfi-audit reads its six checks" sh -c \
	"as --32 -o '$T/$f.o' '$R' && '$top_builddir/kcfi-audit' '$T/$f.o' | tail -1 |
	 grep -q ': i386: 6 checked, 3 exempt (inline-asm 1, no-sanitize 1, direct 1), 0 unchecked, '"
check "$f: without --32 (64-bit code) it is refused" sh -c \
	"cd '$T' && ! '$KCFI_AS' --kcfi-no-assemble --kcfi-save=x.out '$f.s' 2>x.err &&
	 grep -q '^$f.s:[0-9]*: error: no KCFI backend for target \"x86_64-linux-gnu\" with 32-bit pointers' x.err"
LPC=$(fnv1a _ZTSFllPKcE) III=$(fnv1a _ZTSFiiiE)
# Every check, read back from the text: "ID LOAD TARGET BRANCH", LOAD being
# the operand loaded into %eax first, or "-".
i386_checks() {
	awk '
	function fail(m) { print "bad check before line " NR ": " m; bad = 1 }
	{ l[NR] = $0 }
	/^	int3$/ {
		if (l[NR - 1] !~ /^\.Lkcfi[0-9]+_trap:$/) fail("no trap label")
		if (l[NR - 2] !~ /^	je	\.Lkcfi[0-9]+_call$/) fail("no je over the trap")
		if (l[NR - 3] !~ /^	cmpl	\$[0-9]+, -4\(%e[a-z]+\)$/) fail("no cmpl at -4: " l[NR - 3])
		split(l[NR - 3], c, /[\t$,() ]+/)
		load = "-"
		if (l[NR - 4] ~ /^	movl	.*, %e[a-z]+$/ && l[NR - 4] ~ c[5] "$") {
			load = l[NR - 4]; sub(/^	movl	/, "", load); sub(/, %e[a-z]+$/, "", load)
		}
		getline; if ($0 !~ /^\.Lkcfi[0-9]+_call:$/) fail("no call label")
		getline; b = $0; sub(/^	/, "", b); sub(/	/, " ", b)
		printf "%u %s %s %s\n", c[3], load, c[5], b
	}
	END { exit bad }' "$R"
}
printf '%s\n' "$(u32 "$II") 32(%esp) %eax call *%eax" "$(u32 "$LPC") 4(%eax) %eax call *%eax" \
	"$(u32 "$II") (%eax) %eax jmp *%eax" "$(u32 "$III") 8(%eax) %eax call *%eax" \
	"$(u32 "$II") - %ecx jmp *%ecx" "$(u32 "$III") 12(%esi) %ecx call *%ecx" >"$T/i386.want"
i386_checks >"$T/i386.got"
check "$f: six checks, each the expected id at -4 of the register the branch goes through" \
	diff -u "$T/i386.want" "$T/i386.got"
check "$f: no .kcfi_traps (Clang has none for i386)" sh -c "! grep -q kcfi_traps '$R'"
check "$f: 11 NOPs before each movl of a preamble, whose ids are the functions' types" sh -c \
	"awk '/^__cfi_/ { n = 0; next } /^	nop/ { n++ } /movl	.*%eax\$/ && n && n != 11 { exit 1 }' '$R' &&
	 grep -A12 '^__cfi_tail_reg:' '$R' | grep -q 'movl	\$$(u32 "$(fnv1a _ZTSFiPFiiEiE)"), %eax'"
check "$f: unchecked, inline-asm and -pg calls are untouched, recorded as 2, 1 and 5" sh -c \
	"grep -q '^	call	\*32(%esp)\$' '$R' && grep -q '^	call \*%eax\$' '$R' &&
	 grep -q '^1:	call	\*mcount@GOT(%ebx)\$' '$R' &&
	 grep -B5 '^	call	\*32(%esp)\$' '$R' | grep -q '^	\.long	\.Lkcfi_exempt\([0-9]*\), 0, \.Lkcfi_exempt\1, 0, 2, 0\$' &&
	 grep -A5 '^	call \*%eax\$' '$R' | grep -q '^	\.long	\.Lkcfi_exempt[0-9]*, 0, \.Lkcfi_exempt[0-9]*, 0, 1, 0\$' &&
	 grep -B5 '^1:	call	\*mcount' '$R' | grep -q '^	\.long	\.Lkcfi_exempt\([0-9]*\), 0, \.Lkcfi_exempt\1, 0, 5, 0\$'"
check "$f: the expectation assembles (--32): six cmpl at -4, each before je and int3" sh -c \
	"as --32 -o '$T/$f.o' '$R' && objdump -d '$T/$f.o' >'$T/$f.dis' &&
	 [ \$(grep -cE '	cmpl +\\\$0x[0-9a-f]+,-0x4\\(%e[a-z]+\\)' '$T/$f.dis') -eq 6 ] &&
	 [ \$(grep -A2 -E '	cmpl +\\\$0x[0-9a-f]+,-0x4' '$T/$f.dis' | grep -cE '74 01 +	je|	cc +	int3') -eq 12 ]"

# riscv64: text in, text out, no cross toolchain needed; the expectation is
# assembled and decoded only if riscv64-linux-gnu-as and -objdump are here.
f=riscv64-basic R=$G/$f.expected
cp "$G/$f.s" "$T/$f.s"
if (cd "$T" && "$KCFI_AS" --kcfi-no-assemble --kcfi-save="$f.out" "$f.s" 2>"$f.err"); then
	check "$f: output is the reviewed expectation" diff -u "$R" "$T/$f.out"
else
	fail "$f: kcfi-as refused it"; cat "$T/$f.err"
fi
if command -v riscv64-linux-gnu-as >/dev/null && command -v riscv64-linux-gnu-objdump >/dev/null; then
	check "$f: the expectation assembles into checks Linux decodes (beq expected, loaded)" sh -c \
		"riscv64-linux-gnu-as -o '$T/$f.o' '$R' && riscv64-linux-gnu-objdump -d '$T/$f.o' |
		 awk -v arch=riscv64 -f '$top_srcdir/tests/cross/decode-object.awk' >'$T/$f.dec' &&
		 grep -qx 'traps 5' '$T/$f.dec'"
else
	echo "not checked: $f assembled (no riscv64-linux-gnu-as/objdump)"
fi
# Every check, read back from the text: "ID TARGET RS1 RS2", where RS1 must be
# the register built from the expected id (lui+addiw, or addi from zero when
# the id has no upper part) and RS2 the one lw loaded from -4(TARGET).  Linux
# 6.12 reports beq's rs1 as the expected type, so the order is the point.
SMALL=$(fnv1a _ZTSFvP7s604974E)
rv_checks() {
	awk '
	function fail(m) { print "bad check before line " NR ": " m; bad = 1 }
	{ l[NR] = $0 }
	/^	beq	/ {
		split(substr($0, 6), o, ", ")
		k = NR - 1; lo = 0; hi = 0
		if (l[k] ~ /^	addi	/) {
			if (l[k] !~ "^	addi	" o[1] ", zero, -?[0-9]+$") fail("addi of " o[1] " not from zero: " l[k])
			split(l[k], a, ", "); lo = a[3]
		} else {
			if (l[k] !~ "^	addiw	" o[1] ", " o[1] ", -?[0-9]+$") fail("no addiw of beq rs1 " o[1] ": " l[k])
			split(l[k], a, ", "); lo = a[3]; k--
			if (l[k] !~ "^	lui	" o[1] ", [0-9]+$") fail("no lui of beq rs1 " o[1] ": " l[k])
			split(l[k], a, ", "); hi = a[2]
		}
		k--
		if (l[k] !~ "^	lw	" o[2] ", -4\\([a-z0-9]+\\)$") fail("no lw -4 into beq rs2 " o[2] ": " l[k])
		t = l[k]; sub(/.*\(/, "", t); sub(/\)$/, "", t)
		printf "0x%08x %s %s %s\n", (hi * 4096 + lo + 4294967296) % 4294967296, t, o[1], o[2]
	}
	END { exit bad }' "$R"
}
printf '%s\n' "$VPI a1 t2 t1" "$II t1 t2 t3" "$SMALL a2 t2 t1" "$VPI a5 t2 t1" "$II t2 t3 t1" >"$T/rv.want"
rv_checks >"$T/rv.got"
check "$f: every check has the expected id in beq rs1, the loaded one in rs2 (t3 on collision)" \
	diff -u "$T/rv.want" "$T/rv.got"
check "$f: five checks, five .kcfi_traps entries, each ebreak at its trap label" sh -c \
	"[ \$(grep -c '^	ebreak\$' '$R') -eq 5 ] && [ \$(grep -c '^	\.word	\.Lkcfi[0-9]_trap-\.Lkcfi[0-9]_entry\$' '$R') -eq 5 ] &&
	 [ \$(grep -B1 '^	ebreak\$' '$R' | grep -c '^\.Lkcfi[0-9]_trap:\$') -eq 5 ]"
check "$f: ids before the typed functions only, right before their labels" sh -c \
	"grep -A3 '^__cfi_bump:\$' '$R' | grep -q '^	\.word	$(u32 "$VPI")\$' &&
	 grep -A3 '^__cfi_bump:\$' '$R' | grep -q '^bump:\$' &&
	 grep -A3 '^__cfi_local_taken:\$' '$R' | grep -q '^	\.word	$(u32 "$II")\$' &&
	 grep -A3 '^__cfi_relay:\$' '$R' | grep -q '^	\.word	$(u32 "$II")\$' &&
	 ! grep -q '__cfi_only_called' '$R'"
check "$f: the sibcall is a 32-bit jalr zero, the other link register stays" sh -c \
	"grep -q '^	\.insn	i 0x67, 0, zero, t2, 0\$' '$R' && grep -q '^	jalr	t0, 0(a5)\$' '$R'"
check "$f: unchecked and inline-asm calls are untouched" sh -c \
	"grep -B8 '^	jalr	a4\$' '$R' | grep -q '^#NO_APP\$' && grep -B3 '^	jalr	a3\$' '$R' | grep -q '^#APP\$'"
check "$f: both are recorded in .debug: no_sanitize (2), the #APP block (1)" sh -c \
	"grep -B6 '^	jalr	a4\$' '$R' | grep -q '^	\.quad	\.Lkcfi_exempt\([0-9]*\), \.Lkcfi_exempt\1, 2\$' &&
	 grep -A5 '^	jalr	a3\$' '$R' | grep -q '^	\.quad	\.Lkcfi_exempt[0-9]*, \.Lkcfi_exempt[0-9]*, 1\$'"
check "$f: __kcfi_typeid_ext_target is weak, int (int)'s id" sh -c \
	"grep -q '^	\.weak	__kcfi_typeid_ext_target\$' '$R' && grep -q '^	\.set	__kcfi_typeid_ext_target, $(u32 "$II")\$' '$R'"

# aarch64 (doc/abi.md 2): text in, text out; the expectation is assembled
# and decoded only if aarch64-linux-gnu-as and -objdump are here.  Every
# check is read back from the text as "ID TARGET LOADED EXPECTED BRANCH": ID
# from the two movk halves, LOADED the register ldur filled from -4(TARGET)
# (M=0), and the brk immediate must be 0x8000 | EXPECTED << 5 | TARGET, the
# two registers Linux's BRK handler reads.
f=aarch64-basic R=$G/$f.expected
cp "$G/$f.s" "$T/$f.s"
if (cd "$T" && "$KCFI_AS" --kcfi-no-assemble --kcfi-save="$f.out" "$f.s" 2>"$f.err"); then
	check "$f: output is the reviewed expectation" diff -u "$R" "$T/$f.out"
else
	fail "$f: kcfi-as refused it"; cat "$T/$f.err"
fi
if command -v aarch64-linux-gnu-as >/dev/null && command -v aarch64-linux-gnu-objdump >/dev/null; then
	check "$f: the expectation assembles into checks Linux decodes (brk names the branch's register)" sh -c \
		"aarch64-linux-gnu-as -o '$T/$f.o' '$R' && aarch64-linux-gnu-objdump -d '$T/$f.o' |
		 awk -v arch=aarch64 -f '$top_srcdir/tests/cross/decode-object.awk' >'$T/$f.dec' &&
		 grep -qx 'traps 5' '$T/$f.dec'"
else
	echo "not checked: $f assembled (no aarch64-linux-gnu-as/objdump)"
fi
a64_checks() {
	awk '
	function fail(m) { print "bad check at line " n ": " m; bad = 1 }
	function hex(s,  v, k) { v = 0; for (k = 1; k <= length(s); k++) v = v * 16 + index("0123456789abcdef", substr(s, k, 1)) - 1; return v }
	{ l[NR] = $0 }
	END {
		for (n = 1; n <= NR; n++) {
			if (l[n] !~ /^	brk	#0x[0-9a-f]+$/) continue
			if (l[n - 1] !~ /^\.Lkcfi[0-9]+_trap:$/) fail("no trap label before brk")
			if (l[n - 2] !~ /^	b\.eq	\.Lkcfi[0-9]+_call$/) fail("no b.eq before the trap: " l[n - 2])
			if (l[n - 3] !~ /^	cmp	w[0-9]+, w[0-9]+$/) fail("no cmp: " l[n - 3])
			split(substr(l[n - 3], 6), c, ", "); ld = c[1]; ex = c[2]
			if (l[n - 4] !~ "^	movk	" ex ", #[0-9]+, lsl #16$") fail("no high movk of " ex ": " l[n - 4])
			if (l[n - 5] !~ "^	movk	" ex ", #[0-9]+$") fail("no low movk of " ex ": " l[n - 5])
			hi = l[n - 4]; sub(/^	movk	w[0-9]+, #/, "", hi); sub(/,.*/, "", hi)
			lo = l[n - 5]; sub(/.*#/, "", lo)
			if (hi + 0 > 65535 || lo + 0 > 65535) fail("movk immediate over 16 bits")
			if (l[n - 6] !~ "^	ldur	" ld ", \\[x[0-9]+, #-4\\]$") fail("no ldur into " ld " at -4: " l[n - 6])
			tg = l[n - 6]; sub(/.*\[/, "", tg); sub(/,.*/, "", tg)
			if (ld == "w" substr(tg, 2) || ex == "w" substr(tg, 2) || ld == ex) fail("scratch is the target")
			imm = hex(substr(l[n], 9))
			if (imm != 32768 + substr(ex, 2) * 32 + substr(tg, 2)) fail("brk " l[n] " does not name " ex " and " tg)
			if (l[n + 1] !~ /^\.Lkcfi[0-9]+_call:$/) fail("no call label after the trap")
			br = l[n + 2]; sub(/^	/, "", br); sub(/	/, " ", br)
			if (br != "blr " tg && br != "br " tg) fail("branch is not through " tg ": " br)
			printf "%u %s %s %s %s\n", hi * 65536 + lo, tg, ld, ex, br
		}
		exit bad
	}' "$1"
}
printf '%s\n' "$(u32 "$VPI") x1 w16 w17 blr x1" "$(u32 "$II") x19 w16 w17 blr x19" \
	"$(u32 "$II") x17 w16 w9 blr x17" "$(u32 "$II") x9 w16 w17 blr x9" \
	"$(u32 "$II") x16 w9 w17 br x16" >"$T/a64.want"
a64_checks "$R" >"$T/a64.got"
check "$f: each check: expected id in two movk, loaded at -4 of the target, brk naming both; w9 when x16/x17 is the target" \
	diff -u "$T/a64.want" "$T/a64.got"
check "$f: five brk, no .kcfi_traps (Linux finds arm64 traps by the immediate)" sh -c \
	"[ \$(grep -c '^	brk	' '$R') -eq 5 ] && ! grep -q kcfi_traps '$R'"
grep -v '^# [0-9]' "$R" >"$T/a64.nomarks"
PICK=$(fnv1a _ZTSFPFiiEiE) RELAY4=$(fnv1a _ZTSFiPFvPiEPFiiES_S3_E) NOSAN=$(fnv1a _ZTSFiPFiiEiE)
check "$f: ids as words right before the typed functions' labels, under local __cfi_ labels" sh -c \
	"for p in local_taken:$(u32 "$II") bump:$(u32 "$VPI") pick:$(u32 "$PICK") relay:$(u32 "$RELAY4") nosan:$(u32 "$NOSAN"); do
	   fn=\${p%%:*} id=\${p#*:}
	   grep -A2 \"^__cfi_\$fn:\\\$\" '$T/a64.nomarks' | tr '\n' '|' | grep -qx \"__cfi_\$fn:|	\\.word	\$id|\$fn:|\" || { echo \$fn; exit 1; }
	 done && ! grep -q '__cfi_only_called' '$R' && ! grep -q 'glob.*__cfi_' '$R'"
check "$f: the inlined no_sanitize call and the no_sanitize sibcall are untouched, recorded (2); the #APP block (1)" sh -c \
	"[ \$(grep -A3 '^	\.quad	\.Lkcfi_exempt\([0-9]*\), \.Lkcfi_exempt\1, 2\$' '$R' | grep -cE '^	(blr	x21|br	x16)\$') -eq 2 ] &&
	 grep -B6 '^	\.quad	\.Lkcfi_exempt[0-9]*, \.Lkcfi_exempt[0-9]*, 1\$' '$R' | grep -q '^	blr x21\$'"
check "$f: __kcfi_typeid_ext_target is weak, int (int)'s id" sh -c \
	"grep -q '^	\.weak	__kcfi_typeid_ext_target\$' '$R' && grep -q '^	\.set	__kcfi_typeid_ext_target, $(u32 "$II")\$' '$R'"

# Extern stubs (doc/extern-stubs.md), per architecture, text in and text
# out: a COMDAT group of its own, the preamble of the declared type, a
# hidden label, a landing instruction for indirect branches and the jump.
VPV=$(fnv1a _ZTSFvPvE)
for a in x86_64 aarch64 riscv64; do
	f=$a-stub R=$G/$f.expected
	cp "$G/$f.s" "$T/$f.s"
	if (cd "$T" && "$KCFI_AS" --kcfi-no-assemble --kcfi-save="$f.out" "$f.s" 2>"$f.err"); then
		check "$f: output is the reviewed expectation" diff -u "$R" "$T/$f.out"
	else
		fail "$f: kcfi-as refused it"; cat "$T/$f.err"
	fi
	case $a in
	x86_64) pre="movl	\\\$$(u32 "$VPV"), %eax" jump="endbr64 jmp	*free@GOTPCREL(%rip) call	free@PLT" ;;
	aarch64) pre="\\.word	$(u32 "$VPV")"
		jump="hint	34 adrp	x16, :got:free ldr	x16, [x16, :got_lo12:free] br	x16 bl	free" ;;
	riscv64) pre="\\.word	$(u32 "$VPV")"
		jump="1:	auipc	t1, %got_pcrel_hi(free) ld	t1, %pcrel_lo(1b)(t1) jr	t1 call	free" ;;
	esac
	check "$f: in its own COMDAT group, 16-byte aligned" sh -c \
		"grep -A1 '^	\.pushsection	\.text\.__kcfi_stub_free,\"axG\",%progbits,__kcfi_stub_free,comdat\$' '$R' | grep -q '^	\.balign	16\$'"
	check "$f: the preamble of void (void *) right before the hidden label" sh -c \
		"awk '/^__cfi___kcfi_stub_free:/ { on = 1 } on && /^__kcfi_stub_free:/ { exit } on' '$R' | grep -q '^	$pre\$' &&
		 grep -q '^	\.hidden	__kcfi_stub_free\$' '$R' && ! grep -q 'globl	__cfi___kcfi_stub_free' '$R'"
	check "$f: the stub is weak, the public function's alias strong" sh -c \
		"grep -q '^	\.weak	__kcfi_stub_free\$' '$R' && grep -A3 '^	\.globl	__kcfi_stub_get\$' '$R' | grep -q '^	\.set	__kcfi_stub_get, get\$'"
	check "$f: a landing instruction, the jump to free through its GOT entry, the dead call" sh -c \
		"[ \"\$(awk '/^__kcfi_stub_free:/ { on = 1; next } on && /^	\.size/ { exit } /^	\.pushsection	\.debug,/ { rec = 1; next } rec { if (/popsection/) rec = 0; next } /^\.Lkcfi_exempt/ { next } on && !/cfi_(start|end)proc/ { sub(/^	/, \"\"); printf \"%s%s\", s, \$0; s = \" \" }' '$R')\" = '$jump' ]"
	check "$f: the stub's jump is recorded as exempt (extern-stub), at the jump" sh -c \
		"grep -B1 -E '^	(jmp	\\*free|br	x16|jr	t1)' '$R' | grep -q '^\\.Lkcfi_exempt1:\$' &&
		 grep -q '^	\\.quad	\\.Lkcfi_exempt1, \\.Lkcfi_exempt1, 7\$' '$R'"
done
if as --64 -o "$T/x86_64-stub.o" "$G/x86_64-stub.expected" 2>"$T/as.err"; then
	check "x86_64-stub: the stub decodes as a preamble of void (void *)" sh -c \
		"'$ELFCHECK' '$T/x86_64-stub.o' | grep -q '^preamble __cfi___kcfi_stub_free type=$VPV'"
else
	fail "x86_64-stub: the expectation assembles"; cat "$T/as.err"
fi

# arm, Thumb-2 and ARM state (doc/abi.md, arm): text in, text out; the
# expectation assembled only if arm-linux-gnueabihf-as is here.  Every check
# is read back from the text as "ID TARGET SCRATCH BKPT BRANCH": ID the XOR
# of the four eor immediates, which must be the expected type's id, loaded
# through "bic S, T, #1; ldr S, [S, #-4]" (bit 0: the Thumb bit).
arm_checks() {
	awk '
	function fail(m) { print "bad check at line " n ": " m; bad = 1 }
	{ l[NR] = $0 }
	END {
		for (n = 1; n <= NR; n++) {
			if (l[n] !~ /^	bkpt	#0x[0-9a-f]+$/) continue
			k = n - 1
			if (l[k] !~ /^\.Lkcfi[0-9]+_trap:$/) fail("no trap label before bkpt")
			k--
			if (l[k] !~ /^	beq(\.w)?	\.Lkcfi[0-9]+_call$/) fail("no beq before the trap: " l[k])
			k--
			if (l[k] == "	pop	{r3}") k--
			sc = l[k]; sub(/^	eors	/, "", sc); sub(/,.*/, "", sc)
			id = 0; unit = 1
			for (i = 3; i >= 0; i--) {
				op = i ? "eor" : "eors"
				if (l[k - i] !~ "^	" op "	" sc ", " sc ", #[0-9]+$") fail("no " op ": " l[k - i])
				v = l[k - i]; sub(/.*#/, "", v); v += 0
				# one byte each, lowest first: their sum is their XOR
				if (v % unit || v >= unit * 256) fail("immediate not byte " 3 - i ": " v)
				id += v; unit *= 256
			}
			k -= 4
			if (l[k] != "	ldr	" sc ", [" sc ", #-4]") fail("no load at -4: " l[k])
			k--
			tg = l[k]; sub(/^	bic	[a-z0-9]+, /, "", tg); sub(/, #1$/, "", tg)
			if (l[k] != "	bic	" sc ", " tg ", #1") fail("no bic " sc ", T, #1: " l[k])
			j = n + 1
			if (l[j] == "	nop.n") j++
			if (l[j] !~ /^\.Lkcfi[0-9]+_call:$/) fail("no call label after the trap")
			br = l[j + 1]; sub(/^	/, "", br); sub(/	/, " ", br)
			imm = l[n]; sub(/.*	/, "", imm)
			printf "%u %s %s %s %s\n", id, tg, sc, imm, br
		}
		exit bad
	}' "$1"
}
# asm_recorded EXPECTED INPUT: viaasm's first asm statement, from its
# opening line marker to the second's: arm prints no #APP, GCC's line
# markers alone say where an asm statement is (doc/design.md, "Inline
# assembly"); the text between them is untouched, with a label after the
# opening marker and the end label and its record (1) before the closing
# one.
asm_recorded() {
	ar_got=$(awk '/^viaasm:$/ { on = 1 } on && /^@ 30 "golden\.c" 1$/ { p = 1 }
		      p { print } p && /^@ 31 / { exit }' "$1" | sed 's/^# [0-9]* ".*"$/# N/' | tr '\n' '|')
	ar_want='@ 30 "golden.c" 1|.Lkcfi_exempt9:|# N|	ldr r3, [r4]|	blx r3|.Lkcfi_exempt10:|'
	ar_want="$ar_want	.pushsection	.debug,\"\",%progbits|	.balign	8|"
	ar_want="$ar_want	.long	.Lkcfi_exempt9, 0, .Lkcfi_exempt10, 0, 1, 0|	.popsection|# N|"
	ar_want="$ar_want@ 0 \"\" 2|@ 31 \"golden.c\" 1|"
	[ "$ar_got" = "$ar_want" ] || { echo "got:  $ar_got"; echo "want: $ar_want"; false; }
}
for f in arm-thumb arm-arm; do
	R=$G/$f.expected
	cp "$G/$f.s" "$T/$f.s"
	if (cd "$T" && "$KCFI_AS" --kcfi-no-assemble --kcfi-save="$f.out" "$f.s" 2>"$f.err"); then
		check "$f: output is the reviewed expectation" diff -u "$R" "$T/$f.out"
	else
		fail "$f: kcfi-as refused it"; cat "$T/$f.err"
	fi
	if command -v arm-linux-gnueabihf-as >/dev/null; then
		check "$f: the expectation assembles" arm-linux-gnueabihf-as -o "$T/$f.o" "$R"
		# kcfi-audit's decoder reads each of the three checks, those
		# through ip (lr as scratch; r3 saved around a sibcall's) too;
		# assembled without .arch, the Thumb nop is "mov r8, r8".
		check "$f: kcfi-audit reads every check of the expectation" sh -c \
			"'$top_builddir/kcfi-audit' '$T/$f.o' | tail -1 | grep -q ': arm: 3 checked, 3 exempt (inline-asm 1, no-sanitize 1, jump-table 1), 0 unchecked, '"
	else
		echo "not checked: $f assembled (no arm-linux-gnueabihf-as)"
	fi
	II=$(fnv1a _ZTSFiiE) I4=$(fnv1a _ZTSFiiiiiE)
	case $f in
	arm-thumb) printf '%s\n' "$(u32 "$II") ip lr #0x8c blx ip" "$(u32 "$II") r3 ip #0x83 bx r3" "$(u32 "$I4") ip r3 #0x8c bx ip" ;;
	arm-arm) printf '%s\n' "$(u32 "$II") r3 ip #0x83e3 blx r3" "$(u32 "$II") r3 ip #0x83e3 bx r3" \
		"$(u32 "$I4") ip r3 #0x83ec bx ip" ;;
	esac >"$T/arm.want"
	arm_checks "$R" >"$T/arm.got"
	check "$f: each check: expected id in the eors, load through the target's even address, bkpt naming it" \
		diff -u "$T/arm.want" "$T/arm.got"
	check "$f: a sibcall through ip saves r3 around the compare, before beq" sh -c \
		"grep -A2 '^	eors	r3, r3, #' '$R' | grep -q '^	pop	{r3}\$' && grep -B2 '^	bic	r3, ip, #1\$' '$R' | grep -q '^	push	{r3}\$'"
	VPI=$(fnv1a _ZTSFvPiE) RELAY=$(fnv1a _ZTSFiPFiiEiE)
	grep -v '^# [0-9]' "$R" >"$T/arm.nomarks"
	check "$f: ids as aligned words right before the typed functions' labels, after .type" sh -c \
		"grep -B3 '^bump:\$' '$T/arm.nomarks' | tr '\n' '|' | grep -q '	\.type	bump, %function|	\.balign	4|	\.word	$(u32 "$VPI")|' &&
		 grep -B1 '^relay:\$' '$T/arm.nomarks' | grep -q '^	\.word	$(u32 "$RELAY")\$' &&
		 grep -B1 '^tail:\$' '$T/arm.nomarks' | grep -q '^	\.word	$(u32 "$RELAY")\$' &&
		 ! grep -q '__cfi_' '$R'"
	check "$f: the no_sanitize call is untouched, recorded (2); the jump table is recorded (3)" sh -c \
		"grep -B14 '^	\.long	\.Lkcfi_exempt4, 0, \.Lkcfi_exempt4, 0, 2, 0\$' '$R' | grep -q '^nosan:\$' &&
		 grep -A12 '^	\.long	\.Lkcfi_exempt4, 0, \.Lkcfi_exempt4, 0, 2, 0\$' '$R' | grep -q '^	blx	r3\$' &&
		 grep -A6 '^	\.long	\.Lkcfi_exempt6, 0, \.Lkcfi_exempt6, 0, 3, 0\$' '$R' | grep -qE '^	(tbb	\[pc, r0\]|addls	pc, pc, r0, asl #2)\$'"
	check "$f: the asm statements pass unchanged, each recorded between its markers (1)" \
		asm_recorded "$R" "$f.s"
	check "$f: __kcfi_typeid_ext_target is weak, int (int)'s id" sh -c \
		"grep -q '^	\.weak	__kcfi_typeid_ext_target\$' '$R' && grep -q '^	\.set	__kcfi_typeid_ext_target, $(u32 "$II")\$' '$R'"
done

# The type name records at the end of each expectation (KCFI_TYPE_NAME,
# common/exempt.h): each id is the FNV-1a of its name, and the name fits
# the records that follow (N * 24 bytes with its NUL).
for e in "$G"/*.expected; do
	f=$(basename "$e" .expected)
	awk '/^	\.quad	[0-9]+, [0-9]+, 65$/ { split($2 $3, w, ","); id = w[1]; n = w[2]; next }
	     id != "" && /^	\.ascii	"/ { s = $2; gsub(/"/, "", s); print id, n, s; id = "" }' "$e" > "$T/$f.names"
	check "$f: type name records, each id the FNV-1a of its name" sh -c \
		". '$top_srcdir/tests/lib.sh'; [ -s '$T/$f.names' ] && while read -r id n s; do
			[ \$(printf '%u' \$(fnv1a \$s)) -eq \$id ] && [ \$(( (\${#s} + 24) / 24 )) -eq \$n ] || { echo \"\$id \$n \$s\"; exit 1; }
		 done < '$T/$f.names'"
done
finish
