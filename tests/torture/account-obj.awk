# SPDX-License-Identifier: GPL-2.0-or-later
# Count indirect branches in a disassembled object and how many of them sit
# right behind a well-formed KCFI check, reading only the machine code:
#   objdump -d -w --no-show-raw-insn FILE.o | awk -v arch=ARCH -f account-obj.awk
# A branch is guarded when the instructions before it are, exactly,
#   x86_64:  movl $imm,%r10d | addl -N(%target),%r10d | je <branch> | ud2
#            (%r11d as scratch when the target is %r10)
#   aarch64: ldur w16|w9,[target,#-N] | movk w17 | movk w17,lsl #16 | cmp | b.eq <branch> | brk
#   riscv64: lw t1,-N(target) | ...li t2... | beq t2,t1,<branch> | ebreak
#            (beq rs1 = the expected id, rs2 = the loaded one, as Linux
#            reads them; t3..t6 stand in for a scratch that is the target)
# Prints: indirect=N guarded=N calls=N jumps=N
function reset() { n = 0 }
function push(addr, insn) { n++; A[n] = addr; I[n] = insn }
function target_of(insn,   t) { t = insn; sub(/^[^ \t]+[ \t]+/, "", t); sub(/[ \t].*/, "", t); return t }
function guarded_x86(addr, reg,   tmp) {
	if (n < 4) return 0
	tmp = (reg == "%r10") ? "%r11d" : "%r10d"
	return I[n] ~ /^ud2/ && I[n-1] ~ ("^je[ \t]+" addr "[ \t]") &&
	       index(I[n-2], "add") == 1 && index(I[n-2], "(" reg ")," tmp) > 0 &&
	       index(I[n-3], "mov") == 1 && I[n-3] ~ ("^mov[l]?[ \t]+\\$0x[0-9a-f]+," tmp "$")
}
function guarded_a64(addr, reg) {
	if (n < 6) return 0
	return I[n] ~ /^brk[ \t]+#0x8/ && I[n-1] ~ ("^b\\.eq[ \t]+" addr "[ \t]") &&
	       I[n-2] ~ /^cmp[ \t]+w(16|9), *w(17|9)$/ && I[n-3] ~ /^movk[ \t]+w(17|9),.*lsl #16/ &&
	       I[n-4] ~ /^movk[ \t]+w(17|9),/ && I[n-5] ~ ("^ldur[ \t]+w(16|9), *\\[" reg ", *#-")
}
function guarded_rv(addr, reg,   i, b, ops) {
	if (n < 4) return 0
	if (I[n] !~ /^(c\.)?ebreak/ || I[n-1] !~ ("^beq[ \t]+t[1-6], *t[1-6], *" addr "[ \t]")) return 0
	b = I[n-1]; sub(/^beq[ \t]+/, "", b); split(b, ops, / *, */)
	if (ops[1] == ops[2] || I[n-2] !~ ("^(c\\.)?(lui|li|addi|addiw|addw)[ \t]+" ops[1] ",")) return 0
	for (i = n - 3; i >= n - 5 && i >= 1; i--)
		if (I[i] ~ ("^(c\\.)?lw[ \t]+" ops[2] ", *-[0-9]+\\(" reg "\\)")) return 1
	return 0
}
# Only a new section starts afresh: symbols may label the middle of a check
# (RISC-V keeps .L labels for relaxation), and the exact address match of
# the conditional branch keeps a check from being borrowed across functions.
/^Disassembly of section/ { reset(); next }
/^[0-9a-f]+ <.*>:$/ { next }
/^ *[0-9a-f]+:\t/ {
	addr = $1; sub(/:$/, "", addr)
	insn = $0; sub(/^ *[0-9a-f]+:\t/, "", insn); sub(/[ \t]*\/\/.*$/, "", insn)
	if (arch != "aarch64") sub(/[ \t]*#.*$/, "", insn)	# objdump's comments; aarch64 immediates
	s = insn
	if (arch == "x86_64") {
		while (s ~ /^(notrack|cs|ds|bnd)[ \t]+/) sub(/^[a-z]+[ \t]+/, "", s)
		k = 0
		if (s ~ /^call[q]?[ \t]+\*/) k = 1
		else if (s ~ /^jmp[q]?[ \t]+\*/) k = 2
		if (k) {
			reg = s; sub(/^[a-z]+[ \t]+\*/, "", reg)
			g = reg ~ /^%r[a-z0-9]+$/ && guarded_x86(addr, reg)
		}
	} else if (arch == "aarch64") {
		k = 0
		if (s ~ /^blr[ \t]/) k = 1
		else if (s ~ /^br[ \t]/) k = 2
		if (k) g = guarded_a64(addr, target_of(s))
	} else if (arch == "riscv64") {
		k = 0
		if (s ~ /^(c\.)?jalr[ \t]/) {
			reg = target_of(s); k = 1
			if (s ~ /^jalr[ \t]+zero,/) { k = 2; reg = s; sub(/^.*\(/, "", reg); sub(/\).*/, "", reg) }
			else if (reg ~ /,/) { sub(/^[^,]*,/, "", reg) }
			sub(/^0\(/, "", reg); sub(/\)$/, "", reg)
			if (reg == "ra" && k == 2) k = 0
		} else if (s ~ /^(c\.)?jr[ \t]/) {
			reg = target_of(s); k = (reg == "ra") ? 0 : 2
		}
		# auipc REG + jalr/jr REG is the call/tail pseudo-instruction of a
		# direct call (an R_RISCV_CALL pair), not an indirect branch.
		if (k && n >= 1 && I[n] ~ ("^auipc[ \t]+" reg ","))
			k = 0
		if (k) g = guarded_rv(addr, reg)
	}
	if (k) {
		indirect++
		if (k == 1) calls++; else jumps++
		if (g) guarded++
	}
	push(addr, s)
}
END { printf "indirect=%d guarded=%d calls=%d jumps=%d\n", indirect, guarded, calls, jumps }
