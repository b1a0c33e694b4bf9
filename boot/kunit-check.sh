#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's own unit tests under KCFI: Debian's Linux 6.12 with KUnit and
# every KUnit test built in (KUNIT_ALL_TESTS), built three times per
# architecture -- kcfi-gcc with CFI, plain gcc without, clang-19 with CFI --
# and booted under QEMU with 2 CPUs.  The suites run at boot; KUnit then
# reboots (kunit.shutdown=reboot, QEMU -no-reboot exits).  Each console is
# read as KTAP (boot/ktap.awk) and the three are compared.
#
# Usage: boot/kunit-check.sh    (normally `make kunit-check`)
# Environment:
#   KUNIT_ARCHES      default "x86_64 arm64 riscv64 arm"
#   KUNIT_COMPILERS   default "kcfi-gcc gcc clang-19"
#   KUNIT_BOOT_TIMEOUT  seconds per boot (default 3600); a boot that runs
#                     out is reported as timed out, with the suite it was
#                     in; one that dies, as crashed, with its Oops
#   KUNIT_BUILD_TIMEOUT seconds per kernel build (default 7200)
#   KCFI_BUILDDIR, KCFI_BOOT_CACHE, BOOT_JOBS  as for boot-check.sh
# Configuration: the arch's defconfig plus boot/config/defconfig/* (arm: the
# boot matrix's tinyconfig-based arm kernel, Thumb-2, plus
# boot/config/kunit/arm.config) plus boot/config/kunit/common.config, and
# CFI_CLANG (trapping) for kcfi-gcc and clang-19.  Tests QEMU cannot run are
# listed, with the reason, in boot/config/kunit/explained.tsv (also
# doc/kernel.md 8).
# Consoles: boot/out/kunit/<arch>/console-<compiler>.log; per-case results
# next to them (<compiler>.results).  Per arch a table (suites, cases and
# CFI failures per compiler; the cases kcfi-gcc and gcc differ on), then
# one line:
#   kunit ARCH: kcfi-gcc ok A, not ok B, skipped C, cfi F; gcc ok ..;
#   clang-19 ok .., cfi F3; unexplained D
# D counts the test cases whose result differs between kcfi-gcc and gcc,
# and the CFI failures of kcfi-gcc, that neither clang-19 shares (a CFI
# failure at the same function) nor explained.tsv explains.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
KCFI_BUILDDIR=$(cd "${KCFI_BUILDDIR:-$top}" && pwd)
KUNIT_ARCHES=${KUNIT_ARCHES:-"x86_64 arm64 riscv64 arm"}
KUNIT_COMPILERS=${KUNIT_COMPILERS:-"kcfi-gcc gcc clang-19"}
KUNIT_BOOT_TIMEOUT=${KUNIT_BOOT_TIMEOUT:-3600}
KUNIT_BUILD_TIMEOUT=${KUNIT_BUILD_TIMEOUT:-7200}
BOOT_JOBS=${BOOT_JOBS:-2}
BOOT_KERNEL=6.12 KSFX= BOOT_CONFIG=defconfig
OUT=$here/out/kunit
EXPLAINED=$here/config/kunit/explained.tsv
. "$here/lib.sh"
. "$here/kunit-lib.sh"
log() { printf 'kunit-check: [%s] %s\n' "$(elapsed)" "$*" >&2; }

for c in $KUNIT_COMPILERS; do
	case $c in kcfi-gcc|gcc|clang-19) ;;
	*) log "KUNIT_COMPILERS: unknown compiler '$c' (kcfi-gcc, gcc, clang-19)"; exit 2 ;;
	esac
done
# LLVM=-19 takes every binary tool from LLVM 19, not only the compiler and
# linker: a missing one stops the build minutes in, at objtool's archive.
case " $KUNIT_COMPILERS " in *" clang-19 "*)
	missing=
	for t in clang-19 ld.lld-19 llvm-ar-19 llvm-nm-19 llvm-objcopy-19 llvm-objdump-19 \
		 llvm-readelf-19 llvm-strip-19; do
		command -v "$t" > /dev/null || missing="$missing $t"
	done
	if [ -n "$missing" ]; then
		log "clang-19 kernels need LLVM 19's tools; missing:$missing"
		log "install them with scripts/install-deps.sh --with-bench (clang-19 lld-19 llvm-19), or leave clang-19 out of KUNIT_COMPILERS"
		exit 2
	fi ;;
esac
boot_cache || exit 1
need_source || { log "cannot get linux-source-$BOOT_KERNEL"; exit 1; }
prepare_tree cc || exit 1
mkdir -p "$CACHE/tools"
[ -x "$CACHE/tools/gen_init_cpio" ] || gcc -O2 -o "$CACHE/tools/gen_init_cpio" "$SRC/usr/gen_init_cpio.c" || exit 1

# build ARCH COMPILER: configure and build the image in a fixed directory,
# cached by everything it depends on; sets IMG (the image) and CONFIG.
build() {
	local arch=$1 cc=$2 O=$CACHE/kunit/$1-$2 base=defconfig frags=() want=() mk
	arch_vars "$arch" || return 1
	if [ "$arch" = arm ]; then
		base=allnoconfig
		frags=("$SRC/kernel/configs/tiny-base.config" "$SRC/kernel/configs/tiny.config"
		       "$here/config/common.config" "$here/config/arm.config" "$here/config/row-arm.config")
	else
		frags=("$here/config/defconfig/common.config" "$here/config/defconfig/$arch.config")
	fi
	# Ours, which must survive Kconfig (check_config below).
	want=("$here/config/kunit/common.config")
	[ "$arch" = arm ] && want+=("$here/config/kunit/arm.config")
	[ "$cc" = gcc ] || want+=("$here/config/cfi.config")
	frags+=("${want[@]}")
	mk=(make -C "$SRC" O="$O" ARCH="$KARCH" -j"$BOOT_JOBS")
	case $cc in
	kcfi-gcc)
		local w=$KCFI_BUILDDIR/kcfi-gcc
		[ -n "$CROSS" ] && w=$(wrapper "${CROSS}kcfi-gcc" kcfi-gcc)
		mk+=(CROSS_COMPILE="$CROSS" CC="$w") ;;
	gcc) mk+=(CROSS_COMPILE="$CROSS") ;;
	clang-19) mk+=(LLVM=-19) ;;
	esac
	local key
	key=$( { cat "${frags[@]}"; cat "$CACHE/src-cc/stamp"; printf '%s\n' "${mk[@]}";
		 [ "$cc" = kcfi-gcc ] && tool_id "$TRIPLE";
		 case $cc in clang-19) clang-19 --version ;; *) "${CROSS}gcc" --version ;; esac | head -1; } |
		sha256sum | cut -c1-16)
	IMG=$O/$ARCH_IMAGE CONFIG=$O/.config
	if [ -f "$IMG" ] && [ "$(cat "$O/kunit-key" 2>/dev/null)" = "$key" ]; then
		log "$arch/$cc: cached build $key"
		return 0
	fi
	# A build cut short (timeout, end of a session) under the same key
	# resumes where it stopped: make redoes only what is missing.
	if [ -f "$O/.config" ] && [ "$(cat "$O/kunit-key.configured" 2>/dev/null)" = "$key" ]; then
		log "$arch/$cc: resuming the build configured under $key"
		make_image "$arch" "$cc" "$O" "$key"
		return
	fi
	rm -rf "$O" && mkdir -p "$O" && cat "${frags[@]}" > "$O/allconfig.frag" || return 1
	log "$arch/$cc: configuring ($base + $(printf '%s ' "${frags[@]##*/}"))"
	if [ "$base" = allnoconfig ]; then
		(cd "$O" && "${mk[@]}" KCONFIG_ALLCONFIG="$O/allconfig.frag" allnoconfig)
	else
		(cd "$O" && "${mk[@]}" defconfig && cat "$O/allconfig.frag" >> "$O/.config" && "${mk[@]}" olddefconfig)
	fi > "$O/config.log" 2>&1 || { log "$arch/$cc: configuration failed, see $O/config.log"; return 1; }
	check_config "$O/.config" "${want[@]}" || { log "$arch/$cc: the fragments did not survive Kconfig"; return 1; }
	echo "$key" > "$O/kunit-key.configured"
	make_image "$arch" "$cc" "$O" "$key"
}

# make_image ARCH COMPILER DIR KEY: build (or finish building) the image of
# the configured tree DIR with the make command line in mk.
make_image() {
	local arch=$1 cc=$2 O=$3 key=$4 t0=$SECONDS
	log "$arch/$cc: building $ARCH_TARGET ($(grep -c '=y' "$O/.config") options on; log $O/build.log)"
	(cd "$O" && timeout "$KUNIT_BUILD_TIMEOUT" "${mk[@]}" "$ARCH_TARGET") >> "$O/build.log" 2>&1 ||
		{ log "$arch/$cc: build failed or timed out, last lines of $O/build.log:"; tail -n 20 "$O/build.log" >&2; return 1; }
	log "$arch/$cc: built in $((SECONDS - t0)) s"
	echo "$key" > "$O/kunit-key"
}

# run ARCH COMPILER: boot the image; the console and its KTAP reading under $OUT/ARCH.
run() {
	local arch=$1 cc=$2 dir=$OUT/$1
	arch_vars "$arch" || return 1
	mkdir -p "$dir"
	local con=$dir/console-$cc.log
	local append="console=$CONSOLE panic=-1 kunit.shutdown=reboot"
	log "$arch/$cc: booting (KUnit runs at boot; at most ${KUNIT_BOOT_TIMEOUT}s; console $con)"
	local t0=$SECONDS
	timeout "$KUNIT_BOOT_TIMEOUT" "${QEMU[@]}" -smp 2 -m 2048 -accel tcg -display none \
		-monitor none -serial "file:$con" -no-reboot -kernel "$IMG" -append "$append" \
		> "$dir/qemu-$cc.log" 2>&1
	local rc=$?
	[ $rc -eq 124 ] && echo "kunit-check: QEMU timed out after ${KUNIT_BOOT_TIMEOUT}s" >> "$con"
	awk -f "$here/ktap.awk" "$con" > "$dir/$cc.results"
	log "$arch/$cc: ran in $((SECONDS - t0)) s"
}

status=0
lines=()
for arch in $KUNIT_ARCHES; do
	arch_vars "$arch" || { status=1; continue; }
	declare -A said=()
	earlier_runs "$arch" "$KUNIT_COMPILERS"
	for cc in $KUNIT_COMPILERS; do
		# Not compared with a stale result if this build fails.
		rm -f "$OUT/$arch/$cc.results"
		if build "$arch" "$cc"; then
			run "$arch" "$cc"
			said[$cc]=$(tally "$OUT/$arch/$cc.results" "$cc")
			complete "$OUT/$arch/$cc.results" || status=1
		else
			said[$cc]="build failed"
			status=1
		fi
	done
	line=$(arch_line kunit "$arch") || status=1
	lines+=("$line")
	unset said
done
echo
for arch in $KUNIT_ARCHES; do [ -d "$OUT/$arch" ] && table kunit "$arch"; done
for l in "${lines[@]}"; do echo "$l"; done
show_unexplained $KUNIT_ARCHES
exit $status
