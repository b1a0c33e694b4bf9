#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make distro-check's judge (boot/distro-check.sh): reads what one boot of
# the Debian image wrote -- the workload's "kcfi-distro: ..." lines on the
# second serial port (boot/distro/kcfi-distro-check) and the console -- and
# compares the kcfi-gcc boot with the plain gcc boot of the same
# configuration.
#
#   distro-judge.sh facts RESULTS CONSOLE
#	one fact a line, tab-separated: state S; unit NAME (failed); check
#	NAME ok|fail; stressor NAME ok|failed|skipped|excluded|hung; once
#	NAME WHEN (a unit that failed at some time, also one restarted
#	since: its first failure, with the stressor then running); cfi N
#	(CFI failure reports); warn LINE (a kernel WARNING/BUG/Oops, without
#	timestamp, CPU and PID); end yes|no; last WHAT (a boot that did not
#	end: the stressor it was in, else the last unit systemd started)
#   distro-judge.sh compare ARCH EXPLAINED KCFI_RESULTS KCFI_CONSOLE GCC_RESULTS GCC_CONSOLE [CLANG_RESULTS CLANG_CONSOLE]
#	the differences, each marked explained or unexplained, then one line
#	  distro ARCH: kcfi-gcc state S, failed units U, stressors ok A,
#	  failed B, skipped C, cfi F; gcc state S2, failed units U2, stressors
#	  ok A2, failed B2, skipped C2[; clang-cfi state S3, failed units U3,
#	  stressors ok A3, failed B3, skipped C3, cfi F3]; unexplained D[,
#	  not in clang-cfi's boot E]
#	and exit 1 when D > 0, F > 0 or a boot did not end.
# D counts: every failed unit of either boot, every check that failed,
# every stressor or state that differs between the two, every unit that
# failed at some time in one boot and never in the other, every kernel
# warning of the kcfi-gcc boot that the gcc boot does not have -- unless
# EXPLAINED (ARCH or * <TAB> unit:NAME, check:NAME, stressor:NAME,
# once:NAME, state or warn:TEXT <TAB> the reason) explains it -- and every
# CFI failure.  With the boot of Clang's CFI kernel of the same
# configuration (clang-19 -fsanitize=kcfi), each difference also says
# what that boot did: one it shares is CFI's (the kernel's, under any
# compiler), one it does not is ours; E counts the unexplained ones of
# ours.
set -u

facts() {
	local results=$1 console=$2
	{ tr -d '\r' < "$results"; } 2>/dev/null | awk -F'\n' '
		{ sub(/^.*kcfi-distro: /, "kcfi-distro: ") }
		!/^kcfi-distro: / { next }
		{ $0 = substr($0, 14) }
		/^state / { state = substr($0, 7) }
		/^failed-unit / { print "unit\t" substr($0, 13) }
		/^check [^ ]+ ok$/ { split($0, w, " "); print "check\t" w[2] "\tok" }
		/^check [^ ]+ fail/ { split($0, w, " "); print "check\t" w[2] "\tfail" }
		/^stressor [^ ]+ start$/ { split($0, w, " "); cur = w[2] }
		/^stressor-uptime [^ ]+ [0-9.]+$/ { split($0, w, " "); nst++; st_name[nst] = w[2]; st_at[nst] = w[3] + 0 }
		/^unit-failed-once [^ ]+ [0-9]+ / { split($0, w, " "); during = "start-up or the checks"
			for (i = 1; i <= nst; i++) if (st_at[i] <= w[3] + 0) during = "stressor " st_name[i]
			if (!(w[2] in once)) print "once\t" w[2] "\t" w[3] " s, result " w[4] ", during " during
			once[w[2]] = 1 }
		/^stressor [^ ]+ excluded: / { split($0, w, " "); print "stressor\t" w[2] "\texcluded"; if (w[2] == cur) cur = "" }
		/^stressor [^ ]+ skipped: / { split($0, w, " "); print "stressor\t" w[2] "\tskipped"; if (w[2] == cur) cur = "" }
		/^stressor [^ ]+ rc [0-9]+$/ { split($0, w, " "); cur = ""
			r = (w[4] == 0) ? "ok" : (w[4] == 3 || w[4] == 4) ? "skipped" : "failed"
			print "stressor\t" w[2] "\t" r }
		/^end$/ { ended = 1 }
		END { print "state\t" (state == "" ? "none" : state)
			if (cur != "") { print "stressor\t" cur "\thung"; print "last\tstressor " cur }
			print "end\t" (ended ? "yes" : "no")
			if (!ended && cur == "") print "lastunit" }'
	# The console: CFI reports and kernel warnings, timestamps dropped.
	local con
	con=$({ tr -d '\r' < "$console"; } 2>/dev/null | sed -E 's/^\[ *[0-9]+\.[0-9]+\] //')
	printf 'cfi\t%s\n' "$(grep -c 'CFI failure at' <<< "$con")"
	grep -E '(WARNING:|BUG:|Oops|general protection fault|Kernel panic)' <<< "$con" |
		sed -E 's/ (CPU|PID): [0-9]+//g; s/\+0x[0-9a-f]+\/0x[0-9a-f]+//g' | sort -u |
		sed 's/^/warn\t/'
}

# last_unit CONSOLE: the last unit systemd said it started or was starting.
last_unit() {
	# (systemd colours its status lines on the serial console)
	{ tr -d '\r' < "$1"; } 2>/dev/null | sed -E 's/\x1b\[[0-9;]*m//g' |
		sed -nE 's/.*(Starting|Started|Finished) (.*)$/\2/p' | sed -E 's/\.+$//' | tail -1
}

facts_of() {	# facts_of RESULTS CONSOLE: facts, with the last unit filled in
	facts "$1" "$2" | while IFS= read -r l; do
		if [ "$l" = lastunit ]; then printf 'last\tunit %s\n' "$(last_unit "$2")"; else echo "$l"; fi
	done
}

compare() {
	local arch=$1 explained=$2 kf gf cf= clang=
	kf=$(facts_of "$3" "$4") gf=$(facts_of "$5" "$6")
	if [ $# -ge 8 ]; then
		clang=yes
		cf=$(facts_of "$7" "$8")
	fi
	local ex=
	[ -f "$explained" ] && ex=$(grep -v '^#' "$explained" | awk -F'\t' -v a="$arch" 'NF >= 3 && ($1 == a || $1 == "*") { print $2 }')
	is_explained() { grep -qxF -- "$1" <<< "$ex"; }
	warn_explained() { local w; while IFS= read -r w; do
		[ -n "$w" ] && [[ "$1" == *"${w#warn:}"* ]] && return 0; done < <(grep '^warn:' <<< "$ex"); return 1; }
	local unexplained=0 ours=0 line
	# note KEY TEXT [CLANG [NOTOURS]]: one difference, explained or not;
	# CLANG is what Clang's CFI boot did there, "shared" when as
	# kcfi-gcc's; NOTOURS: gcc's boot has it too.
	note() {
		local c=
		[ -n "$clang" ] && c=" [clang-cfi: ${3:-not run}]"
		if is_explained "$1"; then echo "explained: $2$c"
		else
			echo "UNEXPLAINED: $2$c"; unexplained=$((unexplained + 1))
			[ "${3:-}" = shared ] || [ -n "${4:-}" ] || ours=$((ours + 1))
		fi
	}
	# clang_says KIND NAME KCFI_OUTCOME: Clang's boot's outcome, "shared"
	# when it is kcfi-gcc's.
	clang_says() {
		[ -n "$clang" ] || return 0
		local r
		r=$(result "$cf" "$1" "$2")
		if [ "$r" = "$3" ]; then echo shared; else echo "${r:-not run}"; fi
	}
	get() { awk -F'\t' -v k="$2" '$1 == k { print $2 }' <<< "$1" | head -1; }
	# names KIND: the names of KIND (unit, check, stressor) on either side;
	# result FACTS KIND NAME: that name's outcome on one side.
	names() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' <<< "$kf"$'\n'"$gf" | sort -u; }
	result() { awk -F'\t' -v k="$2" -v n="$3" '$1 == k && $2 == n { print $3 }' <<< "$1"; }
	local ks gs
	ks=$(get "$kf" state) gs=$(get "$gf" state)
	local cs=
	[ -n "$clang" ] && { cs=$(get "$cf" state); [ "$cs" = "$ks" ] && cs=shared; }
	[ "$ks" = "$gs" ] || note state "state: kcfi-gcc $ks, gcc $gs" "$cs"
	local u
	for u in $(names unit); do
		local who= cu=
		grep -qxF "unit	$u" <<< "$kf" && who="kcfi-gcc"
		grep -qxF "unit	$u" <<< "$gf" && who="${who:+$who and }gcc"
		if [ -n "$clang" ]; then
			if grep -qxF "unit	$u" <<< "$cf"; then cu=failed; else cu="did not fail"; fi
			[ "$cu" = failed ] && [ "$who" != gcc ] && cu=shared
		fi
		note "unit:$u" "failed unit $u ($who)" "$cu" "$( [[ $who == *gcc ]] && [[ $who != kcfi-gcc ]] && echo notours)"
	done
	# Units that failed at some time (restarted since, or after start-up):
	# a difference when one boot has it and the other does not.
	for u in $(names once); do
		local kw gw
		kw=$(result "$kf" once "$u") gw=$(result "$gf" once "$u")
		if [ -n "$kw" ] && [ -n "$gw" ]; then
			echo "note: unit $u failed at some time on both boots (kcfi-gcc at $kw; gcc at $gw)"
			continue
		fi
		local co=
		if [ -n "$clang" ]; then
			co=$(result "$cf" once "$u")
			if [ -n "$co" ] && [ -n "$kw" ]; then co=shared
			elif [ -n "$co" ]; then co="failed at $co"
			else co="did not fail"; fi
		fi
		if [ -n "$kw" ]; then note "once:$u" "unit $u failed at $kw on kcfi-gcc's boot, never on gcc's" "$co"
		else note "once:$u" "unit $u failed at $gw on gcc's boot, never on kcfi-gcc's" "$co"; fi
	done
	# Checks: each must pass on both.
	local c
	for c in $(names check); do
		local kr gr
		kr=$(result "$kf" check "$c") gr=$(result "$gf" check "$c")
		[ "$kr" = ok ] && [ "$gr" = ok ] && continue
		note "check:$c" "check $c: kcfi-gcc ${kr:-not run}, gcc ${gr:-not run}" "$(clang_says check "$c" "$kr")"
	done
	# Stressors: their outcome must agree (one not run on a side that
	# ended does not count: that side skipped it by exclusion or class).
	local s
	for s in $(names stressor); do
		local kr gr
		kr=$(result "$kf" stressor "$s") gr=$(result "$gf" stressor "$s")
		[ "$kr" = "$gr" ] && continue
		note "stressor:$s" "stressor $s: kcfi-gcc ${kr:-not run}, gcc ${gr:-not run}" "$(clang_says stressor "$s" "$kr")"
	done
	# Kernel warnings of ours that gcc's boot does not have.
	local w
	while IFS= read -r w; do
		[ -n "$w" ] || continue
		grep -qxF "warn	$w" <<< "$gf" && continue
		local cw=
		if [ -n "$clang" ]; then
			if grep -qxF "warn	$w" <<< "$cf"; then cw=shared; else cw="not there"; fi
		fi
		if warn_explained "$w"; then echo "explained: kernel: $w"
		else note "warn:$w" "kernel: $w (kcfi-gcc only)" "$cw"; fi
	done < <(awk -F'\t' '$1 == "warn" { print $2 }' <<< "$kf")
	# Not run, and why (boot/distro/exclude.tsv, stress-ng's pathological
	# ones) -- named here so that a reader sees what the counts leave out.
	local x
	x=$(awk -F'\t' '$1 == "stressor" && $3 == "excluded" { printf " %s", $2 }' <<< "$kf")
	[ -z "$x" ] || echo "not run on kcfi-gcc's boot:$x"
	local status=0 kc gc
	kc=$(get "$kf" cfi) gc=$(get "$gf" cfi)
	[ "${kc:-0}" -eq 0 ] || { echo "CFI: $kc CFI failure report(s) on kcfi-gcc's console"; status=1; }
	[ "${gc:-0}" -eq 0 ] || echo "note: $gc 'CFI failure' line(s) on gcc's console (a kernel without CFI)"
	local ccf=
	[ -n "$clang" ] && ccf=$(get "$cf" cfi)
	[ "${ccf:-0}" -eq 0 ] || echo "note: $ccf CFI failure report(s) on clang-cfi's console (the kernel's own mismatches, under Clang)"
	local side f sides="kcfi-gcc gcc"
	[ -n "$clang" ] && sides="$sides clang-cfi"
	for side in $sides; do
		f=$kf; [ $side = gcc ] && f=$gf; [ $side = clang-cfi ] && f=$cf
		if [ "$(get "$f" end)" != yes ]; then
			echo "HUNG: $side's boot did not finish the workload; last: $(get "$f" last)"
			status=1
		fi
	done
	count() { awk -F'\t' -v k="$2" -v r="${3:-}" '$1 == k && (r == "" || $3 == r)' <<< "$1" | wc -l; }
	# summary FACTS: one boot's part of the line (a hung stressor failed)
	summary() {
		printf 'state %s, failed units %d, stressors ok %d, failed %d, skipped %d' \
			"$(get "$1" state)" "$(count "$1" unit)" "$(count "$1" stressor ok)" \
			"$(( $(count "$1" stressor failed) + $(count "$1" stressor hung) ))" "$(count "$1" stressor skipped)"
	}
	local clause= tail=
	if [ -n "$clang" ]; then
		clause="; clang-cfi $(summary "$cf"), cfi ${ccf:-0}"
		tail=", not in clang-cfi's boot $ours"
	fi
	echo "distro $arch: kcfi-gcc $(summary "$kf"), cfi ${kc:-0}; gcc $(summary "$gf")$clause; unexplained $unexplained$tail"
	[ "$unexplained" -eq 0 ] || status=1
	return $status
}

case ${1:-} in
facts) shift; [ $# -eq 2 ] || { echo "usage: $0 facts RESULTS CONSOLE" >&2; exit 2; }; facts_of "$@" ;;
compare) shift; [ $# -eq 6 ] || [ $# -eq 8 ] || { echo "usage: $0 compare ARCH EXPLAINED KCFI_RESULTS KCFI_CONSOLE GCC_RESULTS GCC_CONSOLE [CLANG_RESULTS CLANG_CONSOLE]" >&2; exit 2; }
	compare "$@" ;;
*) echo "usage: $0 facts|compare ..." >&2; exit 2 ;;
esac
