#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian 12 packages kcfi-as needs to build and to run its tests.
# Usage: scripts/install-deps.sh [--with-boot] [--with-bench]
# (as root, or with sudo available)
set -eu

# Build: autotools, the grammar generators, PCRE2, the native plugin headers;
# GCC 11 with its g++ and plugin headers for kcfi-gcc-11 (make check-gcc11);
# for kcfi-audit elfutils' libelf and libdw, the capstone disassembler and
# libiberty's demangler (kcfi-audit --explain and --mismatches write types
# as C; a static library only).
BUILD="build-essential autoconf automake pkg-config flex bison libpcre2-dev
gcc-12-plugin-dev binutils gcc-11 g++-11 gcc-11-plugin-dev
libelf-dev libdw-dev libcapstone-dev libiberty-dev"
# Oracles and runners for the tests: Clang with FNV-1a (22) and xxHash64 (19)
# type ids, objdump/readelf from binutils, qemu-user for foreign binaries,
# Clang's sanitizer and libFuzzer runtimes (make check-fuzz-proto, fuzz-asm);
# valgrind, bc and time (/usr/bin/time) for the tests and `make bench` (xz-utils too);
# GCC's torture suite (gcc-12-source); ccache (tests/e2e/ccache.sh);
# gnuplot for kcfi-audit --plot (tests/audit/targets.sh); distcc, whose
# distccd the distributed builds test runs on 127.0.0.1 (tests/e2e/distcc.sh);
# debhelper and lintian for make deb and make deb-check (tests/deb/); the
# tools that walk every debug section of a program, which kcfi-as's records
# must not upset (tests/e2e/debug-tools.sh): dwz, gdb, elfutils' eu-readelf.
# csmith and its headers: random C programs, their calls turned into calls
# through function pointers, for the differential campaigns against
# miscompiles (tests/miscompile/mover.sh, make miscompile-check); procps's
# pgrep (tests/e2e/output-paths.sh waits for its FIFO reader).
# i386 (tests/e2e/i386.sh): the i686 cross compiler, its plugin headers and
# libc, which link the 32-bit programs; Debian's gcc-multilib and
# libc6-dev-i386 would do as well but conflict with the other cross compilers.
TEST="clang-22 clang-19 lld-22 qemu-user gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu
gcc-arm-linux-gnueabihf gcc-12-plugin-dev-aarch64-linux-gnu
gcc-12-plugin-dev-riscv64-linux-gnu gcc-12-plugin-dev-arm-linux-gnueabihf
libc6-dev-arm64-cross libc6-dev-riscv64-cross libc6-dev-armhf-cross
gcc-i686-linux-gnu gcc-12-plugin-dev-i686-linux-gnu libc6-dev-i386-cross
libclang-rt-19-dev libclang-rt-22-dev valgrind bc time gcc-12-source xz-utils ccache
gnuplot-nox distcc debhelper lintian dwz gdb elfutils procps csmith libcsmith-dev"
# Boot matrix: Debian's Linux 6.12 and Debian 12's own 6.1 (BOOT_KERNEL=6.1),
# the kernel build's tools, QEMU for the boot matrix's architectures.
# BOOT_CONFIG=debian-cloud: Debian's configuration (linux-config-6.12), pahole
# for its BTF (dwarves), openssl to sign its modules, depmod (kmod).  A static
# busybox for the initramfs of debian-cloud (its modprobe) and of make
# kselftest-check, whose install step needs rsync and whose programs link
# static libraries (libcap for seccomp, popt for mqueue, libelf's zlib and
# zstd for BPF's test_verifier); for another architecture it builds busybox,
# libcap and popt from Debian's sources (busybox's is a .tar.bz2).  make
# distro-check: debootstrap for its Debian 12 image, e2fsprogs' mkfs.ext4 -d,
# ssh-keygen (openssh-client) for the image's key.
BOOT="linux-source-6.12 linux-source-6.1 bc libelf-dev libssl-dev qemu-system-x86 qemu-system-arm
qemu-system-misc xz-utils cpio patch linux-config-6.12 dwarves openssl kmod busybox-static
rsync libcap-dev libpopt-dev libzstd-dev zlib1g-dev bzip2 debootstrap e2fsprogs openssh-client"
# make bench-binutils: binutils' sources and its suites' runner; make
# bench-kernel: Clang 19 with its linker and tools for the Clang kernels,
# valgrind and qemu-user for the per-call counts.
# make bench-runtime: stress-ng and QEMU for the workloads in booted kernels;
# its TCG plugin is built against qemu-plugin.h from Debian's qemu source
# package (apt-get source), so a deb-src entry is added where none is.
BENCH="binutils-source dejagnu texinfo clang-19 lld-19 llvm-19 valgrind qemu-user time
stress-ng qemu-system-x86"

pkgs="$BUILD $TEST"
for a in "$@"; do
	case $a in
	--with-boot) pkgs="$pkgs $BOOT" ;;
	--with-bench) pkgs="$pkgs $BENCH" with_bench=yes ;;
	*) echo "install-deps: unknown option $a" >&2; exit 2 ;;
	esac
done

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
if [ "${with_bench:-}" = yes ] &&
   ! grep -rqsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
	echo "install-deps: adding a deb-src entry for $codename (bench-runtime's qemu-plugin.h)"
	printf '%s\n' "Types: deb-src" "URIs: http://deb.debian.org/debian" \
		"Suites: $codename $codename-updates" "Components: main" \
		"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" "" \
		"Types: deb-src" "URIs: http://deb.debian.org/debian-security" \
		"Suites: $codename-security" "Components: main" \
		"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" |
		$SUDO tee /etc/apt/sources.list.d/kcfi-deb-src.sources > /dev/null
	$SUDO apt-get update -qq
fi

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
[ -z "$missing" ] && { echo "install-deps: all packages present"; exit 0; }

echo "install-deps: installing$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
