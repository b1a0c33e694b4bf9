# SPDX-License-Identifier: GPL-2.0-or-later
# x86_64 KCFI checks and how their target reached %r11, from
# `objdump -d -w --no-show-raw-insn` (bench/kernel.sh; tests/bench/r11.sh).
# A check is `mov $-H,%r10d` followed by `add -N(%REG),%r10d`, kcfi-as's
# and Clang's alike.  FineIBT and the retpoline thunk want the target in
# %r11, and a target that lives elsewhere costs a move: kcfi-as writes it
# as the check's first instruction, Clang's register allocator puts it
# before the check, sometimes a few instructions earlier.  So for each
# check through %r11 the last write of %r11 in its block is looked up
# (back to the last branch, call, return or trap; jump targets are not
# known here, so a block may reach across one): a copy from another
# register, a load from memory, or none seen.
# Prints "CHECKS R11 FIRST FIRST_COPY COPY LOAD": all checks, those through
# %r11, those whose instruction right before is a mov into %r11 (the check
# starts with it) and of them the copies from another register, then those
# whose %r11 was set anywhere in the block by a register copy or a load.
# Only the copies cost anything of their own: a load into %r11 is the
# call's own load of its target, wherever the scheduler put it.
function reset() { w11 = ""; prev = ""; before = "" }
/^[0-9a-f]+ <.*>:$/ { reset(); next }
/^ *[0-9a-f]+:\t/ {
	ins = $0
	sub(/^ *[0-9a-f]+:\t/, "", ins)
	while (ins ~ /^(cs|ds|notrack|bnd|rex[.A-Z]*) /) sub(/^[a-z.A-Z]+ +/, "", ins)
	op = ins; sub(/ .*/, "", op)
	args = ins; sub(/^[^ ]+ */, "", args); gsub(/ /, "", args)
	if (op == "add" && prev ~ /^mov +\$0x[0-9a-f]+,%r1[01]d$/ && args ~ /^-0x[0-9a-f]+\(%r[a-z0-9]+\),%r1[01]d$/) {
		checks++
		if (args ~ /\(%r11\)/) {
			r11++
			if (before ~ /^mov .*,%r11$/) first++
			if (before ~ /^mov %r[a-z0-9]+,%r11$/) firstcopy++
			if (w11 ~ /^mov %r[a-z0-9]+,%r11$/) copy++
			else if (w11 ~ /^mov .*\(.*\),%r11$/) load++
		}
	}
	if (op ~ /^(call|jmp|j[a-z]+|ret|ud2|int3|iret)/) w11 = ""
	else {
		dst = args; sub(/.*,/, "", dst)
		if (dst ~ /^%r11[dwb]?$/) { w11 = op " " args; sub(/^mov[q]? /, "mov ", w11) }
	}
	before = prev; prev = op " " args
}
END { printf "%d %d %d %d %d %d\n", checks, r11, first, firstcopy, copy, load }
