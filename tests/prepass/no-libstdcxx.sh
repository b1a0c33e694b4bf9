# SPDX-License-Identifier: GPL-2.0-or-later
# cc1 links libstdc++ statically; a plugin that needs libstdc++.so makes
# every compilation load and relocate it (about 1.5 ms a file on the
# reference machine).  The plugin uses nothing from it: keep it that way.
. "$top_srcdir/tests/prepass/lib.sh"
READELF=${READELF:-readelf}
command -v "$READELF" >/dev/null 2>&1 || skip "no readelf"

"$READELF" -d "$KCFI_PLUGIN" >"$T/dynamic" 2>&1
check "the plugin has a dynamic section" grep -q '(NEEDED)' "$T/dynamic"
check "the plugin needs no libstdc++.so" sh -c "! grep -E 'NEEDED.*libstdc\+\+' '$T/dynamic'"
"$READELF" --dyn-syms -W "$KCFI_PLUGIN" >"$T/syms" 2>&1
check "the plugin refers to no libstdc++ symbol" \
	sh -c "! grep -E ' UND .*@(GLIBCXX|CXXABI)_' '$T/syms'"
finish
