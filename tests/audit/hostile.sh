#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-audit --targets on truncated and bit-flipped ELF files (an object,
# the same without its records, and a shared library from kcfi-gcc; i386
# and arm objects): every
# run ends with exit status 0, 1 or 2, never a
# signal or a sanitizer report (with --enable-sanitizers this runs under
# ASan/UBSan, exit 86), and exit 2 always comes with "kcfi-audit: FILE:
# error: ...".  The mutations are pseudo-random but fixed (awk's srand(N)), so
# a failure repeats; HOSTILE_SEED=N tries others.
. "$top_srcdir/tests/audit/lib.sh"
case ${NATIVE_TRIPLE:-} in
x86_64-*) ;;
*) skip "x86_64 objects, not ${NATIVE_TRIPLE:-unknown}" ;;
esac
[ -f "${KCFI_PLUGIN:-}" ] || skip "the plugin is not built"
SEED=${HOSTILE_SEED:-17}

# dwarf.o: prog.o without kcfi-as's records, so that --targets takes the
# type names from the DWARF (audit/dwarf-names.c) and that path meets the
# mutations too.
"$KCFI_GCC" -fsanitize=kcfi -O2 -g -c -o "$T/prog.o" "$A/prog.c" &&
	"$KCFI_GCC" -fsanitize=kcfi -O2 -shared -fPIC -nostartfiles -o "$T/lib.so" "$A/prog.c" "$A/target.c" &&
	objcopy --remove-section=.debug "$T/prog.o" "$T/dwarf.o" ||
	{ fail "building the inputs"; finish; }

bad=0 runs=0 errors=0
# one FILE: run kcfi-audit on a mutated FILE and judge how it ended.
one() {
	runs=$((runs + 1))
	"$AUDIT" --targets "$1" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -gt 2 ] || grep -q 'Sanitizer\|runtime error:' "$T/err"; then
		bad=$((bad + 1))
		[ $bad -le 5 ] && { echo "exit $rc on $2:"; head -5 "$T/err"; cp "$1" "$T/../kcfi-audit-crash.$bad" 2>/dev/null; }
	elif [ $rc -eq 2 ]; then
		errors=$((errors + 1))
		grep -q "^kcfi-audit: $1: error: " "$T/err" ||
			{ bad=$((bad + 1)); echo "exit 2 without a message naming the file ($2):"; head -3 "$T/err"; }
	fi
}

# ELF32 too: an i386 object, and arm ones (Thumb-2, ARM state: the
# decoder walks by mapping symbols) when the cross compiler is built.
files="prog.o lib.so dwarf.o"
"$KCFI_GCC" -fsanitize=kcfi -m32 -O2 -c -o "$T/prog32.o" "$A/prog.c" && files="$files prog32.o"
if [ -x "$top_builddir/arm-linux-gnueabihf-kcfi-gcc" ]; then
	for m in thumb arm; do
		env -u KCFI_PLUGIN "$top_builddir/arm-linux-gnueabihf-kcfi-gcc" -fsanitize=kcfi -m$m -O2 \
			-c -o "$T/prog-$m.o" "$A/prog.c" && files="$files prog-$m.o"
	done
fi
for f in $files; do
	size=$(wc -c < "$T/$f")
	# e_shoff: 8 bytes at 40 in ELF64, 4 at 32 in ELF32
	if [ "$(od -An -tu1 -j 4 -N 1 "$T/$f" | tr -d ' ')" = 1 ]; then
		shoff=$(od -An -tu4 -j 32 -N 4 "$T/$f" | tr -d ' ')
	else
		shoff=$(od -An -tu8 -j 40 -N 8 "$T/$f" | tr -d ' ')
	fi
	# Truncations: every 397th length, and each of the last 16 bytes.
	n=0
	while [ $n -lt "$size" ]; do
		head -c $n "$T/$f" > "$T/m"
		one "$T/m" "$f truncated to $n bytes"
		if [ $n -ge $((size - 16)) ]; then n=$((n + 1)); else n=$((n + 397)); fi
	done
	# Byte flips: the ELF header, the section headers, anywhere.
	awk -v seed="$SEED" -v size="$size" -v shoff="$shoff" 'BEGIN {
		srand(seed)
		for (i = 0; i < 20; i++) print int(rand() * 64), int(rand() * 256)
		for (i = 0; i < 50; i++) { p = shoff + int(rand() * (size - shoff)); print p, int(rand() * 256) }
		for (i = 0; i < 60; i++) print int(rand() * size), int(rand() * 256)
	}' > "$T/flips"
	while read -r pos val; do
		cp "$T/$f" "$T/m"
		printf "$(printf '\\%03o' "$val")" | dd of="$T/m" bs=1 seek="$pos" conv=notrunc 2>/dev/null
		one "$T/m" "$f with byte $pos set to $val"
	done < "$T/flips"
done
echo "$runs runs, $errors refused with a message"
check "no crash, no sanitizer report, every refusal names its file ($runs runs)" [ $bad -eq 0 ]
check "the mutations do reach the error paths" [ $errors -gt 20 ]
finish
