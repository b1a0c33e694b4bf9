#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bytes GCC never writes: NUL, bytes >= 0x80, CR before LF.  NUL in an
# instrumented unit is refused (GNU as starts a new statement at a NUL, so
# "nop\0call *%rax" would hide a call); elsewhere input is assembled as it is.
. "$top_srcdir/tests/hostile/lib.sh"

# nul NAME LINE COL TEXT: TEXT (printf format) after the version line.
nul() {
	printf "$V\n$4" >"$T/$1.s"
	expect_error "$1" "$2" "NUL byte"
	grep -q "^$T/$1.s:$2:$3: error" "$T/$1.err" || fail "$1: column $3 expected: $(head -1 "$T/$1.err")"
}
nul nul-hides-call 2 5 '\tnop\0call *%%rax\n'
nul nul-in-branch 5 10 '\t.kcfi_type 1, "void (void)"\nf:\n\t.kcfi_call 1\n\tcall *%%r\0ax\n'
nul nul-alone 2 1 '\0\n'
nul nul-in-app 3 6 '#APP\n\tcall\0\n#NO_APP\n'
nul nul-in-comment 2 4 '# a\0b\n'
printf "$V\n\t.kcfi_type 1, \"void (v\0oid)\"\n" >"$T/nul-type.s"
expect_error nul-type 2 'NUL byte'
printf "$V\n\t.kcfi_ty\0pe 1, \"void (void)\"\n" >"$T/nul-directive.s"
expect_error nul-directive 2 'NUL byte'
printf "\t.kcfi_version 1, \"x86_64\0-linux-gnu\", ptr=64, long=64, char=signed, prefix=0\n" >"$T/nul-version.s"
expect_error nul-version 1 'NUL byte in a string'
printf "\t.kcfi_version 1, \"x86_64\\\\\0-linux-gnu\", ptr=64, long=64, char=signed, prefix=0\n" >"$T/nul-escaped.s"
expect_error nul-escaped 1 'NUL byte in a string'

# Without .kcfi_version, the bytes go on exactly as written, including the
# ones that made the line scanner read out of bounds with flex's "fast"
# tables (\n \0 \377 \n; seen under ASan).  GNU as would refuse them, so
# only the rewriting pass runs here.
printf '\t.text\n\0\377\n# \200\201\376\377 \0 "\n\t.byte 1\n\n\0\377\n\0' >"$T/plain.s"
"$KCFI_AS" --kcfi-no-assemble --kcfi-save="$T/plain.out" "$T/plain.s" >"$T/plain.err" 2>&1
rc=$?
if sane plain $rc; then
	if [ $rc -eq 0 ] && cmp -s "$T/plain.s" "$T/plain.out"; then pass "plain: passed through byte for byte"
	else fail "plain: rc=$rc or output differs"; fi
fi

# Bytes >= 0x80 in comments, strings and symbol names of an instrumented unit.
{ echo "$VT"; printf '# \200\377 caf\303\251\n\t.section .rodata\n\t.string "\377\376\200"\n\t.text\n'
  printf '\t.kcfi_func "f\303\251", 1\n"f\303\251":\n#APP\n\t.kcfi_call 1\n#NO_APP\n\tcall *%%rax  # \377\n'; } >"$T/high.s"
expect_ok high 1
${READELF:-readelf} -sW "$T/high.o" | grep -q "__cfi_f$(printf '\303\251')\$" &&
	pass "high: __cfi_ symbol keeps the UTF-8 name" || fail "high: no __cfi_ symbol for the UTF-8 name"
printf "$V\n\t.kcfi_type 1, \"void (\377)\"\n" >"$T/high-type.s"
expect_error high-type 2 'unexpected byte 0xff'

# CRLF: a real annotated unit with every line ending in CR LF assembles to the
# same code, symbols and traps as with LF.
if [ -f "${KCFI_PLUGIN:-}" ] && [ -x "${KCFI_GCC:-}" ]; then
	cat >"$T/crlf.c" <<'C'
typedef int (*op)(int);
int inc(int x) { return x + 1; }
extern int ext(int);
op ptrs[2] = { inc, ext };
int call(op f, int x) { return f(x) * 2; }
int tail(op f, int x) { return f(x); }
__attribute__((no_sanitize("kcfi"))) int raw(op f) { return f(1); }
int sw(int x, op *t) { switch (x) { case 0: return t[0](x); case 1: return 3; case 2: return 7;
	case 3: return 9; case 4: return 11; case 5: return 2; default: return 0; } }
C
	"$KCFI_GCC" -fsanitize=kcfi -fsanitize-kcfi-annotated-asm -O2 -S -o "$T/lf.s" "$T/crlf.c" 2>"$T/crlf.cc" ||
		fail "crlf: kcfi-gcc -S failed: $(cat "$T/crlf.cc")"
	sed 's/$/\r/' "$T/lf.s" >"$T/crlf.s"
	expect_ok crlf 3
	"$KCFI_AS" -o "$T/lf.o" "$T/lf.s" 2>"$T/lf.err" || fail "crlf: the LF original is refused"
	${OBJDUMP:-objdump} -d "$T/lf.o" | tail -n +3 >"$T/lf.dis"
	${OBJDUMP:-objdump} -d "$T/crlf.o" | tail -n +3 >"$T/crlf.dis"
	${READELF:-readelf} -sW "$T/lf.o" | awk '{ print $2, $3, $4, $5, $8 }' >"$T/lf.sym"
	${READELF:-readelf} -sW "$T/crlf.o" | awk '{ print $2, $3, $4, $5, $8 }' >"$T/crlf.sym"
	cmp -s "$T/lf.dis" "$T/crlf.dis" && cmp -s "$T/lf.sym" "$T/crlf.sym" &&
		pass "crlf: same code and symbols as LF" || fail "crlf: code or symbols differ from LF"
else
	echo "SKIP: crlf (the plugin is not built)"
fi
finish
