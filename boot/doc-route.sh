#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The documented kernel route, as a new user follows it: the shell blocks of
# doc/kernel.md sections 1 and 2 (untar, the patch it names, make CC=kcfi-gcc
# ...), run as they are written in a fresh directory, with this build tree's
# kcfi-gcc first on PATH.  The harness (boot-check.sh) applies its own patch
# series and fragments; this test shares none of that, so a step the
# documentation leaves out fails here even when the boot matrix passes.
#
# Usage: boot/doc-route.sh    (normally `make doc-route-check`)
# Environment:
#   KCFI_BUILDDIR     kcfi-as build tree (default: the directory above this script)
#   DOC_ROUTE_CONFIG  defconfig: the commands exactly as written (x86_64);
#                     small (default, CI): the same with the one word
#                     "defconfig" of the configuration step read as
#                     "tinyconfig", and ARCH=x86_64 in the environment
#   KCFI_BOOT_CACHE   where the tree is unpacked (as boot-check.sh)
#   DOC_ROUTE_TIMEOUT seconds for the whole route (default 1800, defconfig 5400)
# What must hold: every command succeeds, CONFIG_CFI_CLANG survives
# configuration, the build log names no orphan section (Linux makes orphans
# errors under CONFIG_WERROR, as x86_64's defconfig has it, and warnings
# otherwise), and kcfi-audit finds the kernel instrumented with 0 unchecked;
# the defconfig kernel then boots to our init (boot/init.c) under QEMU.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
KCFI_BUILDDIR=$(cd "${KCFI_BUILDDIR:-$top}" && pwd)
DOC=$top/doc/kernel.md
PROFILE=${DOC_ROUTE_CONFIG:-small}
case $PROFILE in
small) DOC_ROUTE_TIMEOUT=${DOC_ROUTE_TIMEOUT:-1800} ;;
defconfig) DOC_ROUTE_TIMEOUT=${DOC_ROUTE_TIMEOUT:-5400} ;;
*) echo "doc-route: DOC_ROUTE_CONFIG must be small or defconfig, not '$PROFILE'" >&2; exit 2 ;;
esac
. "$here/lib.sh"
log() { printf 'doc-route: [%s] %s\n' "$(elapsed)" "$*" >&2; }
fail() { log "FAIL: $*"; echo "doc-route $PROFILE: FAIL: $*"; exit 1; }

[ "$(uname -m)" = x86_64 ] || { echo "doc-route: the documented native route is x86_64's"; exit 77; }
[ -x "$KCFI_BUILDDIR/kcfi-gcc" ] || fail "no kcfi-gcc in $KCFI_BUILDDIR (build kcfi-as first)"

# block HEADING: the first ```sh block under the level-2 heading that starts
# with HEADING, without its fences.
block() {
	awk -v h="$1" 'index($0, h) == 1 { on = 1; next }
		on && /^## / { exit }
		on && /^```sh$/ { inb = 1; next }
		inb && /^```$/ { exit }
		inb { print }' "$DOC"
}
setup=$(block '## 1. ') build=$(block '## 2. ')
[ -n "$setup" ] || fail "doc/kernel.md: no sh block under '## 1.'"
[ -n "$build" ] || fail "doc/kernel.md: no sh block under '## 2.'"
# The only thing the reader is told to replace: where kcfi-as lives.
grep -q /path/to/kcfi-as <<< "$setup" || fail "doc/kernel.md 1 no longer names /path/to/kcfi-as"
setup=${setup//\/path\/to\/kcfi-as/$top}
if [ "$PROFILE" = small ]; then
	grep -qx 'make CC=kcfi-gcc defconfig' <<< "$build" ||
		fail "doc/kernel.md 2 has no line 'make CC=kcfi-gcc defconfig' to read as tinyconfig"
	build=$(sed 's/^make CC=kcfi-gcc defconfig$/make CC=kcfi-gcc tinyconfig/' <<< "$build")
	# Without ARCH, kbuild's ARCH is "x86", where allnoconfig (under
	# tinyconfig) answers no to 64BIT: a 32-bit kernel, which has no KCFI.
	export ARCH=x86_64
fi
tarball=$(sed -nE 's/.*tar -xf ([^ ]+).*/\1/p' <<< "$setup" | head -1)
[ -f "$tarball" ] || fail "$tarball (named in doc/kernel.md 1) is missing: apt-get install linux-source-6.12"

boot_cache || fail "no cache directory"
work=$CACHE/doc-route-$PROFILE
rm -rf "$work" && mkdir -p "$work" || fail "cannot make $work"
printf '%s\n' "$setup" "$build" > "$work/commands.sh"
log "running doc/kernel.md 1-2 ($PROFILE) in $work; commands in $work/commands.sh, output in $work/build.log"
t0=$SECONDS
# Under sh, Debian's dash, as a reader's shell runs them: bash would expand
# a glob in a redirection (patch -p1 < 0001-*.patch) that dash does not.
(cd "$work" && PATH="$KCFI_BUILDDIR:$PATH" timeout "$DOC_ROUTE_TIMEOUT" sh -e -x commands.sh) \
	> "$work/build.log" 2>&1
rc=$?
secs=$((SECONDS - t0))
if [ $rc -ne 0 ]; then
	tail -n 25 "$work/build.log" >&2
	[ $rc -eq 124 ] && fail "timed out after ${DOC_ROUTE_TIMEOUT}s"
	fail "a documented command failed (exit $rc) after ${secs}s; see $work/build.log"
fi
tree=$work/$(sed -nE 's/.*&& cd ([^ ]+).*/\1/p' <<< "$setup" | head -1)
[ -f "$tree/vmlinux" ] || fail "no vmlinux in $tree"
[ -f "$tree/arch/x86/boot/bzImage" ] || fail "no bzImage in $tree"
grep -qx CONFIG_CFI_CLANG=y "$tree/.config" || fail "CONFIG_CFI_CLANG did not survive configuration"
orphans=$(grep -c 'orphan section' "$work/build.log")
[ "$orphans" -eq 0 ] || { grep -m5 'orphan section' "$work/build.log" >&2; fail "$orphans orphan-section line(s) in the build log"; }
readelf -SW "$tree/vmlinux" | grep -q ' \.debug ' || fail "vmlinux has no .debug (kcfi-as's records)"
cfi=$(nm "$tree/vmlinux" | grep -c ' __cfi_')
[ "$cfi" -ge 1000 ] || fail "only $cfi __cfi_ preambles in vmlinux"

OUT=$work CROSS= KARCH=x86_64 PROOF=
kcfi_audit "$tree/vmlinux" || fail "kcfi-audit:$PROOF (report: $tree/vmlinux.audit)"
# A defconfig kernel also boots (tinyconfig has no console to read): our
# init under QEMU with 2 CPUs must run, with no CFI failure and no warning
# on the way.  The user's kernel has no LKDTM, so nothing is provoked.
booted=
if [ "$PROFILE" = defconfig ]; then
	arch_vars x86_64 && mkdir -p "$CACHE/tools" || fail "no QEMU settings for x86_64"
	[ -x "$CACHE/tools/gen_init_cpio" ] || gcc -O2 -o "$CACHE/tools/gen_init_cpio" "$tree/usr/gen_init_cpio.c" ||
		fail "cannot build gen_init_cpio"
	initramfs x86_64 "$work/initramfs.cpio" || fail "cannot build the initramfs"
	log "booting the kernel (console $work/console.log)"
	timeout 600 "${QEMU[@]}" -smp 2 -m 1024 -accel tcg -display none -monitor none \
		-serial "file:$work/console.log" -no-reboot -kernel "$tree/arch/x86/boot/bzImage" \
		-initrd "$work/initramfs.cpio" -append "console=$CONSOLE panic=-1 $EXTRA_APPEND" \
		> "$work/qemu.log" 2>&1
	grep -q 'kcfi-boot: init running' "$work/console.log" || fail "the kernel never ran init (see $work/console.log)"
	grep -Eq 'smp: Brought up [0-9]+ nodes?, 2 CPUs' "$work/console.log" || fail "2 CPUs did not come up"
	bad=$(grep -E 'CFI failure|WARNING:|BUG:|Oops' "$work/console.log" | head -1)
	[ -z "$bad" ] || fail "on the console: $bad"
	booted=", booted to init on 2 CPUs with no CFI failure or warning"
fi
echo "doc-route $PROFILE: PASS in ${secs}s: CFI_CLANG=y, no orphan section, __cfi_=$cfi,$PROOF$booted"
