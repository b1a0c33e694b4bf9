#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run-time cost of KCFI in a booted kernel, in instructions (issue 44 item 1,
# doc/performance.md "Run time in the kernel").  Four kernels of one
# configuration, the boot matrix's small x86_64 profile plus
# bench/runtime/kernel.config: gcc, kcfi-gcc (CONFIG_CFI_CLANG), clang-19 and
# clang-19 with CONFIG_CFI_CLANG.  Each boots under QEMU (TCG, one vCPU,
# -icount, fixed -seed and RTC) with our TCG plugin (bench/runtime/kinsn.c,
# built against qemu-plugin.h from Debian's qemu source package), which
# counts the instructions executed at kernel addresses and the executions of
# the check sequences kcfi-audit locates in that vmlinux.  The guest
# (bench/runtime/guest.c as /init) runs each workload of
# bench/runtime/workloads with N and with 2N operations and executes a
# marker instruction before and after each; the plugin logs its counters at
# every marker.  A workload's cost is (2N run) - (N run): the work of N
# operations, whatever the start-up costs.  A second boot of the first
# kernel, its initramfs's files stamped with another time, must give
# identical counts, or the run fails (boot_one says why that matters).  The plugin also logs each
# check site's count at every marker: bench/runtime/hot.awk names the
# functions whose checks run most in each workload.  It counts each
# function's instructions too (bench/runtime/funcs.sh lists them):
# bench/runtime/funcs.awk gives them per operation and excess.awk the
# functions where a CFI kernel executes more than its base beyond its
# checks ($OUT/VARIANT/excess).
#
# Usage: bench/runtime.sh [KCFI_BUILDDIR]   (normally `make bench-runtime`)
# Environment:
#   BENCH_STEPS     default "build plugin run summary"
#   BENCH_VARIANTS  default "gcc kcfi-gcc clang clang-cfi"
#   BENCH_CLANG     default clang-19
#   BENCH_JOBS      make -j of the kernel builds (default 2)
#   BENCH_RERUN     1 (default): boot the first variant twice and compare
#   BENCH_BOOTS     boots per kernel, each with another perturb= on the
#                   command line; the table gives their mean (default 3)
#   BENCH_WORKLOADS only these workloads of bench/runtime/workloads
#                   (names, space-separated; default all)
#   BENCH_ASIDE     workloads shown in the tables but left out of the
#                   runtime: line (default module-unstripped: the module
#                   as built, where the geomean has it as installed)
#   KCFI_BOOT_CACHE the boot matrix's cache (/var/cache/kcfi-boot): the
#                   patched tree src-cc, gen_init_cpio; the builds go to its
#                   build-bench-runtime/ and the results to runtime-out/
#   BENCH_OUT       the results' directory instead of runtime-out/
#   BENCH_BUILDS    the kernels' directory instead of build-bench-runtime/
# Prints one table per workload (the mean of the boots, and their spread),
# the spread: line (each kernel's largest spread) and last the line
#   runtime: kernel instructions kcfi-gcc/gcc geomean G, worst W (workload);
#   clang-cfi/clang geomean G2, worst W2 (workload); checks per op ours C, clang C2
set -u
bdir=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$bdir/.." && pwd)
KCFI_BUILDDIR=$(cd "${1:-$top}" && pwd) || exit 1
STEPS=${BENCH_STEPS:-"build plugin run summary"}
VARIANTS=${BENCH_VARIANTS:-"gcc kcfi-gcc clang clang-cfi"}
CLANG=${BENCH_CLANG:-clang-19}
JOBS=${BENCH_JOBS:-2}
RERUN=${BENCH_RERUN:-1}
BOOTS=${BENCH_BOOTS:-3}
WORKLOADS=${BENCH_WORKLOADS:-}
ASIDE=${BENCH_ASIDE-module-unstripped}
BOOT_KERNEL=6.12 KSFX= BOOT_CONFIG=small
here=$top/boot		# boot/lib.sh's patches and fragments are relative to it
log() { printf 'bench-runtime: [%s] %s\n' "$(elapsed)" "$*" >&2; }
. "$top/boot/lib.sh"
boot_cache || exit 1
BUILDS=${BENCH_BUILDS:-$CACHE/build-bench-runtime}
OUT=${BENCH_OUT:-$CACHE/runtime-out}
mkdir -p "$BUILDS" "$OUT" || exit 1
arch_vars x86_64 || exit 1

# ---- kernels ----------------------------------------------------------------
# compiler VARIANT: the CC of its build.
compiler() {
	case $1 in
	gcc) echo gcc ;;
	kcfi-gcc) echo "$KCFI_BUILDDIR/kcfi-gcc" ;;
	clang|clang-cfi) echo "$CLANG" ;;
	*) return 1 ;;
	esac
}

# build_kernel VARIANT: $BUILDS/VARIANT/images/{bzImage,vmlinux,config,
# bench.ko}, reused while the key (fragments, tree, compiler, tools) holds.
build_kernel() {
	local v=$1 cc O=$BUILDS/$1 frags key tools=
	cc=$(compiler "$v") || { log "unknown variant $v"; return 1; }
	frags=("$SRC/kernel/configs/tiny-base.config" "$SRC/kernel/configs/tiny.config"
		"$SRC/$ARCH_TINY" "$here/config/common.config" "$here/config/x86_64.config"
		"$bdir/runtime/kernel.config")
	case $v in *cfi*) frags+=("$here/config/cfi.config") ;; esac
	[ "$v" = kcfi-gcc ] && tools=$(tool_id "$TRIPLE")
	# One build identity for all four: the version string (build time,
	# user, host, build count) is mixed into the random pool at boot
	# (random_init_early), and what the kernel draws from that pool moves
	# the counts (doc/performance.md "Same kernel, other counts").
	local -a mk=(make -C "$SRC" O="$O" ARCH=x86_64 -j"$JOBS" CC="$cc"
		KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026" KBUILD_BUILD_VERSION=1
		KBUILD_BUILD_USER=bench KBUILD_BUILD_HOST=bench)
	key=$( { cat "${frags[@]}" "$CACHE/src-cc/stamp" "$bdir"/runtime/module/*; echo "$tools";
		 $([ "$v" = kcfi-gcc ] && echo gcc || echo "$cc") --version | head -1
		 printf '%s\n' "${mk[@]}"; } | sha256sum | cut -c1-16)
	if [ -f "$O/images/vmlinux" ] && [ "$(cat "$O/images/key" 2>/dev/null)" = "$key" ]; then
		log "$v: cached build $key"
		return 0
	fi
	rm -rf "$O" && mkdir -p "$O" || return 1
	cat "${frags[@]}" > "$O/allconfig.frag"
	log "$v: configuring (${mk[*]})"
	(cd "$O" && "${mk[@]}" KCONFIG_ALLCONFIG="$O/allconfig.frag" allnoconfig) \
		> "$O/config.log" 2>&1 || { log "$v: config failed, see $O/config.log"; return 1; }
	# FineIBT depends on CONFIG_CFI_CLANG: the kernels without CFI lack it.
	local want=("$here/config/common.config" "$bdir/runtime/kernel.config")
	case $v in
	*cfi*) want+=("$here/config/x86_64.config" "$here/config/cfi.config") ;;
	*) grep -v '^CONFIG_FINEIBT=' "$here/config/x86_64.config" > "$O/want-x86_64.config"
	   want+=("$O/want-x86_64.config") ;;
	esac
	check_config "$O/.config" "${want[@]}" || { log "$v: the fragments did not survive Kconfig"; return 1; }
	log "$v: building"
	local t0=$SECONDS
	(cd "$O" && "${mk[@]}" bzImage modules_prepare) > "$O/build.log" 2>&1 ||
		{ log "$v: build failed, last lines of $O/build.log:"; tail -n 25 "$O/build.log" >&2; return 1; }
	[ -f "$O/Module.symvers" ] || cp "$O/vmlinux.symvers" "$O/Module.symvers" || return 1
	rm -rf "$O/bench-module" && mkdir -p "$O/bench-module" &&
		cp "$bdir"/runtime/module/* "$O/bench-module/" || return 1
	(cd "$O" && "${mk[@]}" M="$O/bench-module" modules) > "$O/module.log" 2>&1 ||
		{ log "$v: module build failed:"; tail -n 25 "$O/module.log" >&2; return 1; }
	log "$v: built in $((SECONDS - t0)) s"
	mkdir -p "$O/images" && cp "$O/$ARCH_IMAGE" "$O/images/bzImage" && cp "$O/vmlinux" "$O/images/vmlinux" &&
		cp "$O/.config" "$O/images/config" && cp "$O/bench-module/kcfi_bench.ko" "$O/images/" &&
		echo "$key" > "$O/images/key"
}

# ---- the plugin -------------------------------------------------------------
# qemu_header: the directory holding qemu-plugin.h of the installed
# qemu-system-x86's source package (apt-get source, needs a deb-src entry;
# scripts/install-deps.sh --with-bench-runtime adds one).
qemu_header() {
	local ver dir
	ver=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null) ||
		{ log "qemu-system-x86 is not installed"; return 1; }
	dir=$CACHE/qemu-plugin-h/$ver
	if [ ! -f "$dir/qemu-plugin.h" ]; then
		log "fetching qemu's source package $ver for qemu-plugin.h"
		local tmp
		tmp=$(mktemp -d) || return 1
		(cd "$tmp" && apt-get source --download-only "qemu=$ver" > get.log 2>&1) ||
			{ log "apt-get source qemu=$ver failed (is there a deb-src entry?):"; tail -n 5 "$tmp/get.log" >&2; rm -rf "$tmp"; return 1; }
		local orig
		orig=$(ls "$tmp"/qemu_*.orig.tar.* 2>/dev/null | head -1)
		mkdir -p "$dir" && tar -xf "$orig" -C "$tmp" --wildcards '*/include/qemu/qemu-plugin.h' &&
			cp "$tmp"/*/include/qemu/qemu-plugin.h "$dir/" || { log "no qemu-plugin.h in $orig"; rm -rf "$tmp"; return 1; }
		rm -rf "$tmp"
	fi
	echo "$dir"
}

build_plugin() {
	local inc
	inc=$(qemu_header) || return 1
	mkdir -p "$OUT/bin"
	gcc -O2 -Wall -shared -fPIC -I"$inc" \
		-o "$OUT/bin/kinsn.so" "$bdir/runtime/kinsn.c" || return 1
	gcc -O2 -Wall -static -o "$OUT/bin/guest" "$bdir/runtime/guest.c" || return 1
}

# ---- the guest --------------------------------------------------------------
# initramfs VARIANT: the cpio: our guest as /init, stress-ng with its
# libraries, the workloads and this kernel's module twice: as installed
# (/kcfi_bench.ko, stripped of debugging sections as `make modules_install
# INSTALL_MOD_STRIP=1`, DKMS and distributions' kernel packages do; one
# strip for the four, as kbuild's $(STRIP) is binutils' without LLVM=1)
# and as built (/kcfi_bench-unstripped.ko).
make_initramfs() {
	local v=$1 list=$OUT/$1/list lib
	local sng
	sng=$(command -v stress-ng) || { log "stress-ng is not installed (apt-get install stress-ng)"; return 1; }
	mkdir -p "$OUT/$v"
	strip --strip-debug -o "$OUT/$v/kcfi_bench.ko" "$BUILDS/$v/images/kcfi_bench.ko" ||
		{ log "$v: strip --strip-debug failed"; return 1; }
	awk -v only="$WORKLOADS" -f "$bdir/runtime/select.awk" "$bdir/runtime/workloads" > "$OUT/workloads" ||
		return 1
	{
		echo "dir /dev 0755 0 0"
		echo "nod /dev/console 0600 0 0 c 5 1"
		echo "nod /dev/null 0666 0 0 c 1 3"
		echo "nod /dev/zero 0666 0 0 c 1 5"
		for d in /proc /sys /tmp /bin /lib /lib64 /lib/x86_64-linux-gnu /etc; do echo "dir $d 0755 0 0"; done
		echo "file /init $OUT/bin/guest 0755 0 0"
		echo "file /bin/stress-ng $sng 0755 0 0"
		echo "file /workloads $OUT/workloads 0644 0 0"
		echo "file /kcfi_bench.ko $OUT/$v/kcfi_bench.ko 0644 0 0"
		echo "file /kcfi_bench-unstripped.ko $BUILDS/$v/images/kcfi_bench.ko 0644 0 0"
		echo "file /etc/passwd $OUT/bin/passwd 0644 0 0"
		ldd "$sng" | awk '/=>/ { print $3 } /^[ \t]*\/lib/ { print $1 }' | sort -u |
			while read -r lib; do
				[ -f "$lib" ] || continue
				# the path the loader asks for, and the file behind a link
				echo "file $lib $(readlink -f "$lib") 0755 0 0"
			done
	} > "$list"
	echo "root:x:0:0:root:/:/bin/sh" > "$OUT/bin/passwd"
	# Fixed file times: a file's time alone changed the counts (below, boot_one).
	"$CACHE/tools/gen_init_cpio" -t 1767225600 "$list" > "$OUT/$v/initramfs.cpio" &&
		"$CACHE/tools/gen_init_cpio" -t 1767312000 "$list" > "$OUT/$v/initramfs-b.cpio"
}

# check_sites VARIANT: the address of every check sequence kcfi-audit finds
# in the variant's vmlinux, one hex number a line (empty without CFI).
check_sites() {
	local v=$1 vm=$BUILDS/$1/images/vmlinux
	: > "$OUT/$v/sites"
	case $v in *cfi*) ;; *) return 0 ;; esac
	"$KCFI_BUILDDIR/kcfi-audit" --targets --csv="$OUT/$v/sites.csv" "$vm" > "$OUT/$v/audit.txt" 2>&1
	[ -s "$OUT/$v/sites.csv" ] || { log "$v: kcfi-audit wrote no call sites (see $OUT/$v/audit.txt)"; return 1; }
	bash "$bdir/runtime/sites.sh" "$vm" "$OUT/$v/sites.csv" > "$OUT/$v/sites" || return 1
	[ -s "$OUT/$v/sites" ] || { log "$v: no check addresses"; return 1; }
}

# boot VARIANT TAG PERTURB: one boot with the plugin; $OUT/VARIANT/marks-TAG.  TCG
# with -icount and sleep=off runs the same instructions for the same inputs.
# But the inputs reach far: with user address-space randomization, changing
# only the time stamp of one file in the initramfs moved a workload's kernel
# instructions by up to 3% (the random layout each process gets).
# norandmaps removes that; the second boot (TAG b) uses an initramfs whose
# files carry another time and must give the same counts.
# PERTURB goes on the command line as kcfi_perturb.n=PERTURB, a module
# parameter nothing reads: only its value differs between the boots of one
# kernel, and that is enough to draw another random pool and layout.
boot_one() {
	local v=$1 tag=$2 p=$3 d=$OUT/$1 cpio=$OUT/$1/initramfs.cpio
	[ "$tag" = b ] && cpio=$OUT/$1/initramfs-b.cpio
	rm -f "$d/marks-$tag" "$d/console-$tag.log"
	timeout "${BENCH_TIMEOUT:-3600}" qemu-system-x86_64 -M pc -cpu qemu64 -smp 1 -m 512 \
		-accel tcg -icount shift=3,sleep=off,align=off -seed 1 -rtc base=2026-01-01T00:00:00,clock=vm \
		-display none -monitor none -serial "file:$d/console-$tag.log" -no-reboot \
		-plugin "$OUT/bin/kinsn.so,out=$d/marks-$tag,sites=$d/sites,funcs=$d/funcs" \
		-kernel "$BUILDS/$v/images/bzImage" -initrd "$cpio" \
		-append "console=ttyS0 panic=-1 nokaslr norandmaps kunit.enable=0 quiet kcfi_perturb.n=$p" > "$d/qemu-$tag.log" 2>&1
	tr -d '\r' < "$d/console-$tag.log" > "$d/console-$tag.tmp" && mv "$d/console-$tag.tmp" "$d/console-$tag.log"
	grep -q '^bench-guest: done' "$d/console-$tag.log" ||
		{ log "$v: the guest did not finish, see $d/console-$tag.log"; tail -n 15 "$d/console-$tag.log" >&2; return 1; }
	# A stressor stress-ng skips or fails exits 0 in some versions: a run
	# that did no work must not count as one.
	if grep -E 'skipping the stressor|No stress workers|stress-ng: (error|fail)' "$d/console-$tag.log" >&2; then
		log "$v: stress-ng did not run every stressor, see $d/console-$tag.log"
		return 1
	fi
}

# results VARIANT TAG: "workload ops kernel user checks" of N operations each
# ((2N run) - (N run)), from the console's workload lines and the marks.
results() {
	local d=$OUT/$1
	awk -f "$bdir/runtime/results.awk" "$d/marks-$2" "$d/console-$2.log"
}

run_all() {
	local v first=
	for v in $VARIANTS; do
		[ -f "$BUILDS/$v/images/vmlinux" ] || { log "$v: no kernel"; return 1; }
		make_initramfs "$v" && check_sites "$v" || return 1
		sh "$bdir/runtime/funcs.sh" "$BUILDS/$v/images/vmlinux" > "$OUT/$v/funcs" || return 1
		log "$v: booting ($(wc -l < "$OUT/$v/sites") check sites)"
		local t0=$SECONDS
		boot_one "$v" a 1 || return 1
		log "$v: ran in $((SECONDS - t0)) s"
		results "$v" a > "$OUT/$v/results-a" || return 1
		awk -f "$bdir/runtime/marks.awk" -f "$bdir/runtime/funcs.awk" "$OUT/$v/marks-a" \
			"$OUT/$v/console-a.log" | sort > "$OUT/$v/funcs-per-op" || return 1
		if [ -s "$OUT/$v/sites" ]; then
			# every function with checks, most first; the summary's hot list is the top 6
			awk -v top=1000000 -f "$bdir/runtime/marks.awk" -f "$bdir/runtime/hot.awk" \
				"$OUT/$v/sites" "$OUT/$v/sites.csv" "$OUT/$v/marks-a" "$OUT/$v/console-a.log" \
				> "$OUT/$v/hot-all" &&
			awk '++seen[$2] <= 6' "$OUT/$v/hot-all" > "$OUT/$v/hot" || return 1
		fi
		if [ "$RERUN" = 1 ] && [ -z "$first" ]; then
			first=$v
			boot_one "$v" b 1 || return 1
			results "$v" b > "$OUT/$v/results-b" || return 1
			if cmp -s "$OUT/$v/results-a" "$OUT/$v/results-b" &&
			   cmp -s "$OUT/$v/marks-a" "$OUT/$v/marks-b"; then
				log "$v: a second boot (other file times) gave the same counts at every marker"
			else
				log "$v: a second boot gave other counts:"; diff "$OUT/$v/marks-a" "$OUT/$v/marks-b" | head >&2
				return 1
			fi
		fi
		# The per-function lists above are boot a's; the table is the mean.
		local i all=("$OUT/$v/results-a")
		for ((i = 2; i <= BOOTS; i++)); do
			boot_one "$v" "p$i" "$i" && results "$v" "p$i" > "$OUT/$v/results-p$i" || return 1
			all+=("$OUT/$v/results-p$i")
		done
		awk -f "$bdir/runtime/mean.awk" "${all[@]}" > "$OUT/$v/results" || return 1
	done
}

# ---- the table --------------------------------------------------------------
# excess_table CFI BASE: where CFI executes more than BASE beyond its checks,
# the five functions of largest excess per workload.
excess_table() {
	local d=$OUT/$1
	[ -s "$d/funcs-per-op" ] && [ -s "$OUT/$2/funcs-per-op" ] || return 0
	awk -f "$bdir/runtime/excess.awk" "$OUT/$2/funcs-per-op" "$d/funcs-per-op" \
		$([ -s "$d/hot-all" ] && echo "$d/hot-all") /dev/null | sort -k2,2 -k1,1r -k7,7gr > "$d/excess" || return 1
	echo "instructions per operation beyond the checks, $1 minus $2: all functions, then the largest by function:"
	awk '$1 == "total" { t[$2] = $6 } $1 == "excess" && $7 > 0 && n[$2]++ < 5 { s[$2] = s[$2] sprintf(" %s %+.1f", $3, $7) }
		END { for (w in t) printf "  %-9s %+.1f:%s\n", w, t[w], s[w] }' "$d/excess" | sort
}

summary() {
	local v
	for v in $VARIANTS; do
		[ -f "$OUT/$v/results" ] || { log "$v: no results"; return 1; }
	done
	# Where the checks run: the three hottest functions per workload.
	local w
	for v in $VARIANTS; do
		[ -s "$OUT/$v/hot" ] || continue
		echo "checks per operation by calling function, $v:"
		for w in $(awk '{ print $1 }' "$OUT/$v/results"); do
			awk -v w="$w" '$2 == w && n++ < 3 { s = s sprintf(" %s %s", $3, $4) } END { printf "  %-9s%s\n", w, s }' "$OUT/$v/hot"
		done
	done
	# Where the two differ: the functions whose checks per operation differ
	# most between kcfi-gcc and clang-cfi (a call one compiler makes
	# indirect and the other direct, or inlined into another function).
	if [ -s "$OUT/kcfi-gcc/hot-all" ] && [ -s "$OUT/clang-cfi/hot-all" ]; then
		echo "checks per operation, kcfi-gcc minus clang-cfi, the largest differences by function:"
		awk 'FNR == NR { o[$2, $3] = $4; w[$2] = 1; next } { c[$2, $3] = $4; w[$2] = 1 }
			END {
				for (k in o) d[k] = o[k] - ((k in c) ? c[k] : 0)
				for (k in c) if (!(k in o)) d[k] = -c[k]
				for (k in d) { split(k, p, SUBSEP); printf "%s %s %+.2f\n", p[1], p[2], d[k] }
			}' "$OUT/kcfi-gcc/hot-all" "$OUT/clang-cfi/hot-all" |
			awk '{ a = $3 < 0 ? -$3 : $3; print a, $0 }' | sort -k2,2 -k1,1gr |
			awk '$2 != last { n = 0; last = $2 } n++ < 4 && $1 >= 0.01 { s[$2] = s[$2] sprintf(" %s %s", $3, $4) }
				END { for (w in s) printf "  %-9s%s\n", w, s[w] }' | sort
	fi
	excess_table kcfi-gcc gcc && excess_table clang-cfi clang
	awk -v variants="$VARIANTS" -v aside="$ASIDE" -f "$bdir/runtime/summary.awk" \
		$(for v in $VARIANTS; do echo "$OUT/$v/results"; done)
}

need_source || exit 1
prepare_tree cc || exit 1
for step in $STEPS; do
	case $step in
	build)
		for v in $VARIANTS; do build_kernel "$v" || exit 1; done ;;
	plugin) build_plugin || exit 1 ;;
	run) run_all || exit 1 ;;
	summary) summary || exit 1 ;;
	*) log "unknown step $step"; exit 2 ;;
	esac
done
