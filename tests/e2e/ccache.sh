#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# CC="ccache kcfi-gcc": a cached object is reused only while the plugin and
# kcfi-as are the same bytes (driver/tool-witness.c).  Real ccache with its
# default settings (direct mode), and in preprocessor mode: the second
# compile hits; after one byte of the plugin or of kcfi-as changes, the next
# compile misses and its object is the new tools' output; then it hits again.
. "$top_srcdir/tests/e2e/lib.sh"
command -v ccache >/dev/null || skip "ccache is not installed (scripts/install-deps.sh)"

# A private copy of the tools in the build tree's layout, so that their
# bytes can be changed without touching the build.
# Same names as in the build: kcfi-gcc-11 and prepass/plugins/TRIPLE/gcc-11/
# under make check-gcc11 (kcfi-gcc picks the plugin by its own name).
tree=$T/tree
drv=$tree/$(basename "$KCFI_GCC")
plug=prepass/plugins/${KCFI_PLUGIN#*/prepass/plugins/}
mkdir -p "$tree/asmpass/bin" "$(dirname "$tree/$plug")"
cp "$KCFI_GCC" "$drv"
cp "$KCFI_AS" "$tree/kcfi-as"
ln -s ../../kcfi-as "$tree/asmpass/bin/as"
cp "$KCFI_PLUGIN" "$tree/$plug"
unset KCFI_PLUGIN CCACHE_DISABLE CCACHE_NODIRECT CCACHE_RECACHE
export CCACHE_DIR="$T/ccache" CCACHE_CONFIGPATH="$T/ccache.conf" XDG_CACHE_HOME="$T/xdg"
: > "$CCACHE_CONFIGPATH"

cat > "$T/t.c" <<'C'
int apply(int (*fp)(int), int x) { return fp(x); }
C

# compile: one ccache compile; prints hit or miss from ccache's counters.
compile() {
	ccache -z >/dev/null
	(cd "$T" && ccache "$drv" -fsanitize=kcfi -O2 -c t.c -o t.o) || { echo error; return; }
	ccache --print-stats | awk -F'\t' '
		$1 ~ /^(direct|preprocessed)_cache_hit$/ { hit += $2 }
		$1 == "cache_miss" { miss += $2 }
		END { print (hit == 1 && miss == 0) ? "hit" : (miss == 1 && hit == 0) ? "miss" : "hit=" hit "/miss=" miss }'
}
# The object carries the check kcfi-as wrote (not a plain gcc object).
checked() { "$OBJDUMP" -d "$T/t.o" | grep -q 'ud2'; }
# Witness headers are found by name in a fresh cache dir; an old ccache
# file's mtime must not make the changed file look "too new" forever.
age() { touch -d '-1 hour' "$@"; }

for mode in direct preprocessor; do
	rm -rf "$CCACHE_DIR"
	if [ $mode = preprocessor ]; then export CCACHE_NODIRECT=1; fi
	age "$T/t.c" "$drv" "$tree/kcfi-as" "$tree/$plug"
	equal miss "$(compile)" "$mode: first compile" && pass "$mode: first compile misses" ||
		fail "$mode: first compile misses"
	check "$mode: its object is checked" checked
	# ccache files nothing whose include files are younger than the compile.
	age "$XDG_CACHE_HOME"/kcfi-gcc/* 2>/dev/null
	r=$(compile); r=$(compile)
	check "$mode: the same compile hits ($r)" equal hit "$r"

	for tool in "$plug" kcfi-as; do
		printf '\0' >> "$tree/$tool"
		age "$tree/$tool"
		r=$(compile)
		check "$mode: after one more byte in $tool the compile misses ($r)" equal miss "$r"
		check "$mode: and its object is checked" checked
		age "$XDG_CACHE_HOME"/kcfi-gcc/* 2>/dev/null
		r=$(compile); r=$(compile)
		check "$mode: then the same compile hits again ($r)" equal hit "$r"
	done
	unset CCACHE_NODIRECT
done

# kcfi-gcc without -fsanitize=kcfi adds nothing to a preprocessing run.
"$drv" -E "$T/t.c" > "$T/plain.i"
check "without -fsanitize=kcfi, -E output names no tool" sh -c "! grep -q 'kcfi\.so\|/tools-' '$T/plain.i'"
# -E -P (as the kernel's linker scripts use it) prints the source alone.
"$drv" -fsanitize=kcfi -E -P "$T/t.c" > "$T/p.i"
check "-E -P prints nothing of the witness" sh -c "! grep -q 'line\|kcfi\.so' '$T/p.i'"
finish
