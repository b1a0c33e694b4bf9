# SPDX-License-Identifier: GPL-2.0-or-later
# -g3 records every macro definition in the debug info (and -dD prints
# them), GCC's predefined ones included.  The plugin's two predefined
# macros must be there like GCC's own, and work the same, with or without
# -g3.  (They were once defined before that machinery was ready, and every
# -g3 compilation crashed.)
. "$top_srcdir/tests/prepass/lib.sh"
READELF=${READELF:-readelf}
command -v "$READELF" >/dev/null 2>&1 || skip "no readelf"

cat >"$T/use.c" <<'C'
#include <stdio.h>
int main (void)
{
  printf ("%s %#010x\n", __builtin_linux_abi_kcfi_name (void (int)),
	  __builtin_linux_abi_kcfi_hash (void (int)));
  return 0;
}
C
want=$("$top_builddir/kcfi-typeid" 'void (int)' | awk '{ print $2, $1 }')

for o in -O0 -O2; do
	for g in -g0 -g3; do
		check "compiles with $g at $o" \
			"$KCFI_GCC" -fsanitize=kcfi $g $o -o "$T/use$g$o" "$T/use.c"
		check "the macros give the type's name and id with $g at $o" \
			sh -c "test \"\$('$T/use$g$o')\" = '$want'"
	done
	check "-g3 records the macros as it records GCC's predefined ones at $o" \
		sh -c "'$READELF' --debug-dump=macro '$T/use-g3$o' > '$T/macro$o' &&
		grep -q 'lineno : 0 macro : __STDC__ 1\$' '$T/macro$o' &&
		grep -q 'lineno : 0 macro : __builtin_linux_abi_kcfi_name(...) ' '$T/macro$o' &&
		grep -q 'lineno : 0 macro : __builtin_linux_abi_kcfi_hash(...) ' '$T/macro$o'"
done

$CC -fplugin="$KCFI_PLUGIN" -E -dD "$T/use.c" >"$T/dD.i" 2>"$T/dD.err"
check "-dD prints both definitions" \
	sh -c "quiet() { test ! -s \"\$1\"; }; quiet '$T/dD.err' &&
	grep -q '^#define __builtin_linux_abi_kcfi_name(...) ' '$T/dD.i' &&
	grep -q '^#define __builtin_linux_abi_kcfi_hash(...) ' '$T/dD.i'"
finish
