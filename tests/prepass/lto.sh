# SPDX-License-Identifier: GPL-2.0-or-later
# LTO: cc1 writes no directives into slim objects but plants
# .kcfi_require_plugin; lto1 with the plugin writes .kcfi_version and the
# types cc1 computed; lto1 without it leaves the guard alone.
. "$top_srcdir/tests/prepass/lib.sh"

cd "$T" || exit 1
cp "$SRC/preamble.c" a.c
printf 'void ext_taken (void) { }\nint ext_called (int v) { return v; }\n' >b.c
P=-fplugin=$KCFI_PLUGIN

no_directives() { lacks '^[[:space:]]*\.kcfi_' "$1"; }
$CC $P -flto -O2 -S -o slim.s a.c 2>slim.err
check "slim LTO assembly carries no directive" no_directives slim.s
$CC $P -flto -O2 -c a.c b.c 2>objs.err
check "cc1 is quiet under -flto" sh -c "test ! -s objs.err"

# Linking runs lto1, then the assembler.  Plain as would refuse the
# directives (and so stop the other partitions): -B puts a stand-in first
# that assembles nothing.  -save-temps keeps the ltrans assembly; the link
# itself then fails for want of code, which is fine here.
mkdir -p fakeas
printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && o=$2; shift; done\nexec %s -o "$o" /dev/null\n' \
	"$(command -v as)" >fakeas/as
chmod +x fakeas/as
link() {	# DIR FLAGS...
	d=$1
	shift
	mkdir -p "$d" &&
	(cd "$d" && $CC -B../fakeas/ "$@" -O2 -save-temps -o prog ../a.o ../b.o >link.log 2>&1)
	! grep -E 'lto1: |error: kcfi' "$d/link.log"
}
with_plugin() {
	set -- "$1"/*.ltrans.s
	[ -f "$1" ] || { echo "no ltrans assembly"; return 1; }
	for s; do
		has '\.kcfi_version 1, ' "$s" && wellformed "$s" || return 1
	done
	cat "$@" >all.s
	# Whole-program LTO localises what nobody else can reach: pub_fn loses
	# its preamble, the address-taken ones keep theirs.
	has '\.kcfi_require_plugin' all.s &&
	has '\.kcfi_func st_taken(\.lto_priv\.[0-9]+)?, [0-9]+$' all.s &&
	has '\.kcfi_func ext_taken, [0-9]+$' all.s &&
	has '\.kcfi_func custom_sym, [0-9]+$' all.s &&
	equal 3 "$(count '\.kcfi_call [0-9]+' all.s)" "checked calls"
}
link one $P -flto
check "lto1 with the plugin" with_plugin one
link many $P -flto -flto-partition=max
check "lto1 with the plugin, one partition per function" with_plugin many
link none -flto
check "lto1 without the plugin keeps only the guard" sh -c \
	"cat none/*.ltrans.s >none.s && grep -q kcfi_require_plugin none.s && ! grep -q kcfi_version none.s"

# Types come from cc1: typedef names and char survive streaming.
externs() {	# FILE.s...: "NAME TYPE" of every .kcfi_extern
	for f; do
		sed -n 's/^[[:space:]]*\.kcfi_extern \([^,]*\), \([0-9]*\)$/\1 \2/p' "$f" |
		while read -r name id; do echo "$name $(tag "$id" "$f")"; done
	done | sort
}
cp "$SRC/types.c" t.c
printf 'int main (void) { return 0; }\n' >m.c
$CC $P -O2 -S -o plain.s t.c
$CC $P -flto -O2 -c t.c m.c
mkdir -p tl && (cd tl && $CC -B../fakeas/ $P -flto -O2 -save-temps -o prog ../t.o ../m.o >/dev/null 2>&1)
check "LTO prints the types cc1 would" equal "$(externs plain.s)" "$(externs tl/*.ltrans.s)"

# The prefix is per function under LTO; .kcfi_version must not lie.
$CC $P -flto -O2 -fpatchable-function-entry=4,2 -c -o pfe-a.o a.c
$CC $P -flto -O2 -fpatchable-function-entry=4,2 -c -o pfe-b.o b.c
prefix_link() {	# DIR FLAGS...
	d=$1
	shift
	mkdir -p "$d" && (cd "$d" && $CC -B../fakeas/ $P -flto -O2 "$@" \
		-save-temps -o prog ../pfe-a.o ../pfe-b.o >link.log 2>&1)
}
prefix_link pfe-same -fpatchable-function-entry=4,2
check "LTO with the same prefix" sh -c \
	"grep -q 'prefix=2\$' pfe-same/*.ltrans.s && ! grep -q 'error: kcfi' pfe-same/link.log"
prefix_link pfe-lost
check "LTO that loses the prefix is refused" \
	grep -q "error: kcfi: .* has 2 patchable NOPs before its entry, but this unit declares 0" pfe-lost/link.log

$CC $P -flto -ffat-lto-objects -O2 -S -o fat.s a.c 2>fat.err
check "fat LTO assembly is annotated" sh -c \
	"test ! -s fat.err && grep -q '\.kcfi_version' fat.s && grep -q kcfi_require_plugin fat.s"
check "fat LTO assembly keeps the contract" wellformed fat.s
finish
