# SPDX-License-Identifier: GPL-2.0-or-later
# KUnit's KTAP output on a kernel console -> one line per test case and a
# few totals, for kunit-check.sh; likewise the TAP 13 of kselftest's runner
# (run_kselftest.sh), for kselftest-check.sh.  Input: the console with
# printk's timestamps still on (they are stripped here).  Output,
# tab-separated:
#	case	SUITE.CASE	ok|fail|skip
#	suite	SUITE	ok|fail|skip	(KUnit: a suite's own result)
#	cfi	SUITE	<the "CFI failure at ..." line>	(SUITE: the suite running, or -)
#	plan	N	(suites announced at the top level; 0 if KUnit never started)
#	done	N	(suites that reported a result)
#	last	SUITE	(the last suite that started; - if none)
#	ended	timeout	(only when the harness cut the boot short)
#	oops	LINE	(the last Oops-class line: Oops, BUG, Internal error...)
#	at	WHERE	(the function the first register dump after it names)
#	panic	LINE	(the first "Kernel panic - not syncing" line)
# The last three say why a boot that crashed ended where it did; a kernel
# can survive an earlier Oops, so the last one is the likeliest cause.
# A test case is a result line one level below its suite ("    ok 3 name");
# the results of a parameterized case's parameters, one level deeper, are
# its own business: the case line counts, as KUnit counts it.
# kselftest: the runner announces each program ("# selftests: COL: PROG")
# and ends it with a top-level result, so there the program is both the
# suite and the case, COL:PROG, and plan/done count programs.  The
# program's own TAP comes back prefixed with "# "; its results, one per
# line "sub COL:PROG/NAME ok|fail|skip" (a repeated NAME gets #2, #3...),
# let a comparison see more than the program's verdict.
function strip(s) {
	sub(/\r$/, "", s)
	# printk's "[   12.345678] " and, on SMP, an optional "[    T1] " caller id.
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", s)
	sub(/^\[ *[CT][0-9]+\] /, "", s)
	return s
}
function depth(s,   n) {
	n = match(s, /[^ ]/) - 1
	return n < 0 ? 0 : int(n / 4)
}
# The result of a "[not ]ok N name[ # SKIP ...]" line.
function verdict(s) {
	if (s ~ /# *SKIP/) return "skip"
	return s ~ /^ *not ok / ? "fail" : "ok"
}
# test_verifier's result NAME, its verdict at the start of V.
function tv_result(n, v) {
	v = v ~ /^OK/ ? "ok" : v ~ /^FAIL/ ? "fail" : "skip"
	if (seen[n]++) n = n "#" seen[n]
	printf "sub\t%s\t%s\n", n, v
	pending = ""
}
# kselftest's "COL: PROG" -> COL:PROG
function program(s) {
	sub(/: /, ":", s)
	return s
}
function name_of(s) {
	sub(/^ *(not )?ok [0-9]+ /, "", s)
	sub(/ *# .*/, "", s)
	return s
}
# Whether S opens a kernel's report of a fault it could not handle, in the
# words of x86 (Oops, BUG, general protection fault), arm and arm64
# (Internal error, Unable to handle kernel) and riscv (Oops -, Kernel BUG).
function oops_line(s) {
	return s ~ /^(Oops[: ]|BUG: |kernel BUG at |Kernel BUG|Internal error: |Unable to handle kernel |general protection fault)/
}
# The faulting function of a register dump's first line, or "" if S is not
# one: x86 "RIP: 0010:f+0x1/0x2", arm64 "pc : f+0x1/0x2", riscv
# "epc : f+0x1/0x2", arm "PC is at f+0x1/0x2".
function fault_at(s) {
	if (s ~ /^RIP: [0-9a-f]+:/) { sub(/^RIP: [0-9a-f]+:/, "", s); return s }
	if (s ~ /^e?pc : /) { sub(/^e?pc : /, "", s); return s }
	if (s ~ /^PC is at /) return substr(s, 10)
	return ""
}
BEGIN { plan = 0; ndone = 0; suite = "-"; last = "-"; started = 0; ksft = 0 }
{
	line = strip($0)
	if (oops_line(line)) { oops = line; at = ""; want_at = 1 }
	else if (want_at && (w = fault_at(line)) != "") { at = w; want_at = 0 }
	else if (panic == "" && line ~ /^Kernel panic - not syncing/) panic = line
	d = depth(line)
	body = line
	sub(/^ +/, "", body)
	if (line ~ /^[a-z]+-check: QEMU timed out after /) { timedout = 1; next }
	if (d == 0 && body ~ /^KTAP version / ) { started = 1; next }
	if (d == 0 && body ~ /^TAP version / && !started) { started = 1; ksft = 1; next }
	if (!started) {
		if (line ~ /CFI failure at /) { sub(/.*CFI failure at /, "CFI failure at ", line); printf "cfi\t-\t%s\n", line }
		next
	}
	if (d == 0 && body ~ /^1\.\.[0-9]+$/ && plan == 0) { plan = substr(body, 4) + 0; next }
	if (ksft && body ~ /^# selftests: /) { suite = program(substr(body, 14)); last = suite; pending = ""; next }
	if (ksft && body ~ /^# (not )?ok [0-9]+ /) {
		n = suite "/" name_of(substr(body, 3))
		if (seen[n]++) n = n "#" seen[n]
		printf "sub\t%s\t%s\n", n, verdict(substr(body, 3))
		next
	}
	# BPF's test_verifier is not TAP: "#N/p DESCR OK", "... FAIL[ why]",
	# "... SKIP[ (why)]" per program it loads (p privileged, u not).  A
	# message of its own may come between DESCR and the verdict, which
	# then starts the next line.
	if (ksft && body ~ /^# #[0-9]+\/[pu] /) {
		if (match(body, / (OK|FAIL|SKIP)([ :(]|$)/))
			tv_result(suite "/" substr(body, 3, RSTART - 3), substr(body, RSTART + 1))
		else
			pending = suite "/" substr(body, 3)
		next
	}
	if (ksft && pending != "" && body ~ /^# (OK|FAIL|SKIP)/) { tv_result(pending, substr(body, 3)); next }
	if (ksft && body ~ /^(not )?ok [0-9]+ selftests: /) {
		printf "case\t%s\t%s\n", program(substr(name_of(body), 12)), verdict(body)
		ndone++; suite = "-"
		next
	}
	if (d == 1 && body ~ /^# Subtest: /) { suite = substr(body, 12); last = suite; next }
	if (d == 1 && body ~ /^(not )?ok [0-9]+ /) {
		printf "case\t%s.%s\t%s\n", suite, name_of(body), verdict(body)
		next
	}
	if (d == 0 && body ~ /^(not )?ok [0-9]+ /) {
		printf "suite\t%s\t%s\n", name_of(body), verdict(body)
		ndone++; suite = "-"
		next
	}
	if (line ~ /CFI failure at /) {
		sub(/.*CFI failure at /, "CFI failure at ", line)
		printf "cfi\t%s\t%s\n", suite == "-" ? last : suite, line
	}
}
END {
	printf "plan\t%d\ndone\t%d\nlast\t%s\n", plan, ndone, last
	if (timedout) printf "ended\ttimeout\n"
	if (oops != "") printf "oops\t%s\n", oops
	if (at != "") printf "at\t%s\n", at
	if (panic != "") printf "panic\t%s\n", panic
}
