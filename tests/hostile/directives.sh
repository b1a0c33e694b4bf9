#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Malformed directives: unterminated strings, numbers out of range, unknown
# versions, keys and directives.  Each is refused at its line (and column),
# or, where plain GNU as would accept the input, assembled the same way.
. "$top_srcdir/tests/hostile/lib.sh"

# bad NAME LINE PATTERN TEXT: the version line, then TEXT (printf format).
bad() { printf "$V\n$4" >"$T/$1.s"; expect_error "$1" "$2" "$3"; }
# badv NAME PATTERN VERSION-LINE: a unit whose first line is VERSION-LINE.
badv() { printf "$3\n" >"$T/$1.s"; expect_error "$1" 1 "$2"; }

# Unterminated strings, with and without a final newline.
bad unterminated-type 2 'unterminated string' '\t.kcfi_type 1, "void (void)\n'
bad unterminated-type-eof 2 'unterminated string' '\t.kcfi_type 1, "void (void)'
bad unterminated-func 3 'unterminated string' '\t.kcfi_type 1, "void (void)"\n\t.kcfi_func "f g, 1\n'
bad unterminated-extern 3 'unterminated string' '\t.kcfi_type 1, "void (void)"\n\t.kcfi_extern "e, 1\n'
bad escaped-quote 2 'unterminated string' '\t.kcfi_type 1, "void (void)\\"\n'
badv unterminated-triple 'unterminated string' '\t.kcfi_version 1, "x86_64-linux-gnu, ptr=64, long=64, char=signed, prefix=0'
# An unterminated .string is the assembler's business: same object as plain as.
printf "$VT\n\t.section .rodata\n\t.string \"abc\n" >"$T/string.s"
sed 1,2d "$T/string.s" >"$T/string-plain.s"
"$KCFI_AS" -o "$T/string.o" "$T/string.s" >"$T/string.err" 2>&1; rc=$?
if sane string $rc; then
	as -o "$T/string-plain.o" "$T/string-plain.s" >/dev/null 2>&1; prc=$?
	if [ $rc -eq $prc ] && ${OBJDUMP:-objdump} -s -j .rodata "$T/string.o" | tail -n +4 >"$T/a" &&
	   ${OBJDUMP:-objdump} -s -j .rodata "$T/string-plain.o" | tail -n +4 >"$T/b" && cmp -s "$T/a" "$T/b"
	then pass "string: as plain as does it"; else fail "string: rc=$rc, plain as rc=$prc, or .rodata differs"; fi
fi

# Numbers: ids are < 2^20; widths 32 or 64; prefix <= 255; no wrap-around.
bad call-id-2p20 3 'number out of range' '\t.kcfi_type 1, "void (void)"\n\t.kcfi_call 1048576\n'
bad call-id-2p32 2 'number out of range' '\t.kcfi_call 4294967297\n'
bad call-id-2p64 2 'number out of range' '\t.kcfi_call 18446744073709551617\n'
bad call-id-negative 2 'expected a decimal number' '\t.kcfi_call -1\n'
bad call-id-hex 2 'unexpected text' '\t.kcfi_call 0x10\n'
bad type-id 2 'number out of range' '\t.kcfi_type 99999999999999999999999, "void (void)"\n'
bad func-id 2 'number out of range' '\t.kcfi_func f, 1048576\n'
bad extern-id 2 'number out of range' '\t.kcfi_extern e, 4294967296\n'
bad undefined-id 2 'which no .kcfi_type defined' '\t.kcfi_call 1048575\n'
badv version-big 'number out of range' '\t.kcfi_version 18446744073709551617, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0'
badv prefix-256 'number out of range' '\t.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=256'
badv prefix-huge 'number out of range' '\t.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=4294967551'
badv ptr-48 'width must be 32 or 64' '\t.kcfi_version 1, "x86_64-linux-gnu", ptr=48, long=64, char=signed, prefix=0'
badv ptr-wrap 'number out of range' '\t.kcfi_version 1, "x86_64-linux-gnu", ptr=18446744073709551680, long=64, char=signed, prefix=0'
badv ptr-32 'no KCFI backend' '\t.kcfi_version 1, "x86_64-linux-gnu", ptr=32, long=32, char=signed, prefix=0'
# Alignment operands GCC never writes: kcfi-as must not misread them into a
# wrong preamble; GNU as refuses them (at their line, thanks to the markers).
printf "$VT\n\t.kcfi_func f, 1\n\t.p2align 99999999999999999999999\nf:\n\tret\n" >"$T/p2align-huge.s"
expect_as_error p2align-huge 4 'bad or irreducible absolute expression'
printf "$VT\n\t.kcfi_func f, 1\n\t.balign 4294967297\nf:\n\tret\n" >"$T/balign-odd.s"
expect_as_error balign-odd 4 'alignment not a power of 2'

# Versions, keys and directives this kcfi-as does not know.
badv version-0 'unsupported .kcfi_version' '\t.kcfi_version 0, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0'
badv version-2 'unsupported .kcfi_version' '\t.kcfi_version 2, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0'
badv version-1000000 'unsupported .kcfi_version' '\t.kcfi_version 1000000, "x86_64-linux-gnu"'
badv version-1.1 "expected ','" '\t.kcfi_version 1.1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0'
badv version-empty 'expected a decimal number' '\t.kcfi_version'
badv unknown-key 'unknown .kcfi_version key' '\t.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0, abi=2'
badv missing-key 'needs ptr=, long=, char= and prefix=' '\t.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed'
badv duplicate-key 'duplicate .kcfi_version key' '\t.kcfi_version 1, "x86_64-linux-gnu", ptr=64, ptr=64, long=64, char=signed, prefix=0'
badv unknown-triple 'no KCFI backend' '\t.kcfi_version 1, "vax-dec-ultrix", ptr=64, long=64, char=signed, prefix=0'
bad duplicate-version 2 'duplicate .kcfi_version' "$V\n"
bad unknown-directive 2 'unknown kcfi directive' '\t.kcfi_frobnicate 1\n'
bad unknown-suffix 2 'unknown kcfi directive' '\t.kcfi_call_uncheckedx\n'
bad unknown-upper 2 'unknown kcfi directive' '\t.kcfi_CALL 1\n'
badv before-version 'before .kcfi_version' '\t.kcfi_type 1, "void (void)"'
bad trailing-text 3 'unexpected text' '\t.kcfi_type 1, "void (void)"\n\t.kcfi_call 1 2\n'
finish
