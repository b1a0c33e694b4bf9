# SPDX-License-Identifier: GPL-2.0-or-later
# Account for every indirect branch in one annotated assembly file (the
# plugin's -S output, i.e. kcfi-as's input), independently of kcfi-as:
#   awk -v arch=x86_64|aarch64|riscv64 [-v cgoto=1] [-v nosan=1] -f account-asm.awk FILE.s
# cgoto=1: the C source uses computed goto, nonlocal goto (__label__) or
# __builtin_setjmp/longjmp/eh_return;
# nosan=1: the C source mentions no_sanitize.
#
# Prints one line of counts:
#   call=  checked indirect calls      sibcall=  checked indirect tail calls
#   noproto=  through "T ()" pointers  nosan=  .kcfi_call_unchecked
#   direct=  .kcfi_call_direct on an indirect-looking branch
#   table=  .kcfi_branch_nocall in a function with a jump table
#   nocall_goto=  .kcfi_branch_nocall explained by computed goto/longjmp
#   inline=  indirect branches inside #APP (user inline assembly)
#   tramp=  indirect branches in GCC's trampoline templates (.LTRAMPn:, data
#           copied to the stack; the call that enters the copy is checked)
#   bad=  violations (each also printed as "BAD: line N: why")
# A violation is an indirect branch outside #APP without annotation, an
# annotation not followed by the branch kind it promises, a nocall jump with
# no jump table or computed goto to explain it, or .kcfi_call_unchecked in a
# source that never says no_sanitize.
function bad(why) { printf "BAD: line %d: %s\n", NR, why; nbad++ }
# The first statement of the line: labels and comments removed.
function statement(s,   l) {
	sub(/^[ \t]+/, "", s)
	while (match(s, /^([A-Za-z0-9_.$]+|"[^"]*"):[ \t]*/)) {
		l = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1)
		intramp = (l ~ /^\.LTRAMP[0-9]+:/)
	}
	if (arch == "aarch64") sub(/\/\/.*/, "", s)
	else if (s ~ /^#/) s = ""
	sub(/[ \t]+$/, "", s)
	return s
}
# 1 indirect call, 2 indirect jump, 0 anything else (returns count as 0).
function indirect(s,   m, op) {
	if (arch == "x86_64") {
		while (s ~ /^(notrack|cs|ds|bnd|rex64)[ \t]+/) sub(/^[a-z0-9]+[ \t]+/, "", s)
		m = s; sub(/[ \t].*/, "", m); op = s; sub(/^[^ \t]+[ \t]*/, "", op)
		if (m ~ /^call[lq]?$/ && (op ~ /^\*/ || op ~ /^__x86_indirect_thunk_/)) return 1
		if (m ~ /^jmp[lq]?$/ && (op ~ /^\*/ || op ~ /^__x86_indirect_thunk_/)) return 2
		return 0
	}
	if (arch == "aarch64") {
		if (s ~ /^blr(aa|ab|aaz|abz)?[ \t]/) return 1
		if (s ~ /^br(aa|ab|aaz|abz)?[ \t]/) return 2
		return 0
	}
	if (arch == "riscv64") {
		gsub(/[ \t]+/, " ", s)
		if (s ~ /^(c\.)?jalr /) {
			if (s ~ /^jalr (x0|zero), *(0\()?(ra|x1)\)?$/) return 0
			if (s ~ /^jalr (x0|zero),/) return 2
			return 1
		}
		if (s ~ /^(c\.)?jr (ra|x1)$/) return 0	# return
		if (s ~ /^(c\.)?jr /) return 2
		return 0
	}
	return 0
}
function close_function() {
	if (fn_nocall > 0 && fn_tables == 0) {
		if (cgoto) nocall_goto += fn_nocall
		else { bad(fn_nocall " .kcfi_branch_nocall in " fn " without a jump table or computed goto") }
	} else table += fn_nocall
	fn_nocall = 0; fn_tables = 0
}
BEGIN { inapp = 0; pend = "" }
/^[ \t]*(#|\/\/)APP/ { inapp = 1; next }
/^[ \t]*(#|\/\/)NO_APP/ { inapp = 0; next }
{
	line = $0
	s = statement(line)
	if (s == "") next
	if (s ~ /^\.kcfi_type[ \t]/) {
		id = s; sub(/^\.kcfi_type[ \t]+/, "", id); sub(/[ \t]*,.*/, "", id)
		t = s; sub(/^[^"]*"/, "", t); sub(/"[ \t]*$/, "", t)
		type[id] = t
		next
	}
	if (s ~ /^\.kcfi_(call|call_unchecked|call_direct|branch_nocall)([ \t;]|$)/) {
		if (pend != "") bad("two call-site annotations in a row")
		pend = s; sub(/[ \t;].*/, "", pend)
		pend_id = s; sub(/^\.kcfi_call[ \t]+/, "", pend_id); sub(/[ \t;].*/, "", pend_id)
		pend_line = NR
		pend_skip = 0
		next
	}
	if (s ~ /^\.type[ \t]/ && s ~ /(@|%)function/) {
		close_function()
		fn = s; sub(/^\.type[ \t]+/, "", fn); sub(/[ \t]*,.*/, "", fn)
		next
	}
	# Jump tables: data words holding code labels (.L5, .L5-.L4, (.L5 - .Lrtx4) / 4).
	if (s ~ /^\.(quad|long|word|dword|8byte|4byte|2byte|short|hword|byte)[ \t]+\(?\.L/) { fn_tables++; next }
	if (s ~ /^\.(section|text|data|bss|pushsection|popsection|previous)([ \t]|$)/) intramp = 0
	if (s ~ /^\./) {
		# Only debug info and line markers may stand between annotation and branch.
		if (pend != "" && s !~ /^\.(loc|loc_mark_labels|cfi_)/) bad(pend " followed by directive " s)
		next
	}
	if (s ~ /^#/) next
	k = indirect(s)
	if (pend != "") {
		if (arch == "x86_64" && s ~ /^(cs|ds|notrack|bnd)$/) next	# lone prefix line
		if (pend == ".kcfi_call") {
			if (!k) bad(".kcfi_call (line " pend_line ") before non-indirect '" s "'")
			else if (!(pend_id in type)) bad(".kcfi_call " pend_id ": undefined type")
			else if (type[pend_id] ~ /\(\)$/) noproto++
			else if (k == 1) call++
			else sibcall++
		} else if (pend == ".kcfi_call_unchecked") {
			if (!k) bad(".kcfi_call_unchecked before non-indirect '" s "'")
			else if (!nosan) bad(".kcfi_call_unchecked but the source never says no_sanitize")
			else nosanc++
		} else if (pend == ".kcfi_call_direct") {
			if (k) direct++
		} else if (pend == ".kcfi_branch_nocall") {
			# aarch64 jump tables are a pattern (ldr/ldrb/ldrh; adr; add;
			# br) with the directive in front: the jump is the first
			# branch within its next four statements (doc/directives.md).
			if (arch == "aarch64" && !k && pend_skip < 3 &&
			    s ~ /^(ldr[bh]?|ldrs[bhw]|adrp?|add)[ \t]/) { pend_skip++; next }
			if (k != 2) bad(".kcfi_branch_nocall before '" s "', not an indirect jump")
			else fn_nocall++
		}
		pend = ""
		next
	}
	if (!k) next
	if (inapp) { inline_n++; next }
	if (intramp) { tramp++; next }
	bad("unannotated indirect branch '" s "'")
}
END {
	if (pend != "") bad(pend " (line " pend_line ") at end of file")
	close_function()
	printf "call=%d sibcall=%d noproto=%d nosan=%d direct=%d table=%d nocall_goto=%d inline=%d tramp=%d bad=%d\n",
		call, sibcall, noproto, nosanc, direct, table, nocall_goto, inline_n, tramp, nbad
}
