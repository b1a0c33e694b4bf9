#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Misuse of __builtin_linux_abi_kcfi_name/_hash through kcfi-gcc gets the
# errors GCC's built-ins give, no more (issue 14 item 6): every WANT line
# of typeinfo-misuse.c has exactly its errors in order, no other line has
# one, nothing is a warning.  The macros' own follow-on errors are dropped
# by the plugin (prepass/typeinfo-diag.cc), and not counted either.
. "$top_srcdir/tests/prepass/lib.sh"
src=$SRC/typeinfo-misuse.c

# errors_at FILE LINE: the error messages at LINE, one per line, in order
errors_at() { sed -n "s/^[^:]*typeinfo-misuse\.c:$2:[0-9]*: error: //p" "$1"; }

"$KCFI_GCC" -fsanitize=kcfi -c -o "$T/m.o" "$src" >"$T/out" 2>&1
check "misuse does not compile" test $? -ne 0

grep -n '/\* WANT ' "$src" | while IFS=: read -r line text; do
	want=$(printf '%s\n' "${text#*WANT }" | sed 's| \*/$||; s/ | /\n/g')
	got=$(errors_at "$T/out" "$line")
	if [ "$got" = "$want" ]; then
		echo "ok: line $line"
	else
		printf 'FAIL: line %s\n  want: %s\n  got:  %s\n' "$line" "$want" "$got"
		echo x >>"$T/failed"
	fi
done
check "each WANT line has exactly its errors" test ! -f "$T/failed"

wanted=$(grep -n '/\* WANT ' "$src" | cut -d: -f1 | sort -u | tr '\n' ' ')
stray=$(sed -n 's/^[^:]*typeinfo-misuse\.c:\([0-9]*\):[0-9]*: error: .*/\1/p' "$T/out" |
	sort -u | while read -r l; do
		case " $wanted " in *" $l "*) ;; *) echo "$l" ;; esac
	done)
check "no error on any other line${stray:+ (lines: $stray)}" test -z "$stray"
check "no warning" sh -c "! grep -q ': warning: ' '$T/out'"
check "every message is an error or a note" sh -c \
	"! grep -E '^[^ ].*: [a-z ]+: ' '$T/out' | grep -vE ': (error|note): '"

# -fmax-errors counts what is shown: the third error is the second
# misuse's first, not one of the first misuse's dropped ones.
second=$(grep -n '/\* WANT ' "$src" | sed -n 2p | cut -d: -f1)
"$KCFI_GCC" -fsanitize=kcfi -fmax-errors=3 -c -o "$T/m.o" "$src" >"$T/max" 2>&1
check "-fmax-errors=3: two errors of line $((second - 1)), the first of line $second" sh -c \
	"grep ': error: ' '$T/max' | sed -n '3{/typeinfo-misuse.c:$second:.*before .). token/p;}' | grep -q . &&
	 test \$(grep -c ': error: ' '$T/max') = 3 && grep -q 'terminated due to -fmax-errors=3' '$T/max'"

# The same file with the misuse lines taken out compiles without a word.
grep -v '/\* WANT ' "$src" >"$T/valid.c"
"$KCFI_GCC" -fsanitize=kcfi -Wall -Wextra -c -o "$T/v.o" "$T/valid.c" >"$T/valid.out" 2>&1
check "the valid lines compile silently" sh -c "test ! -s '$T/valid.out'"
# The macros are variadic, which is C99; like GCC's own predefined macros
# they draw no C90 warning, even where the user's own would be an error.
"$KCFI_GCC" -fsanitize=kcfi -std=c89 -pedantic-errors -Wc90-c99-compat -c \
	-o "$T/v.o" "$T/valid.c" >"$T/c89.out" 2>&1
check "... and with -std=c89 -pedantic-errors -Wc90-c99-compat" sh -c "test ! -s '$T/c89.out'"
if [ -n "${VERBOSE:-}" ] || [ -f "$T/failed" ]; then sed 's/^/    /' "$T/out"; fi
finish
