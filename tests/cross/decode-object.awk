# SPDX-License-Identifier: GPL-2.0-or-later
# Reads `objdump -d` of an aarch64 or riscv64 object (-v arch=...) and checks
# every trap the way Linux 6.12 decodes it: arm64 "brk #0x8xxx" is followed by
# blr/br of register imm & 31; riscv (c.)ebreak is preceded by a 32-bit beq
# and followed by a jalr or c.jalr (a 32-bit jalr zero, i.e. "jr" with 8 hex
# digits of encoding, counts; c.jr does not).  Linux reports the beq's rs1
# as the expected type, so on riscv that register must be the one built by
# lui/addiw (or li) right before the beq, and rs2 the one lw loaded from the
# target just before that.  Prints "traps N", exits 1 on a bad one.
function err(msg) { print "object: " msg; bad = 1 }
/^ *[0-9a-f]+:\t/ {
	split($0, f, "\t")
	enc = f[2]; gsub(/ /, "", enc)
	ins = f[3] " " f[4]; sub(/[ \t]*(\/\/|<).*$/, "", ins); gsub(/[ \t]+/, " ", ins)
	if (arch == "riscv64") sub(/[ \t]*#.*$/, "", ins)	# aarch64 immediates start with #
	sub(/ $/, "", ins)
	if (want_after != "") {
		if (arch == "aarch64" && ins != "blr " want_after && ins != "br " want_after)
			err("brk for " want_after " followed by " ins)
		if (arch == "riscv64" && !(ins ~ /^jalr / || (ins ~ /^jr / && length(enc) == 8)))
			err("ebreak followed by " ins " (" enc ")")
		want_after = ""
	}
	if (arch == "aarch64" && ins ~ /^brk #0x8[0-3][0-9a-f][0-9a-f]$/) {
		traps++
		h = substr(ins, 8); imm = 0
		for (k = 1; k <= length(h); k++) imm = imm * 16 + index("0123456789abcdef", substr(h, k, 1)) - 1
		want_after = "x" (imm % 32)
		if (prev !~ /^b\.eq /) err("brk not right after b.eq: " prev)
	}
	if (arch == "riscv64" && ins == "ebreak") {
		traps++
		want_after = "any"
		if (prev !~ /^beq / || length(prev_enc) != 8) err("ebreak not right after a 32-bit beq: " prev)
		else {
			split(substr(prev, 5), ops, ",")	# beq RS1,RS2,ADDR
			if (ops[1] == ops[2]) err("beq compares " ops[1] " with itself")
			if (prev2 !~ ("^(lui|li|addi|addiw|addw) " ops[1] ","))
				err("beq rs1 " ops[1] " is not the expected id built right before it: " prev2 "; " prev)
			if (prev3 !~ ("^lw " ops[2] ",") && prev4 !~ ("^lw " ops[2] ","))
				err("beq rs2 " ops[2] " is not the id loaded by lw before it: " prev4 "; " prev3 "; " prev)
		}
	}
	prev4 = prev3; prev3 = prev2; prev2 = prev
	prev = ins; prev_enc = enc
}
END { print "traps " traps + 0; exit bad }
