#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A row without CFI (x86_64-plain, arm64-plain: make distro-check's gcc
# kernels) shares its architecture's fragments with the CFI rows, and
# Kconfig drops what only CFI_CLANG offers.  boot/lib.sh's without_cfi_only
# is what boot-check holds such a row to: on the defconfig profile's real
# fragments and on a .config as Kconfig leaves it without CFI, the check
# passes with it and fails without it, and nothing but the CFI-only options
# is taken out.
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null || skip "bash not found"
C=$top_srcdir/boot/config

# in_lib FUNCTION ARGS...: a function of boot/lib.sh.
in_lib() {
	bash -c 'log() { echo "log: $*"; }; . "$0/boot/lib.sh"; "$@"' "$top_srcdir" "$@"
}

frags="$C/defconfig/common.config $C/defconfig/x86_64.config $C/defconfig/distro.config"
cat $frags > "$T/all.frag"
grep -q '^CONFIG_FINEIBT=y' "$T/all.frag" || fail "the x86_64 defconfig fragment no longer asks for FineIBT: this test must find another CFI-only option"
# A .config as olddefconfig leaves it without CFI_CLANG: every asked-for
# option but FineIBT, and CFI's own options absent.
grep -E '^CONFIG_[A-Z0-9_]+=' "$T/all.frag" | grep -v '^CONFIG_FINEIBT=' > "$T/plain.config"
in_lib without_cfi_only $frags > "$T/want.frag"
check "without_cfi_only drops FineIBT" sh -c "! grep -q '^CONFIG_FINEIBT=' '$T/want.frag'"
check "without_cfi_only keeps IBT and retpolines, which do not need CFI" \
	sh -c "grep -qx 'CONFIG_X86_KERNEL_IBT=y' '$T/want.frag' && grep -qx 'CONFIG_MITIGATION_RETPOLINE=y' '$T/want.frag'"
check "only CFI-only lines are taken out" sh -c \
	"[ \$(grep -cE '^CONFIG_' '$T/all.frag') -eq \$((\$(grep -cE '^CONFIG_' '$T/want.frag') + 1)) ]"
check "the plain .config passes against the filtered fragments" in_lib check_config "$T/plain.config" "$T/want.frag"
check "and fails against the fragments as the CFI rows ask for them" sh -c \
	"! bash -c 'log() { echo \"log: \$*\"; }; . \"$top_srcdir/boot/lib.sh\"; check_config \"$T/plain.config\" \"$T/all.frag\"' > '$T/fail.out' && grep -q 'missing: CONFIG_FINEIBT=y' '$T/fail.out'"
printf 'CONFIG_CFI_CLANG=y\nCONFIG_CFI_PERMISSIVE=y\nCONFIG_CFI_ICALL_NORMALIZE_INTEGERS=y\nCONFIG_CFIX=y\n# CONFIG_CFI_PERMISSIVE is not set\n' > "$T/cfi.frag"
check "the CFI_* options go, an option that only starts alike stays" sh -c \
	"[ \"\$(bash -c '. \"$top_srcdir/boot/lib.sh\"; without_cfi_only \"$T/cfi.frag\"' | tr '\n' ' ')\" = 'CONFIG_CFIX=y # CONFIG_CFI_PERMISSIVE is not set ' ]"
finish
