#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A 200 MB annotated unit (make hostile-big; not in make check): kcfi-as must
# stream it -- maximum resident set at most twice the input, measured with
# /usr/bin/time -v -- and still rewrite every call site and function in it.
#   BIG_MB=N      input size in MB (default 200)
#   BIG_ASSEMBLE=1  also run GNU as on the result (slow, gigabytes of memory)
# The unit is real plugin output (bench/gen-corpus.sh through kcfi-gcc -S),
# repeated with its symbols and local labels renamed per copy.
. "$top_srcdir/tests/hostile/lib.sh"
[ -f "${KCFI_PLUGIN:-}" ] || skip "the plugin is not built"
[ -x /usr/bin/time ] || skip "/usr/bin/time is missing (apt-get install time)"
mb=${BIG_MB:-200}
T=${BIG_TMPDIR:-$T}

sh "$top_srcdir/bench/gen-corpus.sh" 1000 >"$T/corpus.c"
"$KCFI_GCC" -fsanitize=kcfi -fsanitize-kcfi-annotated-asm -O2 -S -o "$T/one.s" "$T/corpus.c" || { fail "kcfi-gcc -S"; finish; }
"$KCFI_AS" --kcfi-no-assemble --kcfi-stats "$T/one.s" 2>"$T/one.stats" || { fail "one copy refused"; finish; }
per_checks=$(sed -n 's/.* checks=\([0-9]*\) .*/\1/p' "$T/one.stats")
per_pre=$(sed -n 's/.* preambles=\([0-9]*\) .*/\1/p' "$T/one.stats")
# Template: everything after the version line, names made per-copy.
sed -n '/^[[:space:]]*\.kcfi_version/,$p' "$T/one.s" | sed 1d |
	sed 's/\([^A-Za-z0-9_]\)fn\([0-9][0-9]*\)/\1fn\2_@@/g; s/^fn\([0-9][0-9]*\)/fn\1_@@/; s/\.L\([A-Z]*[0-9][0-9]*\)/.L\1_@@/g' \
	>"$T/body.s"
copies=$(( mb * 1048576 / $(wc -c <"$T/body.s") + 1 ))
{
	sed -n '1,/^[[:space:]]*\.kcfi_version/p' "$T/one.s"
	k=0
	while [ $k -lt $copies ]; do sed "s/@@/$k/g" "$T/body.s"; k=$((k + 1)); done
} >"$T/big.s"
size=$(wc -c <"$T/big.s")
echo "input: $size bytes, $copies copies of $per_checks checks and $per_pre preambles"

# Count what came out, without keeping it: checks (ud2), trap entries,
# preambles, and any .kcfi_ directive that escaped.
/usr/bin/time -v -o "$T/time" "$KCFI_AS" --kcfi-no-assemble --kcfi-stats --kcfi-save=- \
	"$T/big.s" 2>"$T/big.stats" |
	awk '/^\tud2$/ { u++ } /^\t\.pushsection \.kcfi_traps/ { t++ } /^__cfi_fn[0-9_]*:$/ { p++ }
	     /^[ \t]*\.kcfi_/ { k++ } END { printf "ud2=%d traps=%d preambles=%d kcfi=%d\n", u, t, p, k }' \
	>"$T/counts"
rss_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$T/time")
secs=$(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$T/time")
status=$(sed -n 's/.*Exit status: //p' "$T/time")
echo "kcfi-as: exit $status, max RSS ${rss_kb} kB for ${size} bytes, wall $secs; $(cat "$T/big.stats")"
[ "$status" = 0 ] && pass "accepted" || fail "exit status $status"
[ $((rss_kb * 1024)) -le $((2 * size)) ] && pass "max RSS ${rss_kb} kB <= 2 x input" ||
	fail "max RSS ${rss_kb} kB > 2 x ${size} bytes"
want="ud2=$((copies * per_checks)) traps=$((copies * per_checks)) preambles=$((copies * per_pre)) kcfi=0"
[ "$(cat "$T/counts")" = "$want" ] && pass "output: $want" || fail "output: $(cat "$T/counts"), want $want"
grep -q " checks=$((copies * per_checks)) " "$T/big.stats" && pass "stats agree" || fail "stats: $(cat "$T/big.stats")"
if [ -n "${BIG_ASSEMBLE:-}" ]; then
	/usr/bin/time -f '%e s, %M kB' -o "$T/as-time" "$KCFI_AS" -o "$T/big.o" "$T/big.s" &&
		pass "GNU as assembled it too ($(cat "$T/as-time"))" || fail "GNU as refused the result"
fi
finish
