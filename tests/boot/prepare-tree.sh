#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# boot/lib.sh's prepare_tree when two runs share the cache (a boot matrix
# beside a benchmark): the second must wait for the first's extraction and
# find its stamp, not extract and patch the same tree again underneath it.
# A patch program that takes a second holds the first run inside the
# window; both runs must succeed, with the patch applied once and no .rej.
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null || skip "bash not found"
command -v flock >/dev/null || skip "flock not found"
command -v patch >/dev/null || skip "patch not found"

H=$T/here
mkdir -p "$H/patches/9.9" "$T/src/linux-source-9.9" "$T/bin" "$T/cache"
printf 'line one\nline two\n' > "$T/src/linux-source-9.9/Makefile"
tar -C "$T/src" -cf "$T/linux.tar" linux-source-9.9
cat > "$H/patches/9.9/0001-add.patch" <<'P'
--- a/Makefile
+++ b/Makefile
@@ -1,2 +1,3 @@
 line one
 line two
+line three
P
real=$(command -v patch)
printf '#!/bin/sh\nsleep 1\nexec %s "$@"\n' "$real" > "$T/bin/patch"
chmod +x "$T/bin/patch"

# run N: prepare_tree cc in the shared cache, exit status in $T/rc.N.
run() {
	PATH=$T/bin:$PATH bash -c 'here=$1 CACHE=$2 TARBALL=$3 BOOT_KERNEL=9.9 KVER_PKG=1 KSFX=
		log() { echo "log: $*"; }; . "$0/boot/lib.sh"; prepare_tree cc' \
		"$top_srcdir" "$H" "$T/cache" "$T/linux.tar" > "$T/log.$1" 2>&1
	echo $? > "$T/rc.$1"
}
run 1 & sleep 0.3; run 2 & wait
check "the first run succeeds" grep -qx 0 "$T/rc.1"
check "the second run succeeds" grep -qx 0 "$T/rc.2"
M=$T/cache/src-cc/linux-source-9.9/Makefile
check "the patch is applied once" sh -c "[ \$(grep -c 'line three' '$M') -eq 1 ]"
check "no rejected hunks" sh -c "! find '$T/cache/src-cc' -name '*.rej' | grep -q ."
check "one of the two extracted" sh -c "[ \$(cat '$T/log.1' '$T/log.2' | grep -c '^log: extracting') -eq 1 ]"
# A changed patch series is a new stamp: extracted and patched afresh.
sed -i 's/line three/line 3/' "$H/patches/9.9/0001-add.patch"
run 3
check "a changed series re-extracts" grep -q '^log: extracting' "$T/log.3"
check "and applies the new patch alone" sh -c "grep -qx 'line 3' '$M' && ! grep -q 'line three' '$M'"
finish
