# SPDX-License-Identifier: GPL-2.0-or-later
# A precompiled header changes nothing: the same TU through the PCH and
# through the plain header gives identical assembly.
. "$top_srcdir/tests/prepass/lib.sh"

mkdir -p "$T/pch" "$T/plain"
cat >"$T/plain/shared.h" <<'H'
typedef struct { int len; char *data; } buffer_t;
typedef buffer_t buffer_alias_t;
struct sink { void (*put) (struct sink *, const buffer_alias_t *); };
typedef int (*cmp_fn) (const void *, const void *);
typedef unsigned char octet;
static inline int compare_with (cmp_fn f, const void *a, const void *b)
{
  return f (a, b);
}
H
cp "$T/plain/shared.h" "$T/pch/shared.h"
cat >"$T/use.c" <<'C'
#include "shared.h"
int by_len (const void *a, const void *b) { return *(const int *) a - *(const int *) b; }
void put_octets (struct sink *s, const buffer_alias_t *b) { (void) s; (void) b; }
struct sink console = { put_octets };
octet first (octet *p, cmp_fn f) { return compare_with (f, p, p + 1) ? p[0] : p[1]; }
void emit (struct sink *s, buffer_t *b) { s->put (s, b); }
int order (const void *a, const void *b) { return compare_with (by_len, a, b); }
C
for o in $OPT_LEVELS; do
	# -save-temps keeps the assembly cc1 writes alongside the PCH.
	(cd "$T/pch" && $CC -fplugin="$KCFI_PLUGIN" $o -save-temps -x c-header \
		-o shared.h.gch shared.h 2>"$T/gch.err")
	check "writing the PCH is quiet at $o" sh -c "test ! -s '$T/gch.err'"
	check "writing the PCH writes no directive at $o" \
		lacks '\.kcfi_' "$T/pch/shared.h.gch-shared.s"
	kcc "$T/via-pch.s" "$T/use.c" $o -I"$T/pch" -Winvalid-pch -H
	check "the PCH is used at $o" grep -q '^! .*shared\.h\.gch' "$T/via-pch.s.err"
	kcc "$T/via-h.s" "$T/use.c" $o -I"$T/plain"
	check "PCH and header give the same assembly at $o" cmp "$T/via-pch.s" "$T/via-h.s"
	check "the assembly is annotated at $o" sh -c \
		"grep -q 'kcfi_func by_len, ' '$T/via-h.s' && grep -q 'kcfi_type.*struct buffer_t' '$T/via-h.s'"
done
finish
