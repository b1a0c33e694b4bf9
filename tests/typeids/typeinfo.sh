#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# __builtin_linux_abi_kcfi_name/_hash in C compiled with kcfi-gcc: run-time
# checks of names and hashes (typeinfo/names.c) at -O0 and -O2, with both
# hashes, with LTO.  Misuse: tests/prepass/typeinfo-misuse.sh.
. "$top_srcdir/tests/lib.sh"
dir=$top_srcdir/tests/typeids/typeinfo
[ -f "$KCFI_PLUGIN" ] || skip "no plugin for $NATIVE_TRIPLE"

# run NAME FLAGS...: compile names.c with FLAGS, run it
run() {
	name=$1; shift
	if ! "$KCFI_GCC" -fsanitize=kcfi -std=gnu11 -Wall -Werror "$@" "$dir/names.c" \
		-o "$T/names" > "$T/cc.out" 2>&1; then
		fail "$name: does not compile"; sed 's/^/    /' "$T/cc.out" | head -20
		return
	fi
	if "$T/names" > "$T/run.out" 2>&1 && grep -q ' passed, 0 failed' "$T/run.out"; then
		pass "$name: $(tail -1 "$T/run.out")"
	else
		fail "$name"; sed 's/^/    /' "$T/run.out" | head -20
	fi
}
run "-O0" -O0
run "-O2" -O2
run "-O2 -fPIE" -O2 -fPIE -pie
run "-O2 xxHash64" -O2 -fsanitize-kcfi-hash=xxHash64 -DKCFI_XXHASH
run "-O2 -flto" -O2 -flto
run "-O2 Clang's FNV-1a spelling" -O2 -fsanitize-kcfi-hash=FNV-1a

"$KCFI_GCC" -fsanitize=kcfi -fsanitize-kcfi-hash=md5 -c "$dir/names.c" -o "$T/x.o" > "$T/bad.out" 2>&1
[ $? -ne 0 ] && grep -q "unknown -fsanitize-kcfi-hash 'md5'" "$T/bad.out" &&
	pass "unknown hash spelling rejected" || fail "unknown hash spelling: $(cat "$T/bad.out")"

# The name of a function type is the string the id is the hash of,
# normalization suffix included.
cat > "$T/norm.c" <<'C'
#include <stdio.h>
int main(void)
{
	printf("%s %08x\n", __builtin_linux_abi_kcfi_name(void (int)), __builtin_linux_abi_kcfi_hash(void (int)));
	return 0;
}
C
if "$KCFI_GCC" -fsanitize=kcfi -fsanitize-cfi-icall-experimental-normalize-integers -fsanitize-kcfi-hash=xxHash64 \
	-O2 "$T/norm.c" -o "$T/norm" && [ "$("$T/norm")" = "_ZTSFvu3i32E.normalized 454a91cb" ]; then
	pass "normalized xxHash64 void (int) is Clang's 0x454a91cb"
else
	fail "normalized: $("$T/norm" 2>&1)"
fi

# -E then compile the .i: the macros expand in the first step only
if "$KCFI_GCC" -fsanitize=kcfi -save-temps=obj -O2 "$T/norm.c" -o "$T/norm2" > "$T/st.out" 2>&1 &&
   [ "$("$T/norm2")" = "$(printf '_ZTSFviE %s' "$(fnv1a _ZTSFviE | cut -c3-)")" ]; then
	pass "-save-temps"
else
	fail "-save-temps"; sed 's/^/    /' "$T/st.out" | head
fi

# kcfi-as on its own: .kcfi_typeinfo defines a 4-aligned local object, id
# then name, and a type it cannot read is an error pointing into the line.
cat > "$T/ti.s" <<'S'
	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0
	.text
	.globl	f
f:
	leaq	obj(%rip), %rax
	ret
	.kcfi_typeinfo obj, "void (struct tasklet *)"
S
if "$KCFI_AS" -o "$T/ti.o" "$T/ti.s" 2> "$T/ti.err"; then
	want="$(fnv1a _ZTSFvP7taskletE | cut -c3-)"
	# .rodata: the id little-endian, then the string
	objcopy -O binary --only-section=.rodata "$T/ti.o" "$T/ro.bin"
	got=$(head -c 4 "$T/ro.bin" | od -An -tx1 | tr -d ' \n')
	le=$(printf '%s' "$want" | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/')
	if [ "$got" = "$le" ] && [ "$(tail -c +5 "$T/ro.bin" | tr -d '\0')" = _ZTSFvP7taskletE ] &&
	   objdump -t "$T/ti.o" | grep -q '^0000000000000000 l .*\.rodata.* obj$'; then
		pass ".kcfi_typeinfo: local object, id 0x$want, then the name"
	else
		fail ".kcfi_typeinfo object: $(objdump -s -t "$T/ti.o")"
	fi
else
	fail ".kcfi_typeinfo rejected: $(cat "$T/ti.err")"
fi
# Salted function types (cfi_salt) and x86 address spaces: names and
# hashes, the salted hash checked against an independent FNV-1a of
# "_ZTSFviE.kvm" and against Clang 22's xxHash64 of it.
salt_run() {
	name=$1 salted=$2 plain=$3; shift 3
	if ! "$KCFI_GCC" -fsanitize=kcfi -std=gnu11 -Wall -Werror "$@" "$dir/salt.c" -o "$T/salt" \
		> "$T/cc.out" 2>&1; then
		fail "$name: does not compile"; sed 's/^/    /' "$T/cc.out" | head -20
	elif "$T/salt" "$salted" "$plain" > "$T/run.out" 2>&1 && grep -q ' passed, 0 failed' "$T/run.out"; then
		pass "$name: $(tail -1 "$T/run.out")"
	else
		fail "$name"; sed 's/^/    /' "$T/run.out" | head -20
	fi
}
salt_run "salts and address spaces, FNV-1a" "$(fnv1a _ZTSFviE.kvm)" "$(fnv1a _ZTSFviE)" -O2
salt_run "salts and address spaces, xxHash64" 0xe40af68f 0x019c0cac -O2 -fsanitize-kcfi-hash=xxHash64

sed 's/"void (struct tasklet \*)"/"void (struct tasklet *"/' "$T/ti.s" > "$T/bad.s"
if ! "$KCFI_AS" -o "$T/bad.o" "$T/bad.s" 2> "$T/bad.err" && grep -q 'bad.s:7:[0-9]*: error: ' "$T/bad.err"; then
	pass "bad .kcfi_typeinfo type is an error at its line"
else
	fail "bad .kcfi_typeinfo: $(cat "$T/bad.err")"
fi
finish
