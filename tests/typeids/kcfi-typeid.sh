#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-typeid: ids against values Clang and rustc produce (doc/abi.md 5),
# target data models, error columns, stdin, options and the manual.
. "$top_srcdir/tests/lib.sh"
KT=$top_builddir/kcfi-typeid

# same NAME EXPECTED-OUTPUT ARGS...
same() {
	name=$1 want=$2; shift 2
	got=$("$KT" "$@" 2>&1)
	if [ "$got" = "$want" ]; then pass "$name"; else fail "$name: want '$want', got '$got'"; fi
}

# FNV-1a computed independently (tests/lib.sh), from the mangled name.
same "tasklet callback, pointer form" "$(fnv1a _ZTSFvP7taskletE) _ZTSFvP7taskletE" \
	'void (*)(struct tasklet *)'
same "function and pointer give one id" "$("$KT" 'void (struct tasklet *)')" 'void (* const)(struct tasklet *t)'
# xxHash64 values Clang 19 emits
same "xxhash64 int (int)" "0x00050794 _ZTSFiiE" --hash=xxhash64 'int (int)'
same "Clang spelling of the hash" "0xa540670c _ZTSFvvE" --hash=xxHash64 'void (void)'
same "xxhash64 normalized" "0x454a91cb _ZTSFvu3i32E.normalized" --hash=xxhash64 --normalize-integers 'void (int)'
same "non-function type: typeinfo" "$(fnv1a _ZTSA10_PKc) _ZTSA10_PKc" 'const char *[10]'
same "unprototyped" "$(fnv1a _ZTSFiE) _ZTSFiE unprototyped" 'int ()'
# void (struct s11636896 *) hashes to ENDBR32's encoding under xxHash64
same "ENDBR adjustment shown on x86" "0xfb1e0ff3 _ZTSFvP9s11636896E (x86: 0xfb1e0ff4)" \
	--hash=xxhash64 'void (struct s11636896 *)'
same "no ENDBR adjustment off x86" "0xfb1e0ff3 _ZTSFvP9s11636896E" \
	--target=aarch64-linux-gnu --hash=xxhash64 'void (struct s11636896 *)'

# data models: plain char and long under normalization
n=--normalize-integers
same "x86_64 char is signed" "$(fnv1a _ZTSFvu2i8E.normalized) _ZTSFvu2i8E.normalized" $n 'void (char)'
same "aarch64 char is unsigned" "$(fnv1a _ZTSFvu2u8E.normalized) _ZTSFvu2u8E.normalized" \
	--target=aarch64-linux-gnu $n 'void (char)'
same "riscv64 char is unsigned" "$(fnv1a _ZTSFvu2u8E.normalized) _ZTSFvu2u8E.normalized" \
	--target=riscv64-linux-gnu $n 'void (char)'
same "arm32 long is 32 bits" "$(fnv1a _ZTSFvu3i32u2u8E.normalized) _ZTSFvu3i32u2u8E.normalized" \
	--target=arm-linux-gnueabihf $n 'void (long, char)'
same "i686 long is 32 bits" "$(fnv1a _ZTSFvu3u32E.normalized) _ZTSFvu3u32E.normalized" \
	--target=i686-linux-gnu $n 'void (unsigned long)'
# i386 calling conventions Clang 22 -m32 encodes (its preambles carry these)
same "fastcall is a vendor qualifier, clang-22 -m32's 0xece17120" "0xece17120 _ZTSU8fastcallFiiiE" \
	--target=i686-linux-gnu 'int (int, int) __attribute__((fastcall))'
same "stdcall, clang-22 -m32's 0xf4d40a84" "0xf4d40a84 _ZTSU7stdcallFiiiE" \
	--target=i686-linux-gnu 'int (*)(int, int) __attribute__((__stdcall__))'
same "x86_64 long is 64 bits" "$(fnv1a _ZTSFvu3i64S_E.normalized) _ZTSFvu3i64S_E.normalized" \
	$n 'void (long, long long)'

# cfi_salt: the salt after a dot, also through a pointer (the id a call
# checks); Clang 22's xxHash64 value; printed escapes; x86 address spaces
salted='void (void) __attribute__((cfi_salt("kvm")))'
same "salted function type" "$(fnv1a _ZTSFvvE.kvm) _ZTSFvvE.kvm" "$salted"
same "pointer to a salted function: the call's id" "$(fnv1a _ZTSFvvE.kvm) _ZTSFvvE.kvm" \
	'void (*)(void) __attribute__((cfi_salt("kvm")))'
same "salted, Clang 22 xxHash64" "0xe40af68f _ZTSFviE.kvm" --hash=xxhash64 \
	'void (int) __attribute__((cfi_salt("kvm")))'
same "salt before .normalized" "$(fnv1a _ZTSFvu3i32E.kvm.normalized) _ZTSFvu3i32E.kvm.normalized" \
	--normalize-integers 'void (int) __attribute__((cfi_salt("kvm")))'
same "salt bytes that are not printable" "$(printf '_ZTSFvvE.a\n\\b' | od -An -tu1 -v | {
	h=2166136261; for b in $(cat); do h=$(( ((h ^ b) * 16777619) & 0xffffffff )); done; printf '0x%08x' $h; }) _ZTSFvvE.a\\012\\134b" \
	'void (void) __attribute__((cfi_salt("a\n\\b")))'
same "__seg_gs" "$(fnv1a _ZTSFvPU5AS256KiE) _ZTSFvPU5AS256KiE" 'void (const __seg_gs int *)'
same "__seg_fs" "$(fnv1a _ZTSFvPU5AS257iE) _ZTSFvPU5AS257iE" 'void (__seg_fs int *)'
same "address_space(N)" "$(fnv1a _ZTSFvPU3AS7iE) _ZTSFvPU3AS7iE" 'void (__attribute__((address_space(7))) int *)'
"$KT" 'void (void) __attribute__((cfi_salt("a\0b")))' > /dev/null 2> "$T/err"
grep -q 'argument 1:39: error: a cfi_salt string cannot contain a NUL byte' "$T/err" &&
	pass "a NUL in a salt is an error" || fail "NUL in a salt: $(cat "$T/err")"
"$KT" 'void (__seg_gs __seg_fs int *)' > /dev/null 2> "$T/err"
grep -q 'argument 1:16: error: multiple address spaces specified for type' "$T/err" &&
	pass "two address spaces are an error" || fail "two address spaces: $(cat "$T/err")"

# stdin: blank lines skipped, one line out per type
out=$(printf 'void (int)\n\n  \nint (int)\n' | "$KT")
[ "$(printf '%s\n' "$out" | awk '{ print $2 }' | tr '\n' ' ')" = "_ZTSFviE _ZTSFiiE " ] &&
	pass "stdin" || fail "stdin: $out"

# errors: named place, column, caret under it; status 1; good ones still printed
"$KT" 'void (int)' 'void (int' > "$T/out" 2> "$T/err"
rc=$?
[ $rc -eq 1 ] && pass "bad type exits 1" || fail "bad type exited $rc"
grep -q '^0x.* _ZTSFviE$' "$T/out" && pass "good argument still printed" || fail "good argument lost"
grep -q 'argument 2:10: error: ' "$T/err" && pass "error names argument and column" ||
	fail "error place: $(cat "$T/err")"
[ "$(sed -n 3p "$T/err")" = "             ^" ] && pass "caret under column 10" ||
	fail "caret: $(cat "$T/err")"
printf 'void (int)\nlong float (void)\n' | "$KT" > /dev/null 2> "$T/err"
grep -q '<stdin>:2:6: error: ' "$T/err" && pass "stdin error names line and column" ||
	fail "stdin error: $(cat "$T/err")"

# options and manual
"$KT" --hash=md5 'void (void)' > /dev/null 2>&1; [ $? -eq 2 ] && pass "bad hash exits 2" || fail "bad hash"
"$KT" --target=sparc64-linux-gnu 'void (void)' > /dev/null 2>&1
[ $? -eq 2 ] && pass "unknown target exits 2" || fail "unknown target"
"$KT" --help > "$T/help" && grep -q '^SYNOPSIS' "$T/help" && grep -q -- '--normalize-integers' "$T/help" &&
	grep -q '^EXIT STATUS' "$T/help" && pass "--help is a manual" || fail "--help"
finish
