# SPDX-License-Identifier: GPL-2.0-or-later
# Checks kcfi-as output (--kcfi-save) for aarch64 or riscv64 against the
# plugin's input (-S), both given on the command line: INPUT.s OUTPUT.s.
#   -v arch=aarch64|riscv64 -v prefix=M -v nop=N (riscv NOP bytes)
# Input: which functions get an id (.kcfi_func NAME, ID) and how many call
# sites of each kind there are.  Output: every typed function has
# "__cfi_NAME:" + ".word" right before its M prefix NOPs and its label,
# untyped ones have none; every trap is the exact sequence, with the load
# offset -(M*nop+4) and the transfer right after it; the number of checks is
# the number of .kcfi_call directives.  Prints what is wrong, exits 1.

function err(msg) { print "out.s:" where[i] ": " msg; bad = 1 }
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); gsub(/[ \t]+/, " ", s); return s }

# ---- input ------------------------------------------------------------
FNR == NR {
	if ($1 == ".kcfi_func") {
		name = $2; sub(/,$/, "", name)
		typed[name] = (NF >= 3)
		funcs[++nfuncs] = name
	}
	if ($1 == ".kcfi_call") calls++
	next
}

# ---- output: keep the meaningful lines --------------------------------
{
	l = $0
	if (arch == "aarch64") {		# "#" starts immediates there
		if (l ~ /^[ \t]*#/) next	# "# N file" markers, #APP
		sub(/[ \t]*\/\/.*$/, "", l)
	} else
		sub(/[ \t]*#.*$/, "", l)
	l = trim(l)
	if (l == "" || l ~ /^\.(loc|cfi_)/) next
	line[++n] = l
	where[n] = FNR
}

function reg_of(s) { sub(/^.*[ ,(\[]/, "", s); sub(/[\]),].*$/, "", s); return s }

END {
	want_off = prefix * nop + 4
	for (i = 1; i <= n; i++) {
		l = line[i]
		if (l ~ /^__cfi_[^ ]*:$/) {
			name = substr(l, 7, length(l) - 7)
			cfi[name] = 1
			if (line[i + 1] !~ /^\.word [0-9]+$/)
				err("__cfi_" name " is not followed by .word ID")
			# then: [.section __patchable... stays before], .LPFE label,
			# M nops, .type, the label
			nops = 0
			for (j = i + 2; j <= n && line[j] != name ":"; j++) {
				if (line[j] == "nop") nops++
				else if (line[j] !~ /^\.LPFE[0-9]+:$/ && line[j] !~ /^\.type /) {
					err("'" line[j] "' between the id of " name " and its label"); break
				}
			}
			if (nops != prefix) err(name ": " nops " NOPs after its id, want " prefix)
		}
		if (arch == "aarch64" && l ~ /^brk #0x/) {
			traps++
			imm = 0; h = tolower(substr(l, 8))
			for (k = 1; k <= length(h); k++) imm = imm * 16 + index("0123456789abcdef", substr(h, k, 1)) - 1
			e = int(imm / 32) % 32; t = imm % 32
			s = (t == 16) ? 9 : 16; x = (t == 17) ? 9 : 17
			if (int(imm / 1024) != 32) err("brk immediate " l " outside 0x8000..0x83ff")
			if (e != x) err(l ": expected-id register w" e ", want w" x)
			if (line[i - 6] != "ldur w" s ", [x" t ", #-" want_off "]") err("want ldur w" s ", [x" t ", #-" want_off "] 6 before " l ", got " line[i - 6])
			if (line[i - 5] !~ "^movk w" x ", #[0-9]+$") err("want movk w" x " 5 before " l)
			if (line[i - 4] !~ "^movk w" x ", #[0-9]+, lsl #16$") err("want movk w" x ", lsl #16 4 before " l)
			if (line[i - 3] != "cmp w" s ", w" x) err("want cmp w" s ", w" x " before " l)
			if (line[i - 2] !~ /^b\.eq \.Lkcfi[0-9]+_call$/) err("want b.eq before " l)
			if (line[i - 1] !~ /^\.Lkcfi[0-9]+_trap:$/) err("brk without its trap label")
			lbl = substr(line[i - 2], 6)
			if (line[i + 1] != lbl ":") err("the b.eq target is not right after " l)
			if (line[i + 2] !~ "^(blr|br) x" t "$") err("want blr/br x" t " right after " l ", got " line[i + 2])
		}
		if (arch == "riscv64" && l == "ebreak") {
			traps++
			if (line[i - 1] !~ /^\.Lkcfi[0-9]+_trap:$/) err("ebreak without its trap label")
			b = line[i - 2]
			if (b !~ /^beq t[1-6], t[1-6], \.Lkcfi[0-9]+_call$/) { err("want beq right before ebreak, got " b); continue }
			# beq EXPECTED, LOADED: Linux reports rs1 as the expected type
			split(substr(b, 5), ops, ", ")
			if (ops[1] == ops[2]) err("beq compares " ops[1] " with itself")
			k = i - 3
			if (line[k] ~ /^addiw /) {
				if (line[k] !~ "^addiw " ops[1] ", " ops[1] ", ") err("want addiw " ops[1] " (beq rs1, the expected id), got " line[k])
				k--
			}
			if (line[k] !~ "^(lui|addi) " ops[1] ",") err("want " ops[1] " (beq rs1) built by lui/addi before the beq, got " line[k])
			if (line[k] ~ /^addi / && line[k] !~ "^addi " ops[1] ", zero, ") err(ops[1] " built from itself: " line[k])
			if (line[k - 1] !~ "^lw " ops[2] ", -" want_off "\\(") err("want lw " ops[2] " (beq rs2), -" want_off "(reg) before the beq, got " line[k - 1])
			tgt = line[k - 1]; sub(/^.*\(/, "", tgt); sub(/\)$/, "", tgt)
			if (line[i + 1] !~ /^\.pushsection \.kcfi_traps,"aoG?",@progbits,/) err("no .kcfi_traps entry after ebreak")
			if (line[i + 3] !~ /^\.word \.Lkcfi[0-9]+_trap-\.Lkcfi[0-9]+_entry$/) err("bad .kcfi_traps entry: " line[i + 3])
			if (line[i + 5] != substr(b, index(b, ".Lkcfi")) ":") err("the beq target is not right after the trap entry")
			x = line[i + 6]
			if (x != "jalr " tgt && x != ".insn i 0x67, 0, zero, " tgt ", 0" && x !~ "^jalr [a-z0-9]+, 0\\(" tgt "\\)$")
				err("want a jalr through " tgt " right after the trap, got " x)
		}
	}
	for (f = 1; f <= nfuncs; f++) {
		name = funcs[f]
		if (typed[name] && !(name in cfi)) err(name ": typed, but no __cfi_" name " and id")
		if (!typed[name] && (name in cfi)) err(name ": untyped, but has an id")
	}
	if (traps + 0 != checks + 0) err(traps + 0 " traps, but kcfi-as reported " checks + 0 " checks")
	if (traps + 0 > calls + 0) err(traps + 0 " traps for " calls + 0 " .kcfi_call directives")
	exit bad
}
