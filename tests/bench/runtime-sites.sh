#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runtime/sites.sh, which turns kcfi-audit's CSV of checked call
# sites into the addresses make bench-runtime's TCG plugin counts: on a
# program built by kcfi-gcc, every address must be a call through a
# register right behind its check, and there must be one per check.
. "$top_srcdir/tests/lib.sh"
OBJDUMP=${OBJDUMP:-objdump}
command -v "$OBJDUMP" >/dev/null || skip "objdump not found"
command -v readelf >/dev/null || skip "readelf not found"
cat > "$T/p.c" <<'C'
struct ops { int (*f)(int); void (*g)(void *); };
__attribute__((noinline)) int inc(int x) { return x + 1; }
__attribute__((noinline)) void nop(void *p) { (void)p; }
static const struct ops o = { inc, nop };
const struct ops *volatile op = &o;
int main(void) { const struct ops *p = op; p->g(0); return p->f(-1) + p->f(-1) - 0; }
C
"$KCFI_GCC" -O2 -fsanitize=kcfi -o "$T/p" "$T/p.c" || { fail "kcfi-gcc cannot build the program"; finish; }
"$top_builddir/kcfi-audit" --targets --csv="$T/p.csv" "$T/p" > "$T/audit.txt" 2>&1
check "kcfi-audit wrote three call sites" test "$(($(wc -l < "$T/p.csv") - 1))" = 3
bash "$top_srcdir/bench/runtime/sites.sh" "$T/p" "$T/p.csv" > "$T/sites"
check "sites.sh gave three addresses" test "$(wc -l < "$T/sites")" = 3
"$OBJDUMP" -d -w --no-show-raw-insn "$T/p" > "$T/p.dis"
# each address: a call through a register, the instruction before it the
# check's conditional jump over its ud2.
ok=0
while read -r a; do
	awk -v a="$a" '
		{ addr = $1; sub(/:$/, "", addr) }
		addr == a { found = ($0 ~ /call +\*%r/) && (prev ~ /ud2/) && (prev2 ~ /je /) }
		{ prev2 = prev; prev = $0 }
		END { exit !found }' "$T/p.dis" || { echo "not a checked call: $a" >&2; ok=1; }
done < "$T/sites"
check "every address is a checked call" test $ok = 0
finish
