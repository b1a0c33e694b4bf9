#!/bin/bash
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
#                     "tinyconfig"
#   KCFI_BOOT_CACHE   where the tree is unpacked (as boot-check.sh)
#   DOC_ROUTE_TIMEOUT seconds for the whole route (default 1800, defconfig 5400)
# What must hold: every command succeeds, CONFIG_CFI_CLANG survives
# configuration, the build log names no orphan section (Linux makes orphans
# errors under CONFIG_WERROR, as x86_64's defconfig has it, and warnings
# otherwise), and kcfi-audit finds the kernel instrumented with 0 unchecked.
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
log() { printf 'doc-route: %s\n' "$*" >&2; }
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
fi
tarball=$(sed -nE 's/.*tar -xf ([^ ]+).*/\1/p' <<< "$setup" | head -1)
[ -f "$tarball" ] || fail "$tarball (named in doc/kernel.md 1) is missing: apt-get install linux-source-6.12"

if [ -z "${KCFI_BOOT_CACHE:-}" ]; then
	KCFI_BOOT_CACHE=/var/cache/kcfi-boot
	mkdir -p "$KCFI_BOOT_CACHE" 2>/dev/null && [ -w "$KCFI_BOOT_CACHE" ] ||
		KCFI_BOOT_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/kcfi-boot
fi
work=$KCFI_BOOT_CACHE/doc-route-$PROFILE
rm -rf "$work" && mkdir -p "$work" || fail "cannot make $work"
printf '%s\n' "$setup" "$build" > "$work/commands.sh"
log "running doc/kernel.md 1-2 ($PROFILE) in $work; commands in $work/commands.sh, output in $work/build.log"
t0=$SECONDS
(cd "$work" && PATH="$KCFI_BUILDDIR:$PATH" timeout "$DOC_ROUTE_TIMEOUT" bash -e -x commands.sh) \
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
readelf -SW "$tree/vmlinux" | grep -q ' \.debug_srcinfo ' || fail "vmlinux has no .debug_srcinfo (kcfi-as's records)"
cfi=$(nm "$tree/vmlinux" | grep -c ' __cfi_')
[ "$cfi" -ge 1000 ] || fail "only $cfi __cfi_ preambles in vmlinux"

OUT=$work CROSS= KARCH=x86_64 PROOF=
. "$here/lib.sh"
kcfi_audit "$tree/vmlinux" || fail "kcfi-audit:$PROOF (report: $tree/vmlinux.audit)"
echo "doc-route $PROFILE: PASS in ${secs}s: CFI_CLANG=y, no orphan section, __cfi_=$cfi,$PROOF"
