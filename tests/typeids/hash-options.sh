#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-as --kcfi-hash / --kcfi-normalize-integers: the __kcfi_typeid_ value
# of `void (int)` in each mode, against values Clang and rustc
# produce (doc/abi.md 5), and option errors.
. "$top_srcdir/tests/lib.sh"

cat > "$T/t.s" <<'S'
	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0
	.kcfi_type 1, "void (int)"
	.kcfi_extern ext, 1
	.text
S

# mode NAME WANT OPTIONS...
mode() {
	name=$1 want=$2; shift 2
	if ! "$KCFI_AS" "$@" -o "$T/t.o" "$T/t.s" 2> "$T/err"; then
		fail "$name: kcfi-as failed: $(cat "$T/err")"; return
	fi
	got=$(nm -P "$T/t.o" | awk '$1 == "__kcfi_typeid_ext" { print $3 }')
	got=$(printf '0x%08x' "0x${got:-0}")
	[ "$got" = "$want" ] && pass "$name: $got" || fail "$name: got $got, want $want"
}
mode "default is FNV-1a" 0x70e35def
mode "--kcfi-hash=fnv1a" 0x70e35def --kcfi-hash=fnv1a
mode "--kcfi-hash=FNV-1a (Clang's spelling)" 0x70e35def --kcfi-hash=FNV-1a
mode "--kcfi-hash=xxhash64" 0x019c0cac --kcfi-hash=xxhash64
mode "--kcfi-hash=xxHash64 (Clang's spelling)" 0x019c0cac --kcfi-hash=xxHash64
mode "FNV-1a normalized" 0xe802e9ef --kcfi-normalize-integers
mode "xxHash64 normalized" 0x454a91cb --kcfi-hash=xxhash64 --kcfi-normalize-integers
[ "$(fnv1a _ZTSFviE)" = 0x70e35def ] && pass "FNV-1a value is FNV-1a(_ZTSFviE)" || fail "fnv1a helper"

"$KCFI_AS" --kcfi-hash=md5 -o "$T/x.o" "$T/t.s" > "$T/out" 2>&1
[ $? -ne 0 ] && grep -q "unknown hash 'md5'" "$T/out" && pass "unknown hash rejected" ||
	fail "unknown hash: $(cat "$T/out")"
finish
