#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-kernel: what KCFI costs at kernel scale, kcfi-gcc beside plain
# gcc and beside Clang's own KCFI (doc/performance.md).  Four builds of the
# small boot profile's x86_64 kernel (boot/config, tinyconfig-based) from the
# source tree boot-check prepared: gcc, kcfi-gcc with CONFIG_CFI_CLANG=y,
# clang-19 with and without CONFIG_CFI_CLANG; and the CFI config once more
# with each compiler but without -fsanitize=kcfi (to vmlinux.o: nothing
# defines the __kcfi_typeid_ symbols the kernel's assembly refers to), which
# splits .text growth into what the config costs (FineIBT pads every
# function) and what KCFI's own code costs.  Then, on those builds:
# whole-build CPU, per-unit compile CPU (units recompiled with their own
# command lines, kcfi-gcc and gcc in turns), vmlinux .text growth, kcfi-as's
# peak RSS against gas on the largest unit, where the time goes in the ten
# dearest units, the per-call cost of a check (bench/indirect-call.sh), and
# how many checks start with a move of the target into %r11, ours and
# Clang's (bench/r11-checks.awk).
# Only ratios are reported: the machine is shared and absolute times drift.
#
# Usage: bench/kernel.sh [KCFI_BUILDDIR]
# Environment:
#   KCFI_BENCH_KERNEL_CACHE  build dirs and logs (default /var/tmp/kcfi-bench-kernel);
#                            a build is reused while its compiler, kcfi-as,
#                            the plugin and the config are the same
#   KCFI_BOOT_CACHE          where boot-check keeps the patched source tree
#                            (default /var/cache/kcfi-boot)
#   BENCH_JOBS      make -j of the kernel builds (default 2), shared by the
#                   two builds of a pair
#   BENCH_PAIRED    1 (default): build gcc beside kcfi-gcc and clang beside
#                   clang-cfi at the same time; 0: one build after another
#   BENCH_UNITS     units in the per-unit sample (default 60; 0 = all)
#   BENCH_SEED      seed of that sample (default 16)
#   BENCH_REPS      runs of each compiler per unit, in turns (default 3)
#   BENCH_VARIANTS  the builds to make (default "gcc kcfi-gcc clang clang-cfi
#                   gcc-cfi-config clang-cfi-config"; a metric whose build
#                   is missing is shown as n/a)
#   BENCH_STEPS     default "build measure summary"; measure writes
#                   $CACHE/measure.env and the unit tables, summary reads them
#   BENCH_KCFI_TREE a kcfi-gcc kernel build whose .cmd files give the units'
#                   command lines (default $CACHE/kcfi-gcc); the units are
#                   compiled with this tree's kcfi-gcc whatever built it
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build=$(cd "${1:-$top}" && pwd) || exit 1
CACHE=${KCFI_BENCH_KERNEL_CACHE:-/var/tmp/kcfi-bench-kernel}
BOOT_CACHE=${KCFI_BOOT_CACHE:-/var/cache/kcfi-boot}
SRC=$BOOT_CACHE/src-cc/linux-source-6.12
JOBS=${BENCH_JOBS:-2}
UNITS=${BENCH_UNITS:-60}
SEED=${BENCH_SEED:-16}
REPS=${BENCH_REPS:-3}
CLANG=${BENCH_CLANG:-clang-19}
VARIANTS=${BENCH_VARIANTS:-"gcc kcfi-gcc clang clang-cfi gcc-cfi-config clang-cfi-config"}
STEPS=${BENCH_STEPS:-"build measure summary"}
KTREE=${BENCH_KCFI_TREE:-$CACHE/kcfi-gcc}
# How the builds were made (part of their cache key): -j and side by side.
BUILD_TAG="-j$JOBS paired=${BENCH_PAIRED:-1}"

# Every line carries the time since the start: the whole run takes hours.
log() { printf 'bench-kernel: [%dm%02ds] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*" >&2; }
die() { log "$*"; exit 1; }

# need_tools: the programs used, or the Debian package that has them.
need_tools() {
	local p missing=()
	local -A pkg=([gcc]=gcc [$CLANG]=$CLANG [make]=make [flex]=flex [bison]=bison
		[bc]=bc [/usr/bin/time]=time [setarch]=util-linux [size]=binutils [as]=binutils [objdump]=binutils [awk]=mawk
		[valgrind]=valgrind [qemu-aarch64]=qemu-user [qemu-riscv64]=qemu-user
		[aarch64-linux-gnu-gcc]=gcc-aarch64-linux-gnu
		[riscv64-linux-gnu-gcc]=gcc-riscv64-linux-gnu)
	for p in "${!pkg[@]}"; do
		command -v "$p" >/dev/null || missing+=("$p (${pkg[$p]})")
	done
	for p in kcfi-gcc kcfi-as bench/cpu-ms prepass/plugins/x86_64-linux-gnu/kcfi.so; do
		[ -e "$build/$p" ] || missing+=("$build/$p (make all bench/cpu-ms)")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "missing: ${missing[*]}; scripts/install-deps.sh --with-boot --with-bench installs the packages"
	return 1
}

# ---- the four kernel builds --------------------------------------------------
# frags VARIANT: the config fragments of VARIANT, as boot-check's small profile.
frags() {
	printf '%s\n' "$SRC/kernel/configs/tiny-base.config" "$SRC/kernel/configs/tiny.config" \
		"$SRC/arch/x86/configs/tiny.config" "$top/boot/config/common.config" \
		"$top/boot/config/x86_64.config"
	case $1 in *cfi*) echo "$top/boot/config/cfi.config" ;; esac
}

# cc_of VARIANT: the CC= of VARIANT's build.
cc_of() {
	case $1 in
	gcc|gcc-same) echo gcc ;;
	kcfi-gcc) echo "$build/kcfi-gcc" ;;
	gcc-cfi-config) echo "$CACHE/bin/gcc-nokcfi" ;;
	clang-cfi-config) echo "$CACHE/bin/$CLANG-nokcfi" ;;
	clang*) echo "$CLANG" ;;
	esac
}

# drop_kcfi_opts ARGS...: sets KEPT to ARGS without -fsanitize=kcfi and its
# sub-options (the kernel adds -fsanitize-cfi-icall-experimental-...).
drop_kcfi_opts() {
	local x
	KEPT=()
	for x; do case $x in -fsanitize=kcfi|-fsanitize-kcfi*|-fsanitize-cfi-*) ;; *) KEPT+=("$x") ;; esac; done
}

# nokcfi_wrapper CC: $CACHE/bin/CC-nokcfi, CC through drop_kcfi_opts, so
# that the CFI config (Kconfig asks the compiler for -fsanitize=kcfi) is
# built with everything it brings except KCFI's code.
nokcfi_wrapper() {
	mkdir -p "$CACHE/bin" &&
	{ echo '#!/bin/bash'; echo "# $1 without the KCFI options (bench/kernel.sh)."
	  declare -f drop_kcfi_opts; echo 'drop_kcfi_opts "$@"'; echo "exec $1 \"\${KEPT[@]}\""; } \
		> "$CACHE/bin/$1-nokcfi.tmp" && chmod +x "$CACHE/bin/$1-nokcfi.tmp" &&
	mv "$CACHE/bin/$1-nokcfi.tmp" "$CACHE/bin/$1-nokcfi"
}

# target_of VARIANT: what its make builds (vmlinux_o makes vmlinux.o), and
# the file that is then there.
target_of() { case $1 in *-cfi-config) echo vmlinux_o ;; *) echo vmlinux ;; esac; }
made_by() { case $1 in *-cfi-config) echo vmlinux.o ;; *) echo vmlinux ;; esac; }

# key VARIANT: what the build depends on; the same key reuses the build.
key() {
	local v=$1 cc
	cc=$(cc_of "$v")
	local base=${cc##*/}
	{ echo "$v $BUILD_TAG"; "${base%-nokcfi}" --version 2>/dev/null | head -1; gcc --version | head -1
	  [ "$v" = kcfi-gcc ] && cat "$build/kcfi-gcc" "$build/kcfi-as" \
		"$build/prepass/plugins/x86_64-linux-gnu/kcfi.so"
	  case $v in *-cfi-config) cat "$cc" ;; esac
	  cat "$BOOT_CACHE/src-cc/stamp"; frags "$v" | xargs cat; } | sha256sum | cut -c1-16
}

# build_kernel VARIANT: configure and build vmlinux in $CACHE/VARIANT, with
# the CPU time (user + sys of make and everything it ran) in cpu.txt.
build_kernel() {
	# One build per variant at a time, also across concurrent runs (the
	# second waits, then finds the first's build in the cache).
	exec {lock}> "$CACHE/$1.lock" && flock "$lock" || return 1
	build_kernel_locked "$1"
	local rc=$?
	exec {lock}>&-
	return $rc
}
build_kernel_locked() {
	local v=$1 O=$CACHE/$1 k cc
	k=$(key "$v")
	if [ -f "$O/$(made_by "$v")" ] && [ "$(cat "$O/bench-key" 2>/dev/null)" = "$k" ]; then
		log "$v: cached build $k"
		return 0
	fi
	cc=$(cc_of "$v")
	rm -rf "$O" && mkdir -p "$O" || return 1
	local -a mk=(make -C "$SRC" O="$O" ARCH=x86_64 -j"$JOBS" CC="$cc")
	frags "$v" | xargs cat > "$O/allconfig.frag"
	(cd "$O" && "${mk[@]}" KCONFIG_ALLCONFIG="$O/allconfig.frag" allnoconfig) \
		> "$O/config.log" 2>&1 || { log "$v: config failed, see $O/config.log"; return 1; }
	case $v in
	*cfi*) grep -qx CONFIG_CFI_CLANG=y "$O/.config" || { log "$v: CONFIG_CFI_CLANG did not stick"; return 1; } ;;
	*) ! grep -q '^CONFIG_CFI_CLANG=y' "$O/.config" || { log "$v: CONFIG_CFI_CLANG is on"; return 1; } ;;
	esac
	log "$v: building $(made_by "$v") (${mk[*]}), log $O/build.log"
	(cd "$O" && /usr/bin/time -f '%U %S %e' -o "$O/cpu.txt" "${mk[@]}" "$(target_of "$v")") \
		> "$O/build.log" 2>&1 || { log "$v: build failed, last lines of $O/build.log:"; tail -n 20 "$O/build.log" >&2; return 1; }
	log "$v: built, user sys wall: $(cat "$O/cpu.txt")"
	echo "$k" > "$O/bench-key"
}

# build_cpu VARIANT: user + sys seconds of VARIANT's whole build.
# (n/a for a build not made; so for the helpers below given n/a.)
built() { [ -f "$CACHE/$1/bench-key" ] && [ "$(cat "$CACHE/$1/bench-key")" = "$(key "$1")" ]; }
build_cpu() { built "$1" && awk '{ printf "%.1f", $1 + $2 }' "$CACHE/$1/cpu.txt" || echo n/a; }
ratio() { case $1$2 in *n/a*|"") echo n/a ;; *) awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }' ;; esac; }
# text VARIANT: the size of .text in vmlinux.o (vmlinux's own .text is
# padded to a 2 MiB boundary here: 4 MiB with and without CFI).
text() { built "$1" && size -A "$CACHE/$1/vmlinux.o" | awk '$1 == ".text" { print $2 }' || echo n/a; }
# text_parts VARIANT: "FUNCS PREAMBLES CHECKS" of VARIANT's vmlinux.o: the
# functions in .text (without the __cfi_ ones), the __cfi_ preambles and
# the checks (.kcfi_traps entries, 4 bytes each), to tell what the growth
# is made of: the -fpatchable-function-entry prefix every function gets
# with FineIBT, the preambles' movl, the checks, and the code around them.
text_parts() {
	built "$1" || { echo "n/a n/a n/a"; return; }
	local o=$CACHE/$1/vmlinux.o ndx f p c
	ndx=$(readelf -SW "$o" | sed -n 's/^ *\[ *\([0-9]*\)\] \.text .*/\1/p')
	read -r f p < <(readelf -sW "$o" | awk -v ndx="$ndx" '
		$4 == "FUNC" && $7 == ndx { if ($8 ~ /^__cfi_/) p++; else f++ }
		END { print f + 0, p + 0 }')
	c=$(size -A "$o" | awk '$1 == ".kcfi_traps" { print $2 / 4 }')
	echo "$f $p ${c:-0}"
}
# r11_moves VARIANT: "CHECKS R11 FIRST FIRST_COPY COPY LOAD" of VARIANT's
# vmlinux.o (bench/r11-checks.awk): the checks, those through %r11, those
# that start with a mov into %r11 and of them the register copies, and
# those whose %r11 was set in their block by a register copy or by a load.
r11_moves() {
	built "$1" && objdump -d -w --no-show-raw-insn "$CACHE/$1/vmlinux.o" | awk -f "$here/r11-checks.awk" ||
		echo "n/a n/a n/a n/a n/a n/a"
}
growth() { case $1$2 in *n/a*) echo n/a ;; *) awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (a - b) * 100 / b }' ;; esac; }

# ---- per-unit measurements ---------------------------------------------------
# unit_cmd VARIANT OBJ: the command line that built OBJ in VARIANT's tree.
unit_cmd() {
	local f cc
	f=$(tree_of "$1")/$(dirname "$2")/.$(basename "$2").cmd
	cc=$(cc_of "$1")
	sed -n "1s|^savedcmd_$2 := [^ ]* |$cc |p" "$f"
}
# tree_of VARIANT: the build dir whose command lines VARIANT's units use.
# Variant gcc-same is plain gcc on kcfi-gcc's lines without the KCFI options
# (argv_of drops them): the unit with the same config and flags, so that
# only KCFI differs.
tree_of() { case $1 in kcfi-gcc|gcc-same) echo "$KTREE" ;; *) echo "$CACHE/$1" ;; esac; }

# units: the C units both gcc and kcfi-gcc compiled (objects with a .c source).
units() {
	(cd "$KTREE" && find . -name '.*.o.cmd' | sed 's|^\./||' | sort) |
	while IFS= read -r f; do
		local base obj
		base=$(basename "$f" .cmd) && obj=$(dirname "$f")/${base#.} && obj=${obj#./}
		[ -f "$CACHE/gcc/$f" ] || continue
		head -1 "$KTREE/$f" | grep -q "kcfi-gcc .* -c -o $obj [^ ]*\.c *\$" && echo "$obj"
	done
}

# sample N: N of the units on stdin, chosen with seed $SEED (all if N is 0).
sample() {
	awk -v n="$1" -v seed="$SEED" 'BEGIN { srand(seed) } { u[NR] = $0 }
		END { if (n == 0 || n >= NR) { for (i = 1; i <= NR; i++) print u[i]; exit }
		      for (i = 1; i <= n; i++) { j = i + int(rand() * (NR - i + 1)); t = u[i]; u[i] = u[j]; u[j] = t; print u[i] } }'
}

# argv_of VARIANT OBJ MODE OUT: sets ARGV to OBJ's command in VARIANT's tree,
# writing OUT instead of OBJ and no dependency file; MODE -c or -S.
argv_of() {
	local cmd
	cmd=$(unit_cmd "$1" "$2") || return 1
	cmd=$(sed -e "s| -Wp,-MMD,[^ ]*||" -e "s| -c -o $2 | $3 -o $4 |" <<< "$cmd")
	eval "ARGV=($cmd)"
	[ "$1" != gcc-same ] || { drop_kcfi_opts "${ARGV[@]}"; ARGV=("${KEPT[@]}"); }
}

# cpu_run VARIANT ARGV...: CPU ms of one run in VARIANT's build dir.
cpu_run() {
	local v=$1; shift
	(cd "$(tree_of "$v")" && "$build/bench/cpu-ms" "$@" 2>&1 >/dev/null | sed -n 's/^cpu-ms: //p')
}

# per_unit: $REPS rounds for each sampled unit; a round compiles it with
# kcfi-gcc, gcc and gcc-same back to back, in an order that rotates from
# round to round.  This VM's speed drifts by tens of percent within minutes,
# so a unit's ratio is the median of its rounds' ratios (the three runs of a
# round see the same machine), not a ratio of minima taken at different
# moments.  Writes "OBJ MIN_KCFI MIN_GCC RATIO MIN_SAME RATIO_SAME" lines
# to $CACHE/units.txt, every run to $CACHE/units-raw.txt.  The first ratio
# is against the build without CFI (what the CFI config changes in the unit
# is in it: FineIBT's padding makes GCC give up IPA-RA, which saves it
# time), the second against gcc with kcfi-gcc's own flags minus KCFI.
per_unit() {
	local obj tmp=$CACHE/tmp i v t
	mkdir -p "$tmp"
	: > "$CACHE/units.txt"
	: > "$CACHE/units-raw.txt"
	while IFS= read -r obj; do
		local -A run=()
		local order=(kcfi-gcc gcc gcc-same) ok=1
		for i in $(seq "$REPS"); do
			for v in "${order[@]}"; do
				argv_of "$v" "$obj" -c "$tmp/$v.o" && t=$(cpu_run "$v" "${ARGV[@]}")
				[ -n "$t" ] || ok=
				run[$v]=$t
			done
			echo "$obj $i ${run[kcfi-gcc]} ${run[gcc]} ${run[gcc-same]}" >> "$CACHE/units-raw.txt"
			order=("${order[@]:1}" "${order[0]}")
		done
		[ -n "$ok" ] || { log "unit $obj: no time (failed?)"; continue; }
		awk -v o="$obj" '$1 == o { k[NR] = $3; g[NR] = $4; s[NR] = $5; n++
				rg[n] = $3 / $4; rs[n] = $3 / $5 }
			function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
				return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
			function least(a,   i, m) { for (i in a) if (m == "" || a[i] + 0 < m + 0) m = a[i]; return m }
			END { printf "%s %s %s %.3f %s %.3f\n", o, least(k), least(g), med(rg, n), least(s), med(rs, n) }' \
			"$CACHE/units-raw.txt" >> "$CACHE/units.txt"
	done
}

# quantiles: "P90 MEDIAN WORST" of the numbers on stdin.
quantiles() {
	sort -g | awk '{ v[NR] = $1 } END { i = int(NR * 0.9 + 0.999); if (i < 1) i = 1
		printf "%.3f %.3f %.3f\n", v[i], v[int((NR + 1) / 2)], v[NR] }'
}

# as_argv VARIANT: the assembler options VARIANT's driver gives `as`
# (from -###), without the input and output; sets ASARGV.
as_argv() {
	local cc
	cc=$(cc_of "$1")
	local line flags=
	[ "$1" = kcfi-gcc ] && flags=-fsanitize=kcfi
	line=$(cd "$CACHE/tmp" && echo 'int x;' > as.c && "$cc" $flags -c as.c -o as.o -### 2>&1 |
		grep -E '^ "?[^ ]*/?(kcfi-)?as"? ' | tail -1)
	eval "ASARGV=($line)"
	local a out=()
	for a in "${ASARGV[@]:1}"; do
		case $a in -o|*.s|*.o) ;; *) out+=("$a") ;; esac
	done
	ASARGV=("${out[@]}")
}

# least N...: the least of the numbers.
least() { printf '%s\n' "$@" | sort -g | head -1; }

# split OBJ: where kcfi-gcc's extra time goes for OBJ, CPU ms (min of
# $REPS): cc1 with the plugin minus cc1 without (both -S), kcfi-as's rewrite
# alone (--kcfi-no-assemble), gas on the rewritten assembly minus gas on
# gcc's.  Prints "CC1 REWRITE GAS".
split() {
	local obj=$1 tmp=$CACHE/tmp
	local -a c1 c0 rw g1 g0
	argv_of kcfi-gcc "$obj" -S "$tmp/k.s" && local -a ks=("${ARGV[@]}")
	argv_of gcc "$obj" -S "$tmp/g.s" && local -a gs=("${ARGV[@]}")
	for _ in $(seq "$REPS"); do
		c1+=("$(cpu_run kcfi-gcc "${ks[@]}")") c0+=("$(cpu_run gcc "${gs[@]}")")
		rw+=("$(cpu_run kcfi-gcc "$build/kcfi-as" "${KASARGV[@]}" --kcfi-no-assemble \
			--kcfi-save="$tmp/r.s" -o "$tmp/r.o" "$tmp/k.s")")
		g1+=("$(cpu_run kcfi-gcc as "${GASARGV[@]}" -o "$tmp/r.o" "$tmp/r.s")")
		g0+=("$(cpu_run gcc as "${GASARGV[@]}" -o "$tmp/g.o" "$tmp/g.s")")
	done
	awk -v c1="$(least "${c1[@]}")" -v c0="$(least "${c0[@]}")" -v rw="$(least "${rw[@]}")" \
		-v g1="$(least "${g1[@]}")" -v g0="$(least "${g0[@]}")" \
		'BEGIN { printf "%.1f %.1f %.1f\n", c1 - c0, rw, g1 - g0 }'
}

# peak_rss: the largest unit's annotated assembly (by its kcfi-gcc object
# size), through kcfi-as and through gas alone (on what kcfi-as hands gas);
# max RSS in KiB, the least of $REPS.  /usr/bin/time reports the largest of
# kcfi-as and the gas it runs (wait4 counts reaped children), so the
# rewrite alone (--kcfi-no-assemble) is measured too.  Sets RSS_UNIT
# RSS_KCFI RSS_GAS RSS_REWRITE.
peak_rss() {
	local tmp=$CACHE/tmp obj k=() g=() w=()
	obj=$(cd "$KTREE" && units_all | while IFS= read -r o; do
		echo "$(stat -c %s "$o") $o"; done | sort -n | tail -1 | cut -d' ' -f2)
	RSS_UNIT=$obj
	argv_of kcfi-gcc "$obj" -S "$tmp/big.s" && (cd "$KTREE" && "${ARGV[@]}") || return 1
	"$build/kcfi-as" "${KASARGV[@]}" --kcfi-no-assemble --kcfi-save="$tmp/big-r.s" \
		-o "$tmp/big.o" "$tmp/big.s" || return 1
	# Without address-space randomization: with it, gas's peak on one input
	# moves by up to 200 KB from run to run, more than is compared.
	local norand=(setarch "$(uname -m)" -R)
	for _ in $(seq "$REPS"); do
		k+=("$("${norand[@]}" /usr/bin/time -f %M "$build/kcfi-as" "${KASARGV[@]}" -o "$tmp/big.o" "$tmp/big.s" 2>&1 | tail -1)")
		g+=("$("${norand[@]}" /usr/bin/time -f %M as "${GASARGV[@]}" -o "$tmp/big.o" "$tmp/big-r.s" 2>&1 | tail -1)")
		w+=("$("${norand[@]}" /usr/bin/time -f %M "$build/kcfi-as" "${KASARGV[@]}" --kcfi-no-assemble \
			--kcfi-save="$tmp/big-w.s" -o "$tmp/big.o" "$tmp/big.s" 2>&1 | tail -1)")
	done
	RSS_REWRITE=$(printf '%s\n' "${w[@]}" | sort -n | head -1)
	RSS_KCFI=$(printf '%s\n' "${k[@]}" | sort -n | head -1)
	RSS_GAS=$(printf '%s\n' "${g[@]}" | sort -n | head -1)
}
units_all() { [ -f "$CACHE/units-all.txt" ] && cat "$CACHE/units-all.txt"; }

# ---- main ---------------------------------------------------------------------
need_tools || exit 1
[ -f "$SRC/Makefile" ] && [ -f "$BOOT_CACHE/src-cc/stamp" ] ||
	die "no patched Linux tree at $SRC: run BOOT_ARCHES=x86_64 make boot-check once (it extracts and patches linux-source-6.12)"
mkdir -p "$CACHE/tmp" || die "cannot write $CACHE"
nokcfi_wrapper gcc && nokcfi_wrapper "$CLANG" || die "cannot write $CACHE/bin"
step() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }

# Whole-build CPU ratios need both builds of a ratio to run under the same
# load: on this shared 2-core machine a build made alone and one made beside
# another job differ by more than the effect measured.  So each pair (gcc
# with kcfi-gcc, clang with clang-cfi) is built at the same time, each with
# half the jobs: every moment of one build has the other beside it.
pair_of() { case $1 in gcc) echo kcfi-gcc ;; clang) echo clang-cfi ;; gcc-cfi-config) echo clang-cfi-config ;; esac; }
if step build; then
	done_v=" "
	for v in $VARIANTS; do
		case $done_v in *" $v "*) continue ;; esac
		p=$(pair_of "$v")
		case " $VARIANTS " in *" $p "*) ;; *) p= ;; esac
		if [ -n "$p" ] && [ "${BENCH_PAIRED:-1}" = 1 ] && ! { built "$v" && built "$p"; }; then
			# Both again, even if one is cached: a ratio of builds
			# made at different times is what pairing avoids.
			rm -f "$CACHE/$v/bench-key" "$CACHE/$p/bench-key"
			half=$(( JOBS > 1 ? JOBS / 2 : 1 ))
			log "building $v and $p side by side, make -j$half each"
			JOBS=$half build_kernel "$v" & pv=$!
			JOBS=$half build_kernel "$p" & pp=$!
			wait "$pv" || die "$v: kernel build failed"
			wait "$pp" || die "$p: kernel build failed"
			done_v="$done_v$v $p "
		else
			build_kernel "$v" || die "$v: kernel build failed"
			done_v="$done_v$v "
		fi
	done
fi

if step measure; then
	[ -f "$CACHE/gcc/bench-key" ] && [ -d "$KTREE" ] || die "measure: needs the gcc build and $KTREE"
	units > "$CACHE/units-all.txt"
	nunits=$(wc -l < "$CACHE/units-all.txt")
	[ "$nunits" -gt 0 ] || die "no C units found in $KTREE"
	sample "$UNITS" < "$CACHE/units-all.txt" > "$CACHE/sample.txt"
	nsample=$(wc -l < "$CACHE/sample.txt")
	log "per-unit: $nsample of $nunits units (seed $SEED), $REPS rounds of kcfi-gcc, gcc and gcc-same"
	per_unit < "$CACHE/sample.txt"
	read -r P90 MED WORST < <(awk '{ print $4 }' "$CACHE/units.txt" | quantiles)
	read -r P90S MEDS WORSTS < <(awk '{ print $6 }' "$CACHE/units.txt" | quantiles)

	as_argv kcfi-gcc; KASARGV=("${ASARGV[@]}")
	as_argv gcc; GASARGV=("${ASARGV[@]}")
	log "peak RSS on the largest unit"
	peak_rss || log "peak RSS: failed"

	log "the ten units kcfi-gcc costs most over gcc: cc1, kcfi-as, gas"
	awk '{ print $2 - $3, $1, $2, $3 }' "$CACHE/units.txt" | sort -gr | head -10 > "$CACHE/top10.txt"
	: > "$CACHE/split.txt"
	while read -r d obj a b; do
		echo "$obj $d $a $b $(split "$obj")" >> "$CACHE/split.txt"
	done < "$CACHE/top10.txt"

	log "per-call cost (bench/indirect-call.sh)"
	bash "$here/indirect-call.sh" "$build" > "$CACHE/calls.txt" || log "indirect-call.sh failed"
	declare -p nunits nsample P90 MED WORST P90S MEDS WORSTS RSS_UNIT RSS_KCFI RSS_GAS RSS_REWRITE KTREE SEED REPS \
		> "$CACHE/measure.env"
fi

step summary || exit 0
[ -f "$CACHE/measure.env" ] || die "summary: no $CACHE/measure.env (BENCH_STEPS=measure first)"
. "$CACHE/measure.env"
CALL_OURS=$(awk '$1 == "x86_64" { print $3 }' "$CACHE/calls.txt")
CALL_CLANG=$(awk '$1 == "x86_64" { print $4 }' "$CACHE/calls.txt")
G=$(build_cpu gcc) K=$(build_cpu kcfi-gcc) C=$(build_cpu clang) CC=$(build_cpu clang-cfi)
R1=$(ratio "$K" "$G") R2=$(ratio "$CC" "$G") RC=$(ratio "$CC" "$C")
TG=$(text gcc) TK=$(text kcfi-gcc) TC=$(text clang) TCC=$(text clang-cfi)
G1=$(growth "$TK" "$TG") G2=$(growth "$TCC" "$TC")
# The growth in two parts, both in % of the build without CFI: the CFI
# config compiled without KCFI's code, then KCFI's code (preambles, checks).
TGX=$(text gcc-cfi-config) TCX=$(text clang-cfi-config)
part() { case $1$2$3 in *n/a*) echo n/a ;; *) awk -v a="$1" -v b="$2" -v c="$3" 'BEGIN { printf "%.2f", (a - b) * 100 / c }' ;; esac; }
GC1=$(part "$TGX" "$TG" "$TG") GK1=$(part "$TK" "$TGX" "$TG")
GC2=$(part "$TCX" "$TC" "$TC") GK2=$(part "$TCC" "$TCX" "$TC")
RSSR=$(ratio "${RSS_KCFI:-n/a}" "${RSS_GAS:-n/a}")
RSSW=$(ratio "${RSS_REWRITE:-n/a}" "${RSS_GAS:-n/a}")

# verdict EXPR: holds/FAILS, or n/a when a number is missing.
verdict() { case $1 in *n/a*) echo n/a ;; *) awk "BEGIN { exit !($1) }" && echo holds || echo FAILS ;; esac; }
echo
echo "Whole builds (vmlinux, small x86_64 profile, $BUILD_TAG), CPU s user+sys, one build each:"
printf '  gcc %s  kcfi-gcc %s  clang-19 %s  clang-19 kcfi %s\n' "$G" "$K" "$C" "$CC"
echo "Per-unit ratios kcfi-gcc/gcc and kcfi-gcc/gcc-same ($nsample of $nunits units, seed $SEED, median over $REPS rounds;" \
	"kcfi-gcc's command lines from $KTREE): $CACHE/units.txt"
echo ".text bytes (vmlinux.o): gcc $TG  kcfi-gcc $TK  clang $TC  clang-cfi $TCC"
read -r FG _ _ < <(text_parts gcc); read -r FK PK CK < <(text_parts kcfi-gcc)
read -r FC _ _ < <(text_parts clang); read -r FCC PCC CCC < <(text_parts clang-cfi)
bytes() { case $1$2 in *n/a*) echo n/a ;; *) echo $(( $1 - $2 )) ;; esac; }
echo ".text growth in bytes, what it is made of (functions without/with CFI, preambles, checks):"
echo "  ours  $(bytes "$TK" "$TG") (functions $FG/$FK, preambles $PK, checks $CK)"
echo "  clang $(bytes "$TCC" "$TC") (functions $FC/$FCC, preambles $PCC, checks $CCC)"
echo ".text growth in two parts (% of the build without CFI): the CFI config built without"
echo "-fsanitize=kcfi (FineIBT's function padding and alignment, the config's code, and what"
echo "the padding does to the compiler: GCC gives up IPA-RA), then KCFI's own code on top:"
echo "  ours  config $(bytes "$TGX" "$TG") B ($GC1%), KCFI code $(bytes "$TK" "$TGX") B ($GK1%)"
echo "  clang config $(bytes "$TCX" "$TC") B ($GC2%), KCFI code $(bytes "$TCC" "$TCX") B ($GK2%)"
read -r NK RK FK1 MK1 CPK LK < <(r11_moves kcfi-gcc)
read -r NC RC1 FC1 MC1 CPC LC < <(r11_moves clang-cfi)
echo "Checks through %r11 and how the target got there (vmlinux.o; the check's own first"
echo "instruction, or the last write of %r11 in its block: a register copy, a load):"
echo "  ours  $NK checks, $RK through %r11: $FK1 start with a mov to %r11 ($MK1 copies); in the block copies $CPK, loads $LK"
echo "  clang $NC checks, $RC1 through %r11: $FC1 start with a mov to %r11 ($MC1 copies); in the block copies $CPC, loads $LC"
echo "Peak RSS on $RSS_UNIT (annotated .s $(stat -c %s "$CACHE/tmp/big.s" 2>/dev/null) bytes, min of $REPS):" \
	"kcfi-as with its gas $RSS_KCFI KiB, its rewrite alone $RSS_REWRITE KiB, gas alone $RSS_GAS KiB"
echo "Ten dearest units (CPU ms, min of $REPS; extra = kcfi-gcc - gcc; cc1 = kcfi-gcc -S - gcc -S;"
echo "rewrite = kcfi-as --kcfi-no-assemble; gas = gas on kcfi-as's output - gas on gcc's .s):"
printf '  %-40s %8s %8s %8s %8s %8s %8s\n' unit extra kcfi-gcc gcc cc1 rewrite gas
while read -r obj d a b c1 rw g; do
	printf '  %-40s %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f\n' "$obj" "$d" "$a" "$b" "$c1" "$rw" "$g"
done < "$CACHE/split.txt"
echo "Instructions of one loop iteration (a call through a pointer); checked minus unchecked, ours and clang-19's:"
sed 's/^/  /' "$CACHE/calls.txt"
echo
printf '%-46s %-16s %-10s %s\n' metric measured goal verdict
# CPU time swings 20-30 % between identical compiles on this VM, more than
# the cost measured: the compile-cost goals are judged on instruction
# counts (make bench-units, total <= 1.01, p90 <= 1.03); CPU is reported.
printf '%-46s %-16s %-10s %s\n' "build CPU kcfi-gcc/gcc" "$R1" "-" "reported; goal: make bench-units"
printf '%-46s %-16s %-10s %s\n' "per-unit CPU kcfi-gcc/gcc p90 (median, worst)" "$P90 ($MED, $WORST)" "-" "reported; goal: make bench-units"
printf '%-46s %-16s %-10s %s\n' "  the same, gcc with kcfi-gcc's flags" "${P90S:-n/a} (${MEDS:-n/a}, ${WORSTS:-n/a})" "-" "-"
printf '%-46s %-16s %-10s %s\n' "build CPU clang-cfi/clang-nocfi, ours beside" "$RC vs $R1" "-" "-"
printf '%-46s %-16s %-10s %s\n' "build CPU clang-cfi/gcc" "$R2" "-" "-"
# The goals are in bytes (doc/performance.md): KCFI's own code at the same
# configuration, and the finished kernel.  The growth in % is reported: the
# configuration's part of it is the compiler's, and the two compilers'
# bases differ.
KB1=$(bytes "$TK" "$TGX") KB2=$(bytes "$TCC" "$TCX")
printf '%-46s %-16s %-10s %s\n' "KCFI's own bytes, same config, ours vs clang" "$KB1 vs $KB2" "ours <=" "$(verdict "$KB1 <= $KB2")"
printf '%-46s %-16s %-10s %s\n' "CFI kernel .text bytes ours vs clang" "$TK vs $TCC" "ours <=" "$(verdict "$TK <= $TCC")"
printf '%-46s %-16s %-10s %s\n' ".text growth ours vs clang (config + KCFI)" "$G1% vs $G2%" "-" "-"
printf '%-46s %-16s %-10s %s\n' "  of it KCFI's own code" "$GK1% vs $GK2%" "-" "-"
printf '%-46s %-16s %-10s %s\n' "checked-call instructions ours vs clang" "$CALL_OURS vs $CALL_CLANG" "ours <=" "$(verdict "${CALL_OURS:-n/a} <= ${CALL_CLANG:-n/a}")"
printf '%-46s %-16s %-10s %s\n' "checks starting with a mov to %r11 ours vs clang" "$FK1 vs $FC1" "ours <=" "$(verdict "${FK1:-n/a} <= ${FC1:-n/a}")"
printf '%-46s %-16s %-10s %s\n' "  register copies into %r11 before a check" "$CPK vs $CPC" "ours <=" "$(verdict "${CPK:-n/a} <= ${CPC:-n/a}")"
printf '%-46s %-16s %-10s %s\n' "kcfi-as peak RSS / gas (with its gas)" "${RSSR}x" "<= 1.0x" "$(verdict "$RSSR <= 1.0")"
printf '%-46s %-16s %-10s %s\n' "kcfi-as rewrite alone peak RSS / gas" "${RSSW}x" "-" "-"
echo
echo "kernel: cpu kcfi-gcc/gcc $R1, clang-cfi/gcc $R2; text growth ours $G1%, clang $G2%;" \
	"KCFI bytes ours $(bytes "$TK" "$TGX"), clang $(bytes "$TCC" "$TCX"); call instr ours $CALL_OURS, clang $CALL_CLANG;" \
	"checks starting with a mov to %r11 ours $FK1/$NK ($MK1 copies), clang $FC1/$NC ($MC1 copies)"
