# SPDX-License-Identifier: GPL-2.0-or-later
# Every scenario, at every level and with kernel-like options: compiles
# without a message and keeps the directive contract (check-asm.awk).
. "$top_srcdir/tests/prepass/lib.sh"

KERNELISH="-O2 -mcmodel=kernel -mindirect-branch=thunk-extern -mindirect-branch-register -mfunction-return=thunk-extern -fcf-protection=branch -mharden-sls=all -fpatchable-function-entry=16,16 -fno-pic -g"
for f in preamble union-calls shared-calls nosan-inline nosan-spellings \
	 jumps icf direct-calls types codegen; do
	for o in $OPT_LEVELS "-O2 -g" "-O2 -fno-optimize-sibling-calls" \
		 "-O2 -fpic" "-O2 -fno-plt -fpic" "-O3 -funroll-all-loops" \
		 "-O2 -freorder-blocks-and-partition" "$KERNELISH"; do
		s=$T/$f.s
		kcc "$s" "$SRC/$f.c" $o -std=gnu2x -Wall -Wno-unused-variable
		check "$f.c $o" compiled "$s"
	done
done
finish
