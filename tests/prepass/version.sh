# SPDX-License-Identifier: GPL-2.0-or-later
# .kcfi_version: first, once, describing the compilation; plugin arguments.
. "$top_srcdir/tests/prepass/lib.sh"

printf 'void (*fp) (long);\nvoid call (void) { fp (1); }\n' >"$T/v.c"
version_is() {
	compiled "$1" &&
	equal 1 "$(count '\.kcfi_version' "$1")" ".kcfi_version lines" &&
	equal "$2" "$(sed -n 's/^[[:space:]]*\.kcfi_version //p' "$1")" "version"
}
kcc "$T/n.s" "$T/v.c" -O2
check "native" version_is "$T/n.s" "1, \"$NATIVE_TRIPLE\", ptr=64, long=64, char=signed, prefix=0"
kcc "$T/u.s" "$T/v.c" -O2 -funsigned-char -fpatchable-function-entry=11,11
check "unsigned char, prefix 11" version_is "$T/u.s" "1, \"$NATIVE_TRIPLE\", ptr=64, long=64, char=unsigned, prefix=11"
kcc "$T/e.s" "$T/v.c" -O2 -fpatchable-function-entry=5
check "entry NOPs only" version_is "$T/e.s" "1, \"$NATIVE_TRIPLE\", ptr=64, long=64, char=signed, prefix=0"
if kcc "$T/m32.s" "$T/v.c" -O2 -m32; then
	check "-m32" version_is "$T/m32.s" "1, \"$NATIVE_TRIPLE\", ptr=32, long=32, char=signed, prefix=0"
fi
if kcc "$T/x32.s" "$T/v.c" -O2 -mx32; then
	check "-mx32" version_is "$T/x32.s" "1, \"$NATIVE_TRIPLE\", ptr=32, long=32, char=signed, prefix=0"
fi

kcc "$T/r.s" "$T/v.c" -O2 -fplugin-arg-kcfi-reserve=6
check "reserve=6 writes five empty statements" \
	has '^[[:space:]]*\.kcfi_call [0-9]+ ; ; ; ; ;$' "$T/r.s"
check "reserve=6 keeps the contract" compiled "$T/r.s"
bad_arg() {
	! $CC -fplugin="$KCFI_PLUGIN" "$1" -S -o "$T/b.s" "$T/v.c" 2>"$T/b.err" &&
	grep -q 'bad plugin argument' "$T/b.err"
}
check "an unknown plugin argument is an error" bad_arg -fplugin-arg-kcfi-frobnicate
check "reserve=0 is an error" bad_arg -fplugin-arg-kcfi-reserve=0
check "stats takes no value" bad_arg -fplugin-arg-kcfi-stats=1
# stats reports the plugin's own time, and changes nothing in the output.
stats_only() {
	$CC -fplugin="$KCFI_PLUGIN" -fplugin-arg-kcfi-stats -O2 -S -o "$T/s.s" "$T/v.c" 2>"$T/s.err" &&
	grep -q "^kcfi: .*v.c: recording types [0-9.]* ms, writing directives [0-9.]* ms (CPU)$" "$T/s.err" &&
	test "$(wc -l < "$T/s.err")" -eq 1 && cmp -s "$T/n.s" "$T/s.s"
}
check "stats reports the two walks' CPU time and changes no output" stats_only

kcc "$T/o.s" "$T/v.c" -O2 -fsyntax-only
check "-fsyntax-only writes nothing" sh -c "test ! -s '$T/o.s'"
# A plugin loaded into a compiler it was not built for is refused by name
# of what differs: a cross compiler's plugin shares GCC's version number
# with the native compiler, so the version alone would not tell them apart.
plugins=$(dirname "$(dirname "$KCFI_PLUGIN")")
case $KCFI_PLUGIN in */gcc-[0-9]*/kcfi.so) plugins=$(dirname "$plugins") ;; esac
wrong_target() {
	! $CC -fplugin="$1" -S -o "$T/w.s" "$T/v.c" 2>"$T/w.err" &&
	# Under another GCC major (make check-gcc11) the version differs first.
	grep -Eq "this plugin \(for $2\) was built for another GCC than this compiler, GCC [^:]*: (their configure options differ, the plugin was configured with .--target=$2. where the compiler was with .--target=|basever is .* in the plugin, )" "$T/w.err" ||
	{ cat "$T/w.err"; false; }
}
for other in i686-linux-gnu aarch64-linux-gnu; do
	[ -f "$plugins/$other/kcfi.so" ] || continue
	# A plugin that needs another target's symbols fails in dlopen, before
	# it can say anything; those GCC reports itself.
	$CC -fplugin="$plugins/$other/kcfi.so" -S -o "$T/w.s" "$T/v.c" 2>"$T/w.err"
	grep -q 'undefined symbol' "$T/w.err" && continue
	check "the plugin for $other names the configuration that differs" wrong_target "$plugins/$other/kcfi.so" "$other"
done
finish
