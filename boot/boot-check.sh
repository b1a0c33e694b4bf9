#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Boot matrix: build Debian's Linux 6.12 (or 6.1) with kcfi-as for each architecture,
# boot it under QEMU (TCG) with our init, and check that LKDTM's
# CFI_FORWARD_PROTO is caught by KCFI with the right type id.
#
# Usage: boot/boot-check.sh            (normally through `make boot-check`)
# Environment:
#   KCFI_BUILDDIR    kcfi-as build tree holding kcfi-gcc, kcfi-as, plugins
#                    (default: the directory above this script)
#   BOOT_CONFIG      small (default: tinyconfig-based, in CI) or defconfig (each
#                    arch's defconfig with SMP, modules, BPF JIT, FineIBT on
#                    x86_64; slow, see doc/kernel.md), or debian-cloud
#                    (x86_64 only: Debian's cloud-amd64 configuration, every
#                    module built and loaded at boot; hours, doc/kernel.md 6a)
#   BOOT_KERNEL      6.12 (default) or 6.1: Debian's linux-source-<V>, with
#                    boot/patches/<V>; an architecture where <V> has no KCFI
#                    is skipped and the summary says why
#   BOOT_ARCHES      default "x86_64 arm64 riscv64 arm"
#   BOOT_VARIANTS    restrict to these variant names (default: all of the arches)
#   BOOT_MODES       restrict to these modes, strict and/or permissive (default: the rows')
#   KCFI_BOOT_CACHE  kernel sources and build dirs (default /var/cache/kcfi-boot,
#                    or ~/.cache/kcfi-boot when that is not writable)
#   BOOT_GCC_VERSION N: build with gcc-N through kcfi-gcc-N and the gcc-N
#                    plugin (x86_64 only; empty: the default gcc).  Builds go
#                    to their own directories (build-gccN, out-gccN/), so the
#                    default compiler's cached kernels stay.
#   BOOT_BUILD_ONLY  non-empty: build the selected kernels, boot none (make
#                    distro-check builds the defconfig profile's this way)
#   BOOT_DEB         non-empty (defconfig profile): also make bindeb-pkg, the
#                    image and headers packages as Debian installs kernels,
#                    with what make dkms-check's modules need
#                    (config/defconfig/dkms.config); builds go to
#                    build-defconfig[-6.1]-deb, packages to images/MODE/debs
#   BOOT_JOBS        make -j (default 2)
#   BOOT_CLANG       the compiler of the defconfig profile's clang rows
#                    (default clang-19)
#   BOOT_TIMEOUT     seconds per QEMU run (default 180); BOOT_BUILD_TIMEOUT
#                    seconds per kernel build (default 1800)
# Consoles: boot/out/<arch>/console.log (trapping kernel, make CC=kcfi-gcc),
# console-permissive.log, console-as-xxhash64.log (make AS=kcfi-as).
# The small profile's permissive rows also load boot/module's kcfi_mismatch.ko
# (four deliberate mismatches) and judge kcfi-audit --explain on the console
# (boot/mismatch-judge.sh): explain-permissive[-fineibt].txt beside it.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
KCFI_BUILDDIR=$(cd "${KCFI_BUILDDIR:-$top}" && pwd)
BOOT_ARCHES=${BOOT_ARCHES:-"x86_64 arm64 riscv64 arm"}
BOOT_JOBS=${BOOT_JOBS:-2}
BOOT_CLANG=${BOOT_CLANG:-clang-19}
BOOT_CONFIG=${BOOT_CONFIG:-small}
BOOT_KERNEL=${BOOT_KERNEL:-6.12}
case $BOOT_KERNEL in
6.12|6.1) ;;
*)	echo "boot-check: BOOT_KERNEL must be 6.12 or 6.1, not '$BOOT_KERNEL'" >&2
	exit 2 ;;
esac
# 6.12's cache paths and console folder keep their old names.
KSFX=
[ "$BOOT_KERNEL" = 6.12 ] || KSFX=-$BOOT_KERNEL
case $BOOT_CONFIG in
small)
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-180}
	BOOT_BUILD_TIMEOUT=${BOOT_BUILD_TIMEOUT:-1800} ;;
defconfig)
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-600}
	BOOT_BUILD_TIMEOUT=${BOOT_BUILD_TIMEOUT:-5400} ;;
debian-cloud)
	# Debian's configuration is amd64's and 6.12's, built by Debian's gcc.
	# A build longer than BOOT_BUILD_TIMEOUT resumes on the next run.
	if [ "$BOOT_KERNEL" != 6.12 ] || [ -n "${BOOT_GCC_VERSION:-}" ]; then
		echo "boot-check: BOOT_CONFIG=debian-cloud is Linux 6.12 with the default gcc" >&2
		exit 2
	fi
	BOOT_ARCHES=x86_64
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600}
	BOOT_BUILD_TIMEOUT=${BOOT_BUILD_TIMEOUT:-9000} ;;
*)	echo "boot-check: BOOT_CONFIG must be small, defconfig or debian-cloud, not '$BOOT_CONFIG'" >&2
	exit 2 ;;
esac
. "$here/lib.sh"
. "$here/cloud-lib.sh"
boot_cache || exit 1
BOOT_GCC_VERSION=${BOOT_GCC_VERSION:-}
GSFX=${BOOT_GCC_VERSION:+-$BOOT_GCC_VERSION}	# kcfi-gcc-N, gcc-N
GDIR=${BOOT_GCC_VERSION:+-gcc$BOOT_GCC_VERSION}	# build-gccN, out-gccN
if [ -n "$BOOT_GCC_VERSION" ]; then
	case " $BOOT_ARCHES " in
	" x86_64 ") ;;
	*) echo "boot-check: BOOT_GCC_VERSION needs BOOT_ARCHES=x86_64 (no cross plugins per version)" >&2
	   exit 2 ;;
	esac
fi
OUT=$here/out$KSFX$GDIR
mkdir -p "$OUT"

# ---- the matrix -------------------------------------------------------------
# name:arch:route:hash:modes.  route cc = make CC=<triple>-kcfi-gcc on the
# tree with boot/patches; route as = make AS=kcfi-as on the tree that also
# has boot/patches-as.  modes: strict (CFI_PERMISSIVE=n) and/or permissive,
# built one after the other in the same build directory.  A row whose name
# has a fragment, config/row-NAME.config, gets it after the arch's (arm:
# Thumb-2 or ARM state).  Mode extmod builds no kernel: it checks the type
# ids of an external module against a kernel configured with HASH
# (extmod_ids).
# The defconfig profile builds each kernel once (trapping), riscv64 also
# through route as, and x86_64 also with plain gcc (route plain: no kcfi, not
# booted) so that objtool's warnings on our build can be compared with it;
# arm64-plain is built only for make distro-check (BOOT_BUILD_ONLY), which
# boots both plain kernels beside ours.  Route clang: the same configuration
# built by $BOOT_CLANG (default clang-19) with Clang's own KCFI, for
# make distro-check's third boot (DISTRO_COMPILERS=clang-cfi): a difference
# from plain gcc that Clang's CFI kernel shares is CFI's, one it does not
# have is ours.  Built only with BOOT_BUILD_ONLY, never booted here.
if [ "$BOOT_CONFIG" = small ]; then
MATRIX="
arm64:arm64:cc:fnv1a:strict,permissive
riscv64:riscv64:cc:fnv1a:strict,permissive
arm:arm:cc:fnv1a:strict,permissive
arm-armstate:arm:cc:fnv1a:strict
x86_64:x86_64:cc:fnv1a:strict,permissive
x86_64-as-xxhash64:x86_64:as:xxhash64:strict
x86_64-extmod-ids:x86_64:cc:xxhash64:extmod
x86_64-as-extmod-ids:x86_64:as:xxhash64:extmod
"
BUILDS=$CACHE/build$KSFX$GDIR
elif [ "$BOOT_CONFIG" = debian-cloud ]; then
MATRIX="
x86_64-debian-cloud:x86_64:cc:fnv1a:strict
x86_64-debian-cloud-plain:x86_64:plain:-:strict
"
BUILDS=$CACHE/build-debian-cloud
else
MATRIX="
x86_64:x86_64:cc:fnv1a:strict
riscv64:riscv64:cc:fnv1a:strict
arm64:arm64:cc:fnv1a:strict
riscv64-as:riscv64:as:fnv1a:strict
x86_64-plain:x86_64:plain:-:strict
arm64-plain:arm64:plain:-:strict
x86_64-clang-cfi:x86_64:clang:-:strict
arm64-clang-cfi:arm64:clang:-:strict
"
BUILDS=$CACHE/build-defconfig$KSFX$GDIR
fi
BOOT_DEB=${BOOT_DEB:-}
if [ -n "$BOOT_DEB" ]; then
	[ "$BOOT_CONFIG" = defconfig ] ||
		{ echo "boot-check: BOOT_DEB needs BOOT_CONFIG=defconfig" >&2; exit 2; }
	BUILDS=$BUILDS-deb
fi

# kernel_lacks ARCH ROUTE: why BOOT_KERNEL cannot give ARCH a KCFI kernel
# that reports (empty: it can).  Said by name in the summary rather than
# building a kernel that could only fail.
kernel_lacks() {
	case $BOOT_KERNEL:$1 in
	6.1:riscv64) echo "Linux 6.1 has no KCFI on riscv64 (ARCH_SUPPORTS_CFI_CLANG and the ebreak handler arrive in 6.6)" ;;
	6.1:arm) echo "Linux 6.1 has no KCFI on 32-bit arm (ARCH_SUPPORTS_CFI_CLANG arrives in 6.10)" ;;
	esac
	[ "$2" = as ] && [ ! -d "$here/patches-as/$BOOT_KERNEL" ] &&
		echo "no boot/patches-as/$BOOT_KERNEL: the make AS=kcfi-as route needs kbuild's assembler hook, written for 6.12 only"
	return 0
}

# cfg NAME: boot/config/<V>/NAME where the kernel version has its own
# (symbols renamed or missing there), else boot/config/NAME.
cfg() {
	if [ -f "$here/config/$BOOT_KERNEL/$1" ]; then echo "$here/config/$BOOT_KERNEL/$1"
	else echo "$here/config/$1"; fi
}

log() { printf 'boot-check: [%s] %s\n' "$(elapsed)" "$*" >&2; }

# ---- prerequisites ----------------------------------------------------------
# need_tools: every program the selected arches need, or a clear message
# naming the Debian package (scripts/install-deps.sh --with-boot has them).
need_tools() {
	local arch missing=() p
	local -A pkg=([make]=make [flex]=flex [bison]=bison [bc]=bc [cpio]=cpio
		[perl]=perl [timeout]=coreutils [qemu-system-x86_64]=qemu-system-x86
		[qemu-system-aarch64]=qemu-system-arm [qemu-system-riscv64]=qemu-system-misc
		[aarch64-linux-gnu-gcc]=gcc-aarch64-linux-gnu
		[riscv64-linux-gnu-gcc]=gcc-riscv64-linux-gnu)
	local progs=(make flex bison bc cpio perl timeout)
	for arch in $BOOT_ARCHES; do
		arch_vars "$arch" || return 1
		progs+=("${QEMU[0]}" "${CROSS}gcc$GSFX")
	done
	# debian-cloud: Debian's configuration asks for BTF (pahole), signed
	# and xz-compressed modules (openssl, xz), depmod's modules.dep (kmod),
	# and the initramfs has busybox's modprobe.
	[ "$BOOT_CONFIG" = debian-cloud ] && progs+=(pahole openssl xz depmod busybox)
	pkg+=([pahole]=dwarves [openssl]=openssl [xz]=xz-utils [depmod]=kmod [busybox]=busybox-static)
	for p in "${progs[@]}"; do
		command -v "$p" >/dev/null || missing+=("$p (${pkg[$p]:-?})")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "missing: ${missing[*]}; scripts/install-deps.sh --with-boot installs them"
	return 1
}

# extmod_compiler O MODULE MODE MAKE...: an external module build (make M=,
# as DKMS runs it: no CC, no KCFLAGS) against a kcfi-gcc kernel, our kernel
# patch 0002: with no CC it must use the driver the kernel recorded
# (CONFIG_CFI_GCC_DRIVER, looked up in PATH); with plain gcc, or with a
# KCFLAGS asking for other type ids than the kernel's (the other hash), it
# must stop, saying why, rather than build a module the kernel's checked
# calls would trap on.
extmod_compiler() {
	local O=$1 module=$2 mode=$3 a drv other log=$1/module-$3-extmod.log
	shift 3
	local -a nocc=()
	for a in "$@"; do case $a in CC=*|KCFLAGS=*) ;; *) nocc+=("$a") ;; esac; done
	# extmake ARGS...: make M= as DKMS runs it, our drivers found in PATH.
	extmake() { (cd "$O" && PATH=$KCFI_BUILDDIR:$CACHE/bin:$PATH timeout 600 "${nocc[@]}" M="$module" "$@"); }
	drv=$(sed -n 's/^CONFIG_CFI_GCC_DRIVER="\(.*\)"$/\1/p' "$O/.config")
	[ -n "$drv" ] || { log "$name/$mode: no CONFIG_CFI_GCC_DRIVER in the kernel's .config (boot/patches 0002)"; return 1; }
	grep -q '^CONFIG_CFI_GCC_ID_FLAGS=' "$O/.config" ||
		{ log "$name/$mode: no CONFIG_CFI_GCC_ID_FLAGS in the kernel's .config (boot/patches 0002)"; return 1; }
	{ extmake V=1 clean modules || { echo "extmod: the build without CC failed"; false; }; } > "$log" 2>&1 &&
	grep -qE "(^|[ ;])$drv .*kcfi_[a-z_]*\.c" "$log" ||
		{ log "$name/$mode: make M= without CC did not compile with $drv, see $log"; return 1; }
	if extmake CC="${CROSS}gcc$GSFX" clean modules > "$log.gcc" 2>&1; then
		log "$name/$mode: make M= CC=${CROSS}gcc$GSFX built a module without KCFI for a KCFI kernel, see $log.gcc"
		return 1
	fi
	grep -q "cannot compile with .*Build with CC=$drv" "$log.gcc" ||
		{ log "$name/$mode: make M= CC=${CROSS}gcc$GSFX stopped without naming $drv:"; tail -n 5 "$log.gcc" >&2; return 1; }
	other=$(hash_flag xxhash64)
	grep -q '^CONFIG_CFI_GCC_ID_FLAGS=.*xxHash64' "$O/.config" && other=$(hash_flag fnv1a)
	if extmake KCFLAGS="$other" clean modules > "$log.ids" 2>&1; then
		log "$name/$mode: make M= KCFLAGS=$other built a module with other type ids than the kernel's, see $log.ids"
		return 1
	fi
	grep -q "KCFLAGS has $other, but this kernel's type ids" "$log.ids" ||
		{ log "$name/$mode: make M= KCFLAGS=$other stopped without saying why:"; tail -n 5 "$log.ids" >&2; return 1; }
	# The module the boot loads, built again as DKMS builds it.
	extmake modules > /dev/null 2>&1
}

# hash_flag fnv1a|xxhash64: kcfi-gcc's option for that hash of the type ids.
hash_flag() {
	case $1 in
	xxhash64) echo -fsanitize-kcfi-hash=xxHash64 ;;
	*) echo -fsanitize-kcfi-hash=FNV-1a ;;
	esac
}

# extmod_ids NAME ARCH ROUTE HASH: the type ids an external module gets
# against a kernel configured for HASH (the small profile's x86_64
# fragments; configured and modules_prepare'd, not built or booted): route
# cc with KCFLAGS=-fsanitize-kcfi-hash=<HASH>, route as with make AS=kcfi-as
# and the assembler's -Wa,--kcfi-hash=<hash> in CC_FLAGS_KCFI.  Kconfig
# must record the option in kcfi-gcc's spelling (CONFIG_CFI_GCC_ID_FLAGS,
# patch 0002; patches-as for route as, which also records kcfi-gcc as the
# driver), a DKMS-style build (no CC, AS or KCFLAGS) must give
# kcfi_test_init the id of int (void) in that hash -- its preamble read
# from the object -- and asking for the other hash (KCFLAGS; route as:
# CC_FLAGS_KCFI with AS=, as the kernel was built) must stop the build.
# Route as also builds the module as the kernel was built, AS= and all.
# Sets PROOF.
extmod_ids() {
	local name=$1 arch=$2 route=$3 hash=$4 O=$BUILDS/$1 flag other want got log
	arch_vars "$arch" || return 1
	[ "$arch" = x86_64 ] || { log "$name: extmod_ids reads x86's preamble (mov \$id, %eax) only"; return 1; }
	flag=$(hash_flag "$hash") other=$(hash_flag xxhash64)
	[ "$hash" = xxhash64 ] && other=$(hash_flag fnv1a)
	local -a mk=(make -C "$SRC" O="$O" ARCH="$KARCH" -j"$BOOT_JOBS")
	local module=$O/kcfi-test-module
	# how the kernel is built, and how a module asks for the other hash
	local -a kbuild=(CC="$KCFI_BUILDDIR/kcfi-gcc$GSFX" KCFLAGS="$flag") asked=(KCFLAGS="$other")
	local driver=kcfi-gcc$GSFX refusal="KCFLAGS has $other, but this kernel's type ids were made with $flag (CONFIG_CFI_GCC_ID_FLAGS)"
	if [ "$route" = as ]; then
		local plugin=$KCFI_BUILDDIR/prepass/plugins/$TRIPLE/kcfi.so ah oh
		ah=$( [ "$hash" = xxhash64 ] && echo xxhash64 || echo fnv1a)
		oh=$( [ "$hash" = xxhash64 ] && echo fnv1a || echo xxhash64)
		kbuild=(CC=gcc AS="$KCFI_BUILDDIR/kcfi-as" CC_FLAGS_KCFI="-fplugin=$plugin -Wa,--kcfi-hash=$ah")
		asked=(CC=gcc AS="$KCFI_BUILDDIR/kcfi-as" CC_FLAGS_KCFI="-fplugin=$plugin -Wa,--kcfi-hash=$oh")
		driver=kcfi-gcc
		refusal="CC_FLAGS_KCFI gives type ids of $other, but this kernel's were made with $flag (CONFIG_CFI_GCC_ID_FLAGS)"
	fi
	rm -rf "$O" && mkdir -p "$O" "$module" || return 1
	local frags
	mapfile -t frags < <(small_frags "$arch")
	cat "${frags[@]}" "$here/config/cfi.config" > "$O/allconfig.frag" || return 1
	log "$name: configuring with ${kbuild[*]}, modules_prepare"
	(cd "$O" && "${mk[@]}" "${kbuild[@]}" KCONFIG_ALLCONFIG="$O/allconfig.frag" allnoconfig &&
	 "${mk[@]}" "${kbuild[@]}" modules_prepare) > "$O/prepare.log" 2>&1 ||
		{ log "$name: configuration or modules_prepare failed, see $O/prepare.log"; return 1; }
	grep -qx "CONFIG_CFI_GCC_ID_FLAGS=\"$flag\"" "$O/.config" ||
		{ log "$name: Kconfig did not record $flag: $(grep CFI_GCC "$O/.config" | tr '\n' ' ')"; return 1; }
	grep -qx "CONFIG_CFI_GCC_DRIVER=\"$driver\"" "$O/.config" ||
		{ log "$name: Kconfig did not record the driver $driver: $(grep CFI_GCC "$O/.config" | tr '\n' ' ')"; return 1; }
	cp "$here/module/kcfi_test.c" "$module/" && echo 'obj-m += kcfi_test.o' > "$module/Kbuild" || return 1
	log=$O/extmod.log
	# No Module.symvers from a kernel that was not built: modpost warns.
	(cd "$O" && PATH=$KCFI_BUILDDIR:$PATH "${mk[@]}" M="$module" KBUILD_MODPOST_WARN=1 V=1 modules) > "$log" 2>&1 ||
		{ log "$name: make M= without CC and KCFLAGS failed, see $log"; return 1; }
	grep -qE "(^|[ ;])$driver .*kcfi_test\.c" "$log" ||
		{ log "$name: make M= did not compile with the recorded $driver, see $log"; return 1; }
	want=$("$KCFI_BUILDDIR/kcfi-typeid" --hash="$hash" 'int (void)' | cut -d' ' -f1)
	# id_of_module: the id in kcfi_test_init's preamble
	id_of_module() { objdump -d --disassemble=__cfi_kcfi_test_init "$module/kcfi_test.o" |
	      sed -n 's/.*mov  *\$\(0x[0-9a-f]*\),%eax.*/\1/p' | head -1; }
	got=$(id_of_module)
	[ -n "$want" ] && [ "$got" = "$want" ] ||
		{ log "$name: kcfi_test_init's preamble has id ${got:-none}, the kernel's $hash id of int (void) is $want"; return 1; }
	PROOF="recorded $driver, $flag; make M= gave int (void) $got"
	if [ "$route" = as ]; then
		(cd "$O" && "${mk[@]}" "${kbuild[@]}" M="$module" KBUILD_MODPOST_WARN=1 clean modules) > "$log.as" 2>&1 &&
			[ "$(id_of_module)" = "$want" ] ||
			{ log "$name: make M= ${kbuild[*]} failed or gave another id ($(id_of_module)), see $log.as"; return 1; }
		PROOF="$PROOF, with AS= too"
	fi
	if (cd "$O" && PATH=$KCFI_BUILDDIR:$PATH "${mk[@]}" M="$module" KBUILD_MODPOST_WARN=1 "${asked[@]}" clean modules) > "$log.other" 2>&1; then
		log "$name: make M= ${asked[*]} built a module with other ids than the kernel's, see $log.other"
		return 1
	fi
	grep -qF "$refusal" "$log.other" ||
		{ log "$name: make M= ${asked[*]} stopped without saying why, see $log.other"; return 1; }
	PROOF="$PROOF; the other hash refused"
}

# small_frags ARCH: the small profile's fragments of ARCH (after arch_vars),
# one path per line.
small_frags() {
	local f=("$SRC/kernel/configs/tiny-base.config" "$SRC/kernel/configs/tiny.config")
	[ -n "$ARCH_TINY" ] && f+=("$SRC/$ARCH_TINY")
	f+=("$(cfg common.config)" "$(cfg "$1.config")")
	printf '%s\n' "${f[@]}"
}

# ---- per-variant steps ------------------------------------------------------
# build_variant NAME ARCH ROUTE HASH MODE: configure and build in
# $BUILDS/NAME (a fixed path: x86 build dirs are not relocatable), then
# keep the image and vmlinux in $BUILDS/NAME/images/MODE.  Skipped when
# the images exist and were made with the same key.
build_variant() {
	[ "$BOOT_CONFIG" = debian-cloud ] && { cloud_build "$1" "$3"; return; }
	local name=$1 arch=$2 route=$3 hash=$4 mode=$5 tree=$3
	# 0001 changes nothing without CFI, nor 0002 under Clang
	case $route in plain|clang) tree=cc ;; esac
	arch_vars "$arch" || return 1
	local O=$BUILDS/$name img=$BUILDS/$name/images/$mode frags=() base=allnoconfig
	local row=$here/config/row-$name.config
	[ -f "$row" ] || row=
	if [ "$BOOT_CONFIG" = small ]; then
		mapfile -t frags < <(small_frags "$arch")
		[ -n "$row" ] && frags+=("$row")
	else
		base=defconfig
		# (defconfig/distro.config: what make distro-check's Debian
		# userland needs, and modules for udev to load)
		frags=("$(cfg defconfig/common.config)" "$(cfg "defconfig/$arch.config")"
		       "$(cfg defconfig/distro.config)")
		[ -n "$BOOT_DEB" ] && frags+=("$(cfg defconfig/dkms.config)")
	fi
	# The small profile's permissive rows also load the module of
	# deliberate mismatches (boot/module/kcfi_mismatch_calls.c).
	local mismatch=no
	[ "$BOOT_CONFIG" = small ] && [ "$mode" = permissive ] && [ "$route" = cc ] && mismatch=yes
	if [ "$route" = plain ]; then :
	elif [ "$mode" = permissive ]; then frags+=("$here/config/cfi-permissive.config")
	else frags+=("$here/config/cfi.config"); fi
	local cfifrag=${frags[-1]}
	local mfrags=()
	if [ $mismatch = yes ]; then
		mfrags=("$here/config/mismatch.config")
		[ -f "$here/config/mismatch-$arch.config" ] && mfrags+=("$here/config/mismatch-$arch.config")
		frags+=("${mfrags[@]}")
	fi

	local -a mk=(make -C "$SRC" O="$O" ARCH="$KARCH" -j"$BOOT_JOBS")
	[ -n "$CROSS" ] && mk+=(CROSS_COMPILE="$CROSS")
	local plugin=$KCFI_BUILDDIR/prepass/plugins/$TRIPLE${BOOT_GCC_VERSION:+/gcc-$BOOT_GCC_VERSION}/kcfi.so
	case $route in cc|as)
		[ -f "$plugin" ] || { log "$name: no plugin for $TRIPLE ($plugin)"; return 1; } ;;
	esac
	# the compiler whose version goes into the keys
	local compiler=${CROSS}gcc$GSFX
	[ "$route" = clang ] && compiler=$BOOT_CLANG
	case $route in
	cc)
		# x86_64 builds natively with the plain name; the others need the
		# <triple>-kcfi-gcc spelling, which kcfi-gcc reads to pick the compiler.
		local cc=$KCFI_BUILDDIR/kcfi-gcc$GSFX
		[ -n "$CROSS" ] && cc=$(wrapper "${CROSS}kcfi-gcc" kcfi-gcc)
		mk+=(CC="$cc")
		[ "$hash" = xxhash64 ] && mk+=(KCFLAGS="$(hash_flag xxhash64)") ;;
	as)
		local as=$KCFI_BUILDDIR/kcfi-as kflags="-fplugin=$plugin"
		[ -n "$CROSS" ] && as=$(wrapper "${CROSS}kcfi-as" kcfi-as)
		[ "$hash" = xxhash64 ] && kflags="$kflags -Wa,--kcfi-hash=xxhash64"
		mk+=(CC="${CROSS}gcc$GSFX" AS="$as" CC_FLAGS_KCFI="$kflags") ;;
	plain)
		mk+=(CC="${CROSS}gcc$GSFX") ;;
	clang)
		# Clang's own KCFI with its default type ids (xxHash64 in 19);
		# CROSS_COMPILE gives it the target and GNU binutils.
		command -v "$BOOT_CLANG" > /dev/null ||
			{ log "$name: $BOOT_CLANG is not installed (scripts/install-deps.sh)"; return 1; }
		mk+=(CC="$BOOT_CLANG") ;;
	esac
	# The defconfig profile also builds our test modules against the kernel,
	# the small profile's permissive rows too (for kcfi_mismatch.ko).
	local targets=("$ARCH_TARGET") module=
	# The defconfig profile's kernels, plain gcc's too, also build their
	# modules: make distro-check installs them in its Debian image.
	[ "$BOOT_CONFIG" = defconfig ] && targets+=(modules)
	if { [ "$BOOT_CONFIG" = defconfig ] && { [ "$route" = cc ] || [ "$route" = as ]; }; } || [ $mismatch = yes ]; then
		targets+=(modules_prepare)
		module=$O/kcfi-test-module
	fi

	local key tools
	case $route in cc|as) tools=$(tool_id "$TRIPLE") ;; *) tools= ;; esac
	key=$( { echo "$BOOT_CONFIG $KVER_PKG $route $hash $mode deb=$BOOT_DEB"; cat "${frags[@]}";
		 cat "$CACHE/src$KSFX-$tree/stamp"; echo "$tools";
		 [ -n "$module" ] && cat "$here"/module/*;
		 "$compiler" --version | head -1; printf '%s\n' "${mk[@]}"; } |
		sha256sum | cut -c1-16)
	if [ -f "$img/vmlinux" ] && [ "$(cat "$img/key" 2>/dev/null)" = "$key" ]; then
		log "$name/$mode: cached build $key"
		return 0
	fi
	# The build dir is shared by the modes of one variant; anything else that
	# changed (tools, sources, route) means a clean start.
	local dirkey
	dirkey=$( { cat "$CACHE/src$KSFX-$tree/stamp"; echo "$tools"; "$compiler" --version | head -1;
		    echo "$BOOT_CONFIG $route $hash"; } | sha256sum | cut -c1-16)
	if [ "$(cat "$O/dirkey" 2>/dev/null)" != "$dirkey" ]; then
		rm -rf "$O"
		mkdir -p "$O" && echo "$dirkey" > "$O/dirkey"
	fi
	rm -rf "$img"
	cat "${frags[@]}" > "$O/allconfig.frag"
	log "$name/$mode: configuring from $base (${mk[*]})"
	if [ "$base" = allnoconfig ]; then
		(cd "$O" && "${mk[@]}" KCONFIG_ALLCONFIG="$O/allconfig.frag" allnoconfig)
	else
		# defconfig, then our fragments on top (the last assignment wins).
		(cd "$O" && "${mk[@]}" defconfig && cat "$O/allconfig.frag" >> "$O/.config" &&
		 "${mk[@]}" olddefconfig)
	fi > "$O/config-$mode.log" 2>&1 || { log "$name/$mode: config failed, see $O/config-$mode.log"; return 1; }
	local -a want=("${frags[@]}")
	[ "$BOOT_CONFIG" = small ] && want=("$(cfg common.config)" "$(cfg "$arch.config")" "$cfifrag")
	want+=("${mfrags[@]}")
	[ "$BOOT_CONFIG" = small ] && [ -n "$row" ] && want+=("$row")
	# A plain row shares the architecture's fragment with the CFI rows;
	# what Kconfig offers only with CFI_CLANG (FineIBT) cannot survive there.
	if [ "$route" = plain ]; then
		without_cfi_only "${want[@]}" > "$O/want-plain.frag"
		want=("$O/want-plain.frag")
	fi
	check_config "$O/.config" "${want[@]}" ||
		{ log "$name/$mode: the fragments did not survive Kconfig"; return 1; }
	log "$name/$mode: building ${targets[*]}"
	local t0=$SECONDS
	(cd "$O" && timeout "$BOOT_BUILD_TIMEOUT" "${mk[@]}" "${targets[@]}") \
		> "$O/build-$mode.log" 2>&1 ||
		{ log "$name/$mode: build failed or timed out (${BOOT_BUILD_TIMEOUT}s), last lines of $O/build-$mode.log:";
		  tail -n 25 "$O/build-$mode.log" >&2; return 1; }
	local built=$((SECONDS - t0))
	if [ -n "$module" ]; then
		# An Image-only build leaves the exports in vmlinux.symvers; an
		# external module build reads Module.symvers.
		[ -f "$O/Module.symvers" ] || cp "$O/vmlinux.symvers" "$O/Module.symvers" || return 1
		rm -rf "$module" && mkdir -p "$module" && cp "$here"/module/* "$module"/ || return 1
		(cd "$O" && timeout 600 "${mk[@]}" M="$module" modules) > "$O/module-$mode.log" 2>&1 ||
			{ log "$name/$mode: test module build failed:"; tail -n 25 "$O/module-$mode.log" >&2; return 1; }
		[ "$route" = cc ] && { extmod_compiler "$O" "$module" "$mode" "${mk[@]}" || return 1; }
	fi
	log "$name/$mode: built in $built s"
	mkdir -p "$img" && cp "$O/$ARCH_IMAGE" "$img/image" && cp "$O/vmlinux" "$img/vmlinux" &&
		cp "$O/.config" "$img/config" && echo "$built" > "$img/build-seconds" || return 1
	if [ -n "$BOOT_DEB" ]; then
		# After the build, not beside it: bindeb-pkg runs make in the
		# same tree.  Its packages land beside the build directory.
		rm -f "$BUILDS"/*.deb "$BUILDS"/*.buildinfo "$BUILDS"/*.changes
		(cd "$O" && timeout "$BOOT_BUILD_TIMEOUT" "${mk[@]}" bindeb-pkg) > "$O/bindeb-pkg-$mode.log" 2>&1 &&
		mkdir -p "$img/debs" && mv "$BUILDS"/linux-*.deb "$img/debs/" ||
			{ log "$name/$mode: bindeb-pkg failed, see $O/bindeb-pkg-$mode.log"; return 1; }
	fi
	if [ "$BOOT_CONFIG" = defconfig ]; then
		# images/MODE/modules/lib/modules/<release>/, stripped, for
		# make distro-check; modules-full/ keeps the unstripped ones.
		(cd "$O" && "${mk[@]}" INSTALL_MOD_PATH="$img/modules" INSTALL_MOD_STRIP=1 modules_install &&
		 "${mk[@]}" INSTALL_MOD_PATH="$img/modules-full" modules_install) \
			> "$O/modules-install-$mode.log" 2>&1 ||
			{ log "$name/$mode: modules_install failed, see $O/modules-install-$mode.log"; return 1; }
	fi
	if [ $mismatch = yes ]; then
		# Only the mismatches boot; the sources go along for the judge's
		# markers.
		cp "$module/kcfi_mismatch.ko" "$module"/kcfi_mismatch_*.c "$img/" || return 1
	elif [ -n "$module" ]; then
		cp "$module/kcfi_test.ko" "$img/kcfi_test.ko" || return 1
	fi
	# objtool's findings, offsets dropped, for the comparison with plain gcc.
	strip_offsets() { sed -E "s|$O/||g; s|$SRC/||g; s/\\+0x[0-9a-f]+//g"; }
	grep -hE '(warning|error): objtool' "$O/build-$mode.log" | strip_offsets | sort -u > "$img/objtool.txt"
	# The ones where the linker's placement alone decides whether objtool
	# speaks (boot/objtool-layout.sh): judged now, while vmlinux.o is
	# this mode's.
	: > "$img/objtool-layout.txt"
	if [ -s "$img/objtool.txt" ] && [ -f "$O/vmlinux.o" ]; then
		grep -hE 'warning: objtool: .*relocation to !ENDBR' "$O/build-$mode.log" |
			bash "$here/objtool-layout.sh" "$O/vmlinux.o" > "$img/objtool-judged.txt"
		awk -F '\t' '$1 == "layout" { print $2 }' "$img/objtool-judged.txt" | strip_offsets |
			sort -u > "$img/objtool-layout.txt"
	fi
	echo "$key" > "$img/key"
}

# ---- main -------------------------------------------------------------------
need_tools || exit 1
need_source || { log "cannot get linux-source-$BOOT_KERNEL"; exit 1; }
for t in gen_init_cpio; do
	[ -x "$CACHE/tools/$t" ] && [ "$CACHE/tools/$t" -nt "$TARBALL" ] && continue
	prepare_tree cc || exit 1
	mkdir -p "$CACHE/tools" && gcc -O2 -o "$CACHE/tools/$t" "$SRC/usr/$t.c" || exit 1
done

results=()
explains=()
status=0
for line in $MATRIX; do
	IFS=: read -r name arch route hash modes <<< "$line"
	case " $BOOT_ARCHES " in *" $arch "*) ;; *) continue ;; esac
	if [ -n "${BOOT_VARIANTS:-}" ]; then
		case " $BOOT_VARIANTS " in *" $name "*) ;; *) continue ;; esac
	fi
	tree=$route
	case $route in plain|clang) tree=cc ;; esac
	# (and Debian's configuration built by plain gcc: its comparison)
	if { [ "$route" = clang ] || { [ "$BOOT_CONFIG" = debian-cloud ] && [ "$route" = plain ]; }; } &&
	   [ -z "${BOOT_BUILD_ONLY:-}" ]; then
		log "$name: built only for make distro-check (BOOT_BUILD_ONLY)"
		continue
	fi
	why=$(kernel_lacks "$arch" "$route")
	if [ -n "$why" ]; then
		log "$name: skipped on Linux $BOOT_KERNEL: $why"
		results+=("$(printf '%-19s %-10s %-5s %-6s %-19s %-10s %-7s %5ss %-4s %s' \
			"$name" "${modes//,/+}" no - - - - 0 SKIP "$why")")
		continue
	fi
	# The plain build only serves the objtool comparison: needless when
	# objtool had nothing to say about ours.
	if [ "$route" = plain ] && [ -z "${BOOT_BUILD_ONLY:-}" ] && [ -f "$BUILDS/$arch/images/strict/objtool.txt" ] &&
	   [ ! -s "$BUILDS/$arch/images/strict/objtool.txt" ]; then
		log "$name: skipped, objtool reported nothing on the kcfi-gcc build"
		continue
	fi
	for mode in ${modes//,/ }; do
		if [ -n "${BOOT_MODES:-}" ]; then
			case " $BOOT_MODES " in *" $mode "*) ;; *) continue ;; esac
		fi
		t0=$SECONDS
		built=no booted=- report=- typeid=- matched=- verdict=FAIL PROOF=-
		if [ "$mode" = extmod ]; then
			# Not a kernel: the ids of an external module (extmod_ids).
			built=n/a booted=n/a
			prepare_tree "$tree" && extmod_ids "$name" "$arch" "$route" "$hash" && verdict=PASS
		elif prepare_tree "$tree" && build_variant "$name" "$arch" "$route" "$hash" "$mode"; then
			built=yes
			if [ -n "${BOOT_BUILD_ONLY:-}" ]; then
				booted=n/a verdict=PASS PROOF="built only (BOOT_BUILD_ONLY)"
			elif [ "$route" = plain ]; then
				# Not booted: only objtool's findings matter (compared below).
				booted=n/a verdict=PASS PROOF="objtool lines: $(wc -l < "$BUILDS/$name/images/$mode/objtool.txt")"
			else
				run_variant "$name" "$arch" "$hash" "$mode"
				# run_variant sets booted report typeid matched verdict
				# (and MISMATCH_SAID on a boot with kcfi_mismatch.ko)
				[ -z "$MISMATCH_SAID" ] || explains+=("$MISMATCH_SAID")
				# Every KCFI kernel: kcfi-audit finds no unchecked
				# branch in code kcfi-as instrumented (boot/lib.sh).
				kcfi_audit "$BUILDS/$name/images/$mode/vmlinux" || verdict=FAIL
				if [ "$BOOT_CONFIG" = debian-cloud ]; then
					# and every module, as installed before stripping.
					img=$BUILDS/$name/images/$mode
					kcfi_audit_modules "$img/modules-full" "$img/modules.audit" || verdict=FAIL
					modload_table "$OUT/$arch/modules-debian-cloud.log" > "$OUT/$arch/modules-debian-cloud.table"
					log "$name: built in $(cat "$img/build-seconds") s; $(head -1 "$OUT/$arch/modules-debian-cloud.table"), table in $OUT/$arch/modules-debian-cloud.table"
				fi
			fi
		fi
		[ "$verdict" = PASS ] || status=1
		results+=("$(printf '%-19s %-10s %-5s %-6s %-19s %-10s %-7s %5ss %-4s %s' \
			"$name" "$mode" "$built" "$booted" "$report" "$typeid" "$matched" \
			"$((SECONDS - t0))" "$verdict" "$PROOF")")
		# Real FineIBT semantics: the same kernel with cfi=fineibt rewrites
		# every preamble and checked caller into FineIBT's form (the check
		# then happens in the callee; without IBT hardware ENDBR is a NOP).
		# Linux 6.12 writes each FineIBT caller in two pokes with interrupts
		# on in between (cfi_rewrite_callers: template, then hash), so an
		# interrupt can meet a half-written caller and trap with the
		# template's id, 0x12345678, whatever the compiler; such a boot is
		# retried (at most 5 boots; measured here: 2 of 7 boots met it) and the
		# retries are shown.  The defconfig profile's kernel, and the small
		# profile's permissive one (its deliberate mismatches explained
		# under FineIBT too).
		if [ -z "${BOOT_BUILD_ONLY:-}" ] && { [ "$BOOT_CONFIG" = defconfig ] || { [ "$BOOT_CONFIG" = small ] && [ "$mode" = permissive ]; }; } &&
		   [ "$arch" = x86_64 ] && [ "$route" = cc ] && [ $built = yes ] &&
		   grep -qx CONFIG_FINEIBT=y "$BUILDS/$name/images/$mode/config"; then
			t0=$SECONDS
			fc=$OUT/$arch/console-fineibt.log
			[ "$mode" = permissive ] && fc=$OUT/$arch/console-permissive-fineibt.log
			for try in 1 2 3 4 5; do
				run_variant "$name" "$arch" "$hash" "$mode" fineibt
				[ "$verdict" = PASS ] && break
				grep -q 'expected type: 0x12345678)' "$fc" || break
				cp "$fc" "${fc%.log}-race$try.log"
				log "$name/$mode+fineibt: boot $try met 6.12's FineIBT rewrite race (${fc##*/} -> ${fc%.log}-race$try.log); again"
			done
			[ -z "$MISMATCH_SAID" ] || explains+=("$MISMATCH_SAID")
			PROOF="$PROOF boots=$try"
			[ "$verdict" = PASS ] || status=1
			results+=("$(printf '%-19s %-10s %-5s %-6s %-19s %-10s %-7s %5ss %-4s %s' \
				"$name" "$mode+fineibt" "$built" "$booted" "$report" "$typeid" "$matched" \
				"$((SECONDS - t0))" "$verdict" "$PROOF")")
		fi
	done
done
echo
echo "boot-check summary, Linux $BOOT_KERNEL (consoles: $OUT/<arch>/console[-<variant>][-permissive].log)"
printf '%-19s %-10s %-5s %-6s %-19s %-10s %-7s %6s %-4s %s\n' \
	variant mode built booted "CFI report" "type id" matched time pass "KCFI in vmlinux"
for r in "${results[@]}"; do echo "$r"; done
# The permissive rows' deliberate mismatches, explained (boot/mismatch-judge.sh;
# explanations in $OUT/<arch>/explain-permissive[-fineibt].txt).
for r in "${explains[@]}"; do echo "mismatches: $r"; done
# Both x86_64 routes built: they must compile C with the same options.
# Defconfig: objtool may say nothing about our x86_64 build that it does not
# say about plain gcc's build of the same configuration.
a=$BUILDS/x86_64/images/strict/objtool.txt b=$BUILDS/x86_64-plain/images/strict/objtool.txt
if [ "$BOOT_CONFIG" = defconfig ] && [ -f "$a" ] && [ ! -s "$a" ]; then
	echo "objtool: no warning on kcfi-gcc's x86_64 build"
elif [ "$BOOT_CONFIG" = defconfig ] && [ -f "$a" ] && [ -f "$b" ]; then
	comm -23 "$a" "$b" > "$OUT/objtool-extra.txt"
	# Extra warnings that the placement of code alone explains (see
	# boot/objtool-layout.sh) are shown with the reason and do not fail.
	layout=${a%/*}/objtool-layout.txt
	if [ -s "$layout" ] && [ -s "$OUT/objtool-extra.txt" ]; then
		comm -12 "$OUT/objtool-extra.txt" "$layout" > "$OUT/objtool-layout.txt"
		comm -23 "$OUT/objtool-extra.txt" "$layout" > "$OUT/objtool-extra.tmp" &&
			mv "$OUT/objtool-extra.tmp" "$OUT/objtool-extra.txt"
		if [ -s "$OUT/objtool-layout.txt" ]; then
			echo "objtool: $(wc -l < "$OUT/objtool-layout.txt") warning(s) beyond plain gcc's come from code placement only (a relocation that reads past the end of the object it names):"
			awk -F '\t' '$1 == "layout" { print "    " $2 "  [" $3 "]" }' "${a%/*}/objtool-judged.txt"
		fi
	fi
	if [ ! -s "$OUT/objtool-extra.txt" ]; then
		echo "objtool: nothing on kcfi-gcc's x86_64 build beyond plain gcc's ($(wc -l < "$b") line(s) there) that code placement does not explain"
	else
		echo "objtool: FAIL: kcfi-gcc's x86_64 build draws warnings plain gcc's does not:"
		sed 's/^/    /' "$OUT/objtool-extra.txt"
		status=1
	fi
elif [ "$BOOT_CONFIG" = defconfig ] && [ -f "$a" ]; then
	echo "objtool: FAIL: $(wc -l < "$a") warning(s) on kcfi-gcc's x86_64 build and no plain" \
	     "build to compare with (BOOT_VARIANTS=x86_64-plain)"
	status=1
fi
a=$BUILDS/x86_64 b=$BUILDS/x86_64-as-xxhash64
if [ -f "$a/init/.main.o.cmd" ] && [ -f "$b/init/.main.o.cmd" ]; then
	route_flags "$a" > "$OUT/route-flags.cc" && route_flags "$b" > "$OUT/route-flags.as"
	if [ "$(wc -l < "$OUT/route-flags.cc")" -ge 20 ] &&
	   diff "$OUT/route-flags.cc" "$OUT/route-flags.as" > "$OUT/route-flags.diff"; then
		echo "routes: make CC=kcfi-gcc and make AS=kcfi-as compile init/main.o with the same flags"
	else
		echo "routes: FAIL: make AS=kcfi-as compiles with other flags than make CC=kcfi-gcc:"
		sed 's/^/    /' "$OUT/route-flags.diff"
		status=1
	fi
fi
[ ${#results[@]} -gt 0 ] || { echo "boot-check: nothing selected"; status=1; }
exit $status
