# make kunit-check's reading of results (boot/ktap.awk output): counts per
# compiler and the differences nobody explained.  Sourced by kunit-check.sh
# and tests/boot/kunit.sh; expects $OUT (results under $OUT/<arch>/) and
# $EXPLAINED (boot/config/kunit/explained.tsv).

# tally FILE: "ok A, not ok B, skipped C" of a results file; "cfi F" too
# unless the compiler is gcc (no CFI).  A boot that ended before the last
# suite says so: "crashed in SUITE after N of M suites".
tally() {
	local f=$1 cc=$2
	awk -F'\t' -v cc="$cc" '
		$1 == "case" { n[$3]++ }
		$1 == "cfi" { cfi++ }
		$1 == "plan" { plan = $2 } $1 == "done" { done = $2 } $1 == "last" { last = $2 }
		END {
			printf "ok %d, not ok %d, skipped %d", n["ok"], n["fail"], n["skip"]
			if (cc != "gcc") printf ", cfi %d", cfi
			if (plan == 0) printf " (KUnit never started)"
			else if (done < plan) printf " (crashed in %s after %d of %d suites)", last, done, plan
		}' "$f"
}

# complete FILE: KUnit started and every announced suite reported.
complete() {
	awk -F'\t' '$1 == "plan" { p = $2 } $1 == "done" { d = $2 } END { exit !(p > 0 && d >= p) }' "$1"
}

# unexplained ARCH: what kcfi-gcc does that gcc does not, minus what clang-19
# shares and what explained.tsv lists; one line each, to stdout.
unexplained() {
	local arch=$1 dir=$OUT/$1
	local k=$dir/kcfi-gcc.results g=$dir/gcc.results c=$dir/clang-19.results
	[ -f "$c" ] || c=/dev/null
	awk -F'\t' -v arch="$arch" -v EX="$EXPLAINED" -v K="$k" -v G="$g" -v C="$c" '
		function fn(s) { sub(/^CFI failure at /, "", s); sub(/\+.*/, "", s); return s }
		BEGIN {
			while ((getline l < EX) > 0) {
				if (l ~ /^#/ || l == "") continue
				split(l, f, "\t")
				if (f[1] == arch || f[1] == "*") ex[f[2]] = 1
			}
			while ((getline l < C) > 0) { split(l, f, "\t"); if (f[1] == "cfi") ccfi[fn(f[3])] = 1 }
			while ((getline l < G) > 0) { split(l, f, "\t"); if (f[1] == "case") gr[f[2]] = f[3] }
			while ((getline l < K) > 0) {
				split(l, f, "\t")
				if (f[1] == "case") {
					kr[f[2]] = f[3]
					if (!(f[2] in gr)) { if (!(f[2] in ex)) print "only in kcfi-gcc: " f[2] " " f[3] }
					else if (gr[f[2]] != f[3] && !(f[2] in ex)) print "differs: " f[2] " kcfi-gcc " f[3] ", gcc " gr[f[2]]
				} else if (f[1] == "cfi") {
					if (!(fn(f[3]) in ccfi) && !(("cfi:" fn(f[3])) in ex)) print "cfi in " f[2] ": " f[3]
				}
			}
			for (t in gr) if (!(t in kr) && !(t in ex)) print "only in gcc: " t " " gr[t]
		}' | sort
}

