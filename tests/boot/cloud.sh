#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# boot/cloud-lib.sh without a kernel: the configuration delta against
# Debian's file and its allow-list, the initramfs list of a module tree,
# and kcfi_audit_modules on stand-in modules (ld -r of tests/audit/prog.c
# and target.c, plain and xz-compressed as modules_install leaves them): it
# passes them, and fails one with a check removed by hand and one built
# without kcfi-as (no records).
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null || skip "bash not found"

# lib FUNCTION ARGS...: a cloud-lib.sh function as boot-check.sh runs it.
lib() {
	KCFI_BUILDDIR=$top_builddir bash -c '
		log() { echo "log: $*"; }
		here=$1/boot
		. "$here/lib.sh"; . "$here/cloud-lib.sh"
		shift; "$@"; st=$?
		echo "status=$st PROOF=${PROOF:-}"' lib "$top_srcdir" "$@"
}

# ---- config_delta and the allow-list check of cloud_configure ----------------
cat > "$T/debian.config" <<'EOF'
CONFIG_CC_VERSION_TEXT="x86_64-linux-gnu-gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0"
CONFIG_FUNCTION_PADDING_BYTES=16
CONFIG_PREFIX_SYMBOLS=y
# CONFIG_LKDTM is not set
CONFIG_MODULES=y
EOF
cat > "$T/ours.config" <<'EOF'
CONFIG_CC_VERSION_TEXT="gcc (Debian 12.2.0-14+deb12u1) 12.2.0"
CONFIG_FUNCTION_PADDING_BYTES=11
CONFIG_LKDTM=y
CONFIG_MODULES=y
CONFIG_CFI_CLANG=y
# CONFIG_CFI_PERMISSIVE is not set
EOF
lib config_delta "$T/debian.config" "$T/ours.config" > "$T/delta"
printf 'CC_VERSION_TEXT\t"x86_64-linux-gnu-gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0"\t"gcc (Debian 12.2.0-14+deb12u1) 12.2.0"
CFI_CLANG\t(absent)\ty
CFI_PERMISSIVE\t(absent)\tn
FUNCTION_PADDING_BYTES\t16\t11
LKDTM\tn\ty
PREFIX_SYMBOLS\ty\t(absent)
status=0 PROOF=\n' > "$T/delta.want"
check "config_delta: each symbol answered otherwise, (absent) where unmentioned" \
	diff "$T/delta.want" "$T/delta"
grep -v '^status=' "$T/delta" > "$T/delta.tsv"
lib delta_refused "$top_srcdir/boot/config/debian-cloud/delta.tsv" "$T/delta.tsv" > "$T/refused"
check "delta.tsv allows the changes CFI and LKDTM bring" grep -qx 'status=0 PROOF=' "$T/refused"
sed 's/^LKDTM\tn\ty$/LKDTM\tn\tm/' "$T/delta.tsv" > "$T/delta-m.tsv"
printf 'KUNIT\t(absent)\ty\n' >> "$T/delta-m.tsv"
lib delta_refused "$top_srcdir/boot/config/debian-cloud/delta.tsv" "$T/delta-m.tsv" > "$T/refused"
printf '  LKDTM: Debian n, ours m\n  KUNIT: Debian (absent), ours y\nstatus=0 PROOF=\n' > "$T/refused.want"
check "delta.tsv refuses another value and an unlisted symbol" diff "$T/refused.want" "$T/refused"

# Every Kconfig symbol our kernel patches add is a difference from Debian's
# file (which cannot know it): delta.tsv must allow each, or the
# debian-cloud build stops at configuration (it did, when patch 0002 first
# added CFI_GCC_DRIVER and CFI_GCC_ID_FLAGS).
added=$(cat "$top_srcdir"/boot/patches/*/*.patch "$top_srcdir"/boot/patches-as/*/*.patch |
	sed -n 's/^+config \([A-Z0-9_]*\)$/\1/p' | sort -u)
check "the patches add Kconfig symbols (the check below reads them)" test -n "$added"
for sym in $added; do
	check "delta.tsv allows $sym, which boot/patches add" \
		awk -F'\t' -v s="$sym" '$1 == s { found = 1 } END { exit !found }' "$top_srcdir/boot/config/debian-cloud/delta.tsv"
done

# ---- cloud_initramfs_list ---------------------------------------------------
mkdir -p "$T/img/modules-boot/lib/modules/6.12.0/kernel/fs" &&
	: > "$T/img/modules-boot/lib/modules/6.12.0/kernel/fs/a.ko.xz" &&
	: > "$T/img/modules-boot/lib/modules/6.12.0/modules.dep" &&
	ln -s /nowhere "$T/img/modules-boot/lib/modules/6.12.0/build"
if command -v busybox >/dev/null && ! readelf -lW "$(command -v busybox)" | grep -q INTERP; then
	lib cloud_initramfs_list "$T/img" > "$T/list"
	check "initramfs: directories before their files" sh -c "
		grep -n '^dir /lib/modules/6.12.0/kernel/fs ' '$T/list' | cut -d: -f1 > '$T/d' &&
		grep -n '^file /lib/modules/6.12.0/kernel/fs/a.ko.xz $T/img/modules-boot/lib/modules/6.12.0/kernel/fs/a.ko.xz 0644' '$T/list' | cut -d: -f1 > '$T/f' &&
		[ \$(cat '$T/d') -lt \$(cat '$T/f') ]"
	check "initramfs: modules.dep, no build symlink" sh -c "
		grep -q '^file /lib/modules/6.12.0/modules.dep ' '$T/list' && ! grep -q build '$T/list'"
	check "initramfs: busybox is /sbin/modprobe, ttyS1 for the results" sh -c "
		grep -qx 'slink /sbin/modprobe /bin/busybox 0777 0 0' '$T/list' &&
		grep -qx 'nod /dev/ttyS1 0600 0 0 c 4 65' '$T/list' && grep -q '^file /bin/busybox ' '$T/list'"
	# make distro-check's initramfs for Debian's configuration: the same
	# tree, and an /init that loads the root disk's driver
	KCFI_BUILDDIR=$top_builddir bash -c '
		log() { echo "log: $*"; }
		here=$1/boot D=$1/boot/distro
		. "$here/lib.sh"; . "$here/cloud-lib.sh"; . "$here/distro-lib.sh"
		distro_initrd_list "$2"' lib "$top_srcdir" "$T/img" > "$T/dlist"
	check "distro initramfs: /init is ours" grep -qx "file /init $top_srcdir/boot/distro/initramfs-init 0755 0 0" "$T/dlist"
	check "distro initramfs: /dev before anything in it" sh -c "
		d=\$(grep -n '^dir /dev ' '$T/dlist' | cut -d: -f1) &&
		first=\$(grep -nE '^[a-z]+ /dev/' '$T/dlist' | head -1 | cut -d: -f1) &&
		[ -n \"\$d\" ] && [ \"\$d\" -lt \"\$first\" ]"
	check "distro initramfs: the module tree too" grep -q '^file /lib/modules/6.12.0/kernel/fs/a.ko.xz ' "$T/dlist"
else
	echo "note: no static busybox (busybox-static), initramfs list not checked"
fi
check "distro initramfs: its /init is a shell script" sh -n "$top_srcdir/boot/distro/initramfs-init"
check "distro initramfs: /init loads virtio_blk, then switches to systemd" sh -c "
	grep -q 'modprobe virtio_blk' '$top_srcdir/boot/distro/initramfs-init' &&
	grep -q 'switch_root /newroot /sbin/init' '$top_srcdir/boot/distro/initramfs-init'"
lib cloud_initramfs_list "$T/nothing" > "$T/list"
check "initramfs: no module tree, no list" grep -q '^status=1' "$T/list"

# ---- kcfi_audit_modules -----------------------------------------------------
[ -x "$top_builddir/kcfi-audit" ] || { echo "note: kcfi-audit is not built"; finish; }
A=$top_srcdir/tests/audit
K=$T/tree/lib/modules/6.12.0/kernel
mkdir -p "$K/a" "$K/b"
for u in prog target; do
	env -u KCFI_PLUGIN "$top_builddir/kcfi-gcc" -fsanitize=kcfi -O2 -S -o "$T/$u.s" "$A/$u.c" &&
		"$KCFI_AS" --kcfi-no-assemble --kcfi-save="$T/$u.k.s" "$T/$u.s" &&
		as -o "$T/$u.o" "$T/$u.k.s" || fail "building $u.c"
done
ld -r -o "$K/a/one.ko" "$T/prog.o" "$T/target.o" && cp "$K/a/one.ko" "$K/b/two.ko" &&
	xz --check=crc32 "$K/b/two.ko" || fail "stand-in modules"
lib kcfi_audit_modules "$T/tree" "$T/m.audit" > "$T/m.out" 2>&1
check "modules: both pass, the compressed one read decompressed" \
	grep -qE '^status=0 PROOF= modaudit:files=2,checked=4,unchecked=0,outside=0$' "$T/m.out"
check "modules: the report names the installed files" grep -q "^$K/b/two.ko: x86_64: " "$T/m.audit"
# The first check of prog.c taken out: its movl/addl/je/ud2 and trap entry.
awk '/^\tmovl\t\$[0-9]+, %r10d$/ && !done { skip = 1 }
	skip && /\.popsection/ { skip = 0; done = 1; next } skip { next } { print }' "$T/prog.k.s" > "$T/nocheck.s"
as -o "$T/nocheck.o" "$T/nocheck.s" && ld -r -o "$K/a/three.ko" "$T/nocheck.o" "$T/target.o" || fail "tampered module"
lib kcfi_audit_modules "$T/tree" "$T/m.audit" > "$T/m.out" 2>&1
check "modules: a check removed: fails, counted and listed" sh -c "
	grep -qE '^status=1 PROOF= modaudit:files=3,checked=5,unchecked=1,' '$T/m.out' &&
	grep -q '^log: kcfi-audit: 1 of 3 modules' '$T/m.out' && grep -q '^$K/a/three.ko: ' '$T/m.audit.bad'"
rm -f "$K/a/three.ko"
gcc -O2 -w -c -o "$T/plain.o" "$A/prog.c" && ld -r -o "$K/a/plain.ko" "$T/plain.o" || fail "plain module"
lib kcfi_audit_modules "$T/tree" "$T/m.audit" > "$T/m.out" 2>&1
check "modules: one built without kcfi-as (no records) fails" sh -c "
	grep -q '^status=1 ' '$T/m.out' && grep -q '^$K/a/plain.ko: ' '$T/m.audit.bad'"
rm -f "$K/a/plain.ko"
# A module of tables only (crypto/cast_common, fs/nls/nls_ucs2_utils): no
# code, so no functions to instrument, and it passes; one with code but no
# records still fails (plain.ko above).
printf 'const int table[4] = { 1, 2, 3, 4 };\n' > "$T/data.c"
env -u KCFI_PLUGIN "$top_builddir/kcfi-gcc" -fsanitize=kcfi -O2 -c -o "$T/data.o" "$T/data.c" &&
	ld -r -o "$K/a/data.ko" "$T/data.o" && xz --check=crc32 "$K/a/data.ko" || fail "data-only module"
lib kcfi_audit_modules "$T/tree" "$T/m.audit" > "$T/m.out" 2>&1
check "modules: a module with no code passes, counted as codeless" \
	grep -qE '^status=0 PROOF= modaudit:files=3,checked=4,unchecked=0,outside=0,codeless=1$' "$T/m.out"
lib kcfi_audit_modules "$T/empty" "$T/m.audit" > "$T/m.out" 2>&1
check "modules: no module at all fails" grep -q '^status=1 PROOF= modaudit:files=0' "$T/m.out"
finish
