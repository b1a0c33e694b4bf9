# SPDX-License-Identifier: GPL-2.0-or-later
# make kunit-check's and make kselftest-check's reading of results
# (boot/ktap.awk output): counts per compiler and the differences nobody
# explained.  Sourced by kunit-check.sh, kselftest-check.sh and
# tests/boot/kunit.sh, kselftest.sh; expects $OUT (results under
# $OUT/<arch>/) and $EXPLAINED (boot/config/kunit/explained.tsv, or
# kselftest's).

# tally FILE COMPILER [UNIT [RUNNER]]: "ok A, not ok B, skipped C" of a
# results file; "cfi F" too unless the compiler is gcc (no CFI).  A boot
# that ended before the last suite says so: "crashed in SUITE after N of M
# suites" ("timed out in" when the harness stopped it), followed by the
# kernel's last Oops and where it hit (or its panic line) when it printed
# one.  UNIT (suites) and RUNNER (KUnit) name what plan counts and who
# announces it.
tally() {
	local f=$1 cc=$2 unit=${3:-suites} runner=${4:-KUnit}
	awk -F'\t' -v cc="$cc" -v unit="$unit" -v runner="$runner" '
		$1 == "case" { n[$3]++ }
		$1 == "cfi" { cfi++ }
		$1 == "plan" { plan = $2 } $1 == "done" { done = $2 } $1 == "last" { last = $2 }
		$1 == "ended" { how = $2 == "timeout" ? "timed out" : "crashed" }
		$1 == "oops" { oops = $2 } $1 == "at" { at = $2 } $1 == "panic" { panic = $2 }
		END {
			printf "ok %d, not ok %d, skipped %d", n["ok"], n["fail"], n["skip"]
			if (cc != "gcc") printf ", cfi %d", cfi
			if (plan > 0 && done >= plan) exit
			why = oops != "" ? "\"" oops "\"" (at != "" ? " at " at : "") : panic != "" ? "\"" panic "\"" : ""
			if (how == "") how = "crashed"
			if (plan == 0) printf " (%s never started%s%s)", runner,
				how == "timed out" ? ", timed out" : why != "" ? "; the boot crashed" : "",
				why != "" ? ": " why : ""
			else printf " (%s in %s after %d of %d %s%s)", how, last, done, plan, unit, why != "" ? ": " why : ""
		}' "$f"
}

# complete FILE: KUnit started and every announced suite reported.
complete() {
	awk -F'\t' '$1 == "plan" { p = $2 } $1 == "done" { d = $2 } END { exit !(p > 0 && d >= p) }' "$1"
}

# unexplained ARCH: what kcfi-gcc does that gcc does not, minus what clang-19
# shares and what explained.tsv lists; one line each, to stdout.  Results
# inside a program (kselftest's "sub" lines, PROG/NAME) count too, unless
# the program's own result already differs (one line says it) or the
# program is explained as a whole.
unexplained() {
	local arch=$1 dir=$OUT/$1
	local k=$dir/kcfi-gcc.results g=$dir/gcc.results c=$dir/clang-19.results
	[ -f "$c" ] || c=/dev/null
	awk -F'\t' -v arch="$arch" -v EX="$EXPLAINED" -v K="$k" -v G="$g" -v C="$c" '
		function fn(s) { sub(/^CFI failure at /, "", s); sub(/\+.*/, "", s); return s }
		# COL:PROG of COL:PROG/NAME (COL may hold a slash: filesystems/epoll).
		function prog(s,   i, j) {
			i = index(s, ":"); j = index(substr(s, i + 1), "/")
			return j ? substr(s, 1, i + j - 1) : s
		}
		# Whether a difference in result T (a case, or a PROG/NAME) is told.
		function told(t) { return !(t in ex) && !(prog(t) in ex) && !(prog(t) in said) }
		BEGIN {
			while ((getline l < EX) > 0) {
				if (l ~ /^#/ || l == "") continue
				split(l, f, "\t")
				if (f[1] == arch || f[1] == "*") ex[f[2]] = 1
			}
			while ((getline l < C) > 0) { split(l, f, "\t"); if (f[1] == "cfi") ccfi[fn(f[3])] = 1 }
			while ((getline l < G) > 0) {
				split(l, f, "\t")
				if (f[1] == "case") gr[f[2]] = f[3]
				else if (f[1] == "sub") gs[f[2]] = f[3]
			}
			while ((getline l < K) > 0) {
				split(l, f, "\t")
				if (f[1] == "case") {
					kr[f[2]] = f[3]
					if (!(f[2] in gr)) { if (!(f[2] in ex)) print "only in kcfi-gcc: " f[2] " " f[3] }
					else if (gr[f[2]] != f[3] && !(f[2] in ex)) print "differs: " f[2] " kcfi-gcc " f[3] ", gcc " gr[f[2]]
				} else if (f[1] == "sub") {
					ks[f[2]] = f[3]
				} else if (f[1] == "cfi") {
					if (!(fn(f[3]) in ccfi) && !(("cfi:" fn(f[3])) in ex)) print "cfi in " f[2] ": " f[3]
				}
			}
			for (t in gr) if (!(t in kr) && !(t in ex)) print "only in gcc: " t " " gr[t]
			for (t in kr) if (!(t in gr) || gr[t] != kr[t]) said[t] = 1
			for (t in gr) if (!(t in kr)) said[t] = 1
			for (t in ks) {
				if (!(t in gs)) { if (told(t)) print "only in kcfi-gcc: " t " " ks[t] }
				else if (gs[t] != ks[t] && told(t)) print "differs: " t " kcfi-gcc " ks[t] ", gcc " gs[t]
			}
			for (t in gs) if (!(t in ks) && told(t)) print "only in gcc: " t " " gs[t]
		}' | sort
}


# earlier_runs ARCH COMPILERS [UNIT RUNNER]: for each compiler not among
# COMPILERS (those this run boots), the tally of the results it left under
# $OUT/ARCH in an earlier run, marked "(earlier run)", into said: arch_line
# compares against those files whether or not this run made them, so the
# line must not call such a compiler "not run".
earlier_runs() {
	local arch=$1 run=$2 cc
	shift 2
	for cc in kcfi-gcc gcc clang-19; do
		case " $run " in *" $cc "*) continue ;; esac
		[ -f "$OUT/$arch/$cc.results" ] &&
			said[$cc]="$(tally "$OUT/$arch/$cc.results" "$cc" "$@") (earlier run)"
	done
	return 0
}

# arch_line WHAT ARCH: the summary line of ARCH, "WHAT ARCH: kcfi-gcc ...;
# gcc ...; clang-19 ...; unexplained D", from the tallies in the
# associative array said (by compiler); the differences D counts go to
# $OUT/ARCH/unexplained.txt.  Fails unless D is known and 0.
arch_line() {
	local what=$1 arch=$2 line sep= cc d rc=0
	line="$what $arch:"
	for cc in kcfi-gcc gcc clang-19; do
		line="$line$sep $cc ${said[$cc]:-not run}"
		sep=";"
	done
	if [ -f "$OUT/$arch/kcfi-gcc.results" ] && [ -f "$OUT/$arch/gcc.results" ]; then
		unexplained "$arch" > "$OUT/$arch/unexplained.txt"
		d=$(wc -l < "$OUT/$arch/unexplained.txt")
		[ "$d" -eq 0 ] || rc=1
		line="$line; unexplained $d"
		# Equal results prove nothing when nothing passes: a userspace or
		# configuration that fails every test fails it on every kernel.
		if ! grep -qP '^case\t[^\t]*\tok$' "$OUT/$arch/gcc.results"; then
			line="$line (no test passed on gcc's kernel: the comparison says nothing)"
			rc=1
		fi
	else
		line="$line; unexplained - (kcfi-gcc and gcc both needed)"
		rc=1
	fi
	echo "$line"
	return $rc
}

# table WHAT ARCH: ARCH's results per compiler as a table -- suites (KUnit's
# own verdicts; kselftest has none apart from its programs), cases, CFI
# failures -- and then every case whose result differs between kcfi-gcc
# and gcc, with explained.tsv's reason where it gives one.  To stdout.
table() {
	local what=$1 arch=$2 dir=$OUT/$2
	echo "$what $arch:"
	awk -F'\t' -v dir="$dir" '
		BEGIN {
			printf "  %-9s %8s %7s %8s  %8s %7s %8s  %4s\n", "", "suites ok", "not ok", "skipped",
				"cases ok", "not ok", "skipped", "cfi"
			n = split("kcfi-gcc gcc clang-19", ccs, " ")
			for (i = 1; i <= n; i++) {
				f = dir "/" ccs[i] ".results"
				delete c
				have = 0
				while ((getline l < f) > 0) {
					have = 1
					split(l, x, "\t")
					c[x[1] "." x[3]]++
					if (x[1] == "cfi") c["cfi"]++
				}
				close(f)
				if (!have) { printf "  %-9s no results\n", ccs[i]; continue }
				s = c["suite.ok"] + c["suite.fail"] + c["suite.skip"]
				printf "  %-9s %8s %7s %8s  %8d %7d %8d  %4s\n", ccs[i],
					s ? c["suite.ok"] + 0 : "-", s ? c["suite.fail"] + 0 : "-",
					s ? c["suite.skip"] + 0 : "-", c["case.ok"], c["case.fail"],
					c["case.skip"], ccs[i] == "gcc" ? "-" : c["cfi"] + 0
			}
		}'
	[ -f "$dir/kcfi-gcc.results" ] && [ -f "$dir/gcc.results" ] || return 0
	awk -F'\t' -v arch="$arch" -v EX="$EXPLAINED" -v K="$dir/kcfi-gcc.results" -v G="$dir/gcc.results" '
		function load(file, r,   l, x) {
			while ((getline l < file) > 0) { split(l, x, "\t"); if (x[1] == "case") r[x[2]] = x[3] }
		}
		BEGIN {
			while ((getline l < EX) > 0) {
				if (l ~ /^#/ || l == "") continue
				split(l, x, "\t")
				if (x[1] == arch || x[1] == "*") why[x[2]] = x[3]
			}
			load(K, k); load(G, g)
			for (t in k) if (!(t in g) || g[t] != k[t]) d[t] = 1
			for (t in g) if (!(t in k)) d[t] = 1
			for (t in d) {
				printf "  differs: %s kcfi-gcc %s, gcc %s%s\n", t, t in k ? k[t] : "absent",
					t in g ? g[t] : "absent", t in why ? " (explained: " why[t] ")" : ""
				nd++
			}
			if (!nd) print "  kcfi-gcc and gcc: the same result in every case"
		}' | sort
}

# show_unexplained ARCH...: each architecture's list of differences, if any.
show_unexplained() {
	local arch
	for arch; do
		[ -s "$OUT/$arch/unexplained.txt" ] || continue
		echo "$arch, unexplained ($OUT/$arch/unexplained.txt):"
		sed 's/^/    /' "$OUT/$arch/unexplained.txt"
	done
}
