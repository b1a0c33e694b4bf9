#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make dkms-check's judge (boot/dkms-check.sh): from what the image step
# found -- each DKMS module's objects audited by kcfi-audit (MODULES_TXT,
# "NAME VERSION modules N checked C unchecked U outside O preambles P
# traps T findings F", or "NAME not-installed"), the plain gcc build's log
# -- and
# from the boot's facts (distro-judge.sh facts) and workload lines:
#
#   dkms-judge.sh ARCH RELEASE "MODULE..." MODULES_TXT PLAIN_GCC_LOG FACTS RESULTS [EXPLAINED]
#
# prints what failed, then one line
#   dkms ARCH (Linux RELEASE): built M/N by kcfi-gcc (preambles P, trap
#   entries T, unchecked U, findings F), plain gcc refused yes|no; checks ok
#   A, failed B; state S, failed units U; scap events E; cfi C
# (U counts the branches outside any recorded function too: dkms strips
# kcfi-as's records, so nothing there is exempt) and exits 1 unless every
# module was built with no unchecked indirect call
# and with preambles, plain gcc was refused naming kcfi-gcc, every check of
# the boot passed and each module had one (dkms-NAME-...), the boot ended, no unit
# or stressor failed that EXPLAINED (boot/distro/explained.tsv) does not
# explain, and no CFI failure was reported.
set -u
[ $# -ge 7 ] || { echo "usage: $0 ARCH RELEASE MODULES MODULES_TXT PLAIN_GCC_LOG FACTS RESULTS [EXPLAINED]" >&2; exit 2; }
arch=$1 release=$2 modules=$3 mtxt=$4 plain=$5 facts=$6 results=$7 explained=${8:-}
bad=0
fail() { echo "FAIL: $*"; bad=1; }
field() { awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i+1); exit } }' <<< "$1"; }

built=0 total=0 P=0 T=0 U=0 F=0
for m in $modules; do
	total=$((total + 1))
	l=$(grep "^$m " "$mtxt" 2>/dev/null | head -1)
	if [ -z "$l" ] || [[ $l == *not-installed* ]]; then fail "$m: dkms did not build and install it"; continue; fi
	n=$(field "$l" modules) p=$(field "$l" preambles)
	t=$(field "$l" traps) f=$(field "$l" findings)
	u=$(( $(field "$l" unchecked) + $(field "$l" outside) ))
	P=$((P + p)) T=$((T + t)) U=$((U + u)) F=$((F + f))
	if [ "${n:-0}" -eq 0 ]; then fail "$m: no module objects"
	elif [ "$u" -ne 0 ]; then fail "$m: $u indirect calls without a KCFI check (kcfi-audit)"
	elif [ "$p" -eq 0 ]; then fail "$m: no __cfi_ preamble in $n objects: not compiled with KCFI"
	else built=$((built + 1)); fi
	[ "${f:-0}" -eq 0 ] || echo "note: $m: kcfi-audit has $f finding(s), see audit-$m.txt"
done

refused=no
if grep -q '^plain-gcc: built' "$plain" 2>/dev/null; then
	fail "a module built with plain gcc against the KCFI kernel's headers"
elif grep -q 'cannot compile with .*Build with CC=[^ ]*kcfi-gcc' "$plain" 2>/dev/null; then
	refused=yes
else
	fail "plain gcc's build stopped without naming kcfi-gcc: $(tail -n 2 "$plain" 2>/dev/null | tr '\n' ' ')"
fi

ex=
[ -n "$explained" ] && [ -f "$explained" ] &&
	ex=$(grep -v '^#' "$explained" | awk -F'\t' -v a="$arch" 'NF >= 3 && ($1 == a || $1 == "*") { print $2 }')
get() { awk -F'\t' -v k="$1" '$1 == k { print $2; exit }' "$facts"; }
ok=$(awk -F'\t' '$1 == "check" && $3 == "ok"' "$facts" | wc -l)
nf=0
while IFS=$'\t' read -r _ name res; do
	[ "$res" = ok ] && continue
	nf=$((nf + 1)); fail "check $name: $res"
done < <(awk -F'\t' '$1 == "check"' "$facts")
for m in $modules; do
	grep -q "^check	dkms-$m-" "$facts" || fail "no check of $m (dkms-$m-...) ran"
done
units=0
while IFS=$'\t' read -r _ u; do
	units=$((units + 1))
	grep -qxF "unit:$u" <<< "$ex" || fail "failed unit $u"
done < <(awk -F'\t' '$1 == "unit"' "$facts")
while IFS=$'\t' read -r _ s r; do
	grep -qxF "stressor:$s" <<< "$ex" || fail "stressor $s $r"
done < <(awk -F'\t' '$1 == "stressor" && ($3 == "failed" || $3 == "hung")' "$facts")
[ "$(get end)" = yes ] || fail "the boot did not finish the workload; last: $(get last)"
cfi=$(get cfi)
[ "${cfi:-0}" -eq 0 ] || fail "$cfi CFI failure report(s) on the console"
ev=$( { tr -d '\r' < "$results"; } 2>/dev/null | sed -n 's/.*kcfi-distro: scap-events \([0-9]*\).*/\1/p' | head -1)

printf 'dkms %s (Linux %s): built %d/%d by kcfi-gcc (preambles %d, trap entries %d, unchecked %d, findings %d), plain gcc refused %s; checks ok %d, failed %d; state %s, failed units %d; scap events %s; cfi %d\n' \
	"$arch" "$release" "$built" "$total" "$P" "$T" "$U" "$F" "$refused" "$ok" "$nf" \
	"$(get state)" "$units" "${ev:-none}" "${cfi:-0}"
exit $bad
