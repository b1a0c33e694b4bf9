#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Differential test of -fsanitize-kcfi-arity: kcfi-gcc against clang-22 on
# random function definitions (gen-protos --defs: structs by value of every
# x86_64 psABI class, float, double, long double, __int128, _Complex,
# vectors, variadics with and without va_start, up to eight parameters,
# unnamed ones, ms_abi, transparent unions).
#   -O0  every __cfi_ preamble byte-identical (kcfi-gcc gets
#        -falign-functions=16, Clang's alignment of the padding)
#   -O2  the same id, and the arity never below Clang's: Clang counts the
#        argument registers still live at entry, we count every one the
#        ABI assigns (doc/abi.md 1, "Arity"); the kinds of difference seen
#        are counted
#   KCFI_DIFF_COUNT definitions (default 1500), KCFI_DIFF_SEED (default 7).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${KCFI_GCC:?}"
gen=$top_builddir/tests/typeids/gen-protos
count=${KCFI_DIFF_COUNT:-1500}
seed=${KCFI_DIFF_SEED:-7}
CLANG22=${CLANG22:-$(command -v clang-22)}
[ "$(uname -m)" = x86_64 ] || { echo "SKIP: x86_64 hosts only"; exit 77; }
[ -n "$CLANG22" ] || { echo "FAIL: clang-22 is required"; exit 1; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM

{
	cat <<'C'
typedef struct { int x; } td_s0; typedef union { int x; } td_u0; typedef enum { TD_E0_A } td_e0;
typedef int v4si __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));
typedef short v8hi __attribute__((vector_size(16)));
typedef unsigned char v16qu __attribute__((vector_size(16)));
struct s0 { int m; }; struct s1 { int m; }; struct s2 { int m; }; struct s3 { int m; };
union u0 { int m; }; union u1 { int m; }; enum e0 { E0_A }; enum e1 { E1_A };
typedef void (__attribute__((ms_abi)) *ms_fp0)(int);
typedef int (__attribute__((ms_abi)) *ms_fp1)(struct s0 *, ...);
typedef struct { int x; } td_m0, *td_m0p, td_m0a[3];
typedef struct { int x; } *td_pf0p, td_pf0;
typedef union { int x; } td_mu0, *td_mu0p;
typedef enum { TD_ME0_A } td_me0, *td_me0p;
typedef const struct { int x; } td_q0;
typedef struct { int x; } volatile td_q1, *td_q1p;
typedef const union { int x; } td_q2;
typedef const volatile enum { TD_Q3_A } td_q3;
typedef union __attribute__((transparent_union)) { int *ip; long *lp; } td_tu0;
union __attribute__((transparent_union)) tu1 { const char *cp; void *vp; };
typedef union __attribute__((transparent_union)) { long l; int i; } td_tu2;
struct a8 { long a; }; struct a16 { long a, b; }; struct a24 { long a, b, c; };
struct af8 { float a, b; }; struct ad16 { double a, b; }; struct am16 { long a; double b; };
struct amf { float a; int b; }; struct ald { long double x; }; struct a32f { double a, b, c, d; };
struct aempty { }; struct ai128 { __int128 x; }; struct ac12 { char c[12]; };
union aif { int i; float f; }; struct a3 { char a, b, c; }; struct af12 { float a, b, c; };
C
	"$gen" "$count" "$seed" --defs | cut -f2-
} > "$tmp/defs.c" || exit 99

# preambles OBJ: "NAME BYTES" for every __cfi_dN, the bytes up to dN.
preambles() {
	objdump -d "$1" | awk '/^[0-9a-f]+ <__cfi_d[0-9]+>:$/ { name = $2; sub(/^<__cfi_/, "", name)
				sub(/>:$/, "", name); bytes = ""; next }
		/^[0-9a-f]+ </ { if (name != "") print name, bytes; name = ""; next }
		name != "" && /^ +[0-9a-f]+:\t/ { split($0, f, "\t"); b = f[2]; gsub(/ /, "", b); bytes = bytes b }' |
		sort
}
failed=0
flags="-std=gnu2x -w -fsanitize=kcfi -fsanitize-kcfi-arity"
for o in -O0 -O2; do
	if ! "$CLANG22" --target=x86_64-linux-gnu $flags -Xclang -fsanitize-kcfi-hash=FNV-1a $o \
		-c -o "$tmp/c.o" "$tmp/defs.c" 2> "$tmp/err"; then
		echo "FAIL: clang-22 $o rejected the definitions:"; head -20 "$tmp/err"; exit 1
	fi
	if ! "$KCFI_GCC" $flags -falign-functions=16 $o -c -o "$tmp/g.o" "$tmp/defs.c" 2> "$tmp/err"; then
		echo "FAIL: kcfi-gcc $o rejected the definitions:"; head -20 "$tmp/err"; exit 1
	fi
	preambles "$tmp/c.o" > "$tmp/c.pre"
	preambles "$tmp/g.o" > "$tmp/g.pre"
	n=$(wc -l < "$tmp/c.pre")
	if [ "$n" -ne "$count" ] || [ "$(wc -l < "$tmp/g.pre")" -ne "$count" ]; then
		echo "FAIL: $o: $count definitions, $n preambles from Clang, $(wc -l < "$tmp/g.pre") from kcfi-gcc"
		failed=1; continue
	fi
	if [ $o = -O0 ]; then
		if ! cmp -s "$tmp/c.pre" "$tmp/g.pre"; then
			echo "FAIL: -O0: preambles differ (name clang kcfi-gcc, then the definition):"
			join "$tmp/c.pre" "$tmp/g.pre" | awk '$2 != $3' | head -10 | while read -r d c g; do
				printf '  %s %s %s\n    %s\n' "$d" "$c" "$g" "$(grep -m1 " $d(" "$tmp/defs.c")"
			done
			failed=1; continue
		fi
		echo "ok: -O0: $n preambles byte-identical to clang-22's"
		continue
	fi
	# -O2: the last 5 bytes are movl $id, %reg (b8+arity, id): ids equal, ours >= Clang's.
	join "$tmp/c.pre" "$tmp/g.pre" | awk '
		function arity(b) { return ("0x" substr(b, length(b) - 9, 2)) - 0 }
		{ c = substr($2, length($2) - 9); g = substr($3, length($3) - 9)
		  ca = index("b8b9babbbcbdbebf", substr(c, 1, 2)); ga = index("b8b9babbbcbdbebf", substr(g, 1, 2))
		  ca = (ca - 1) / 2; ga = (ga - 1) / 2
		  if (substr(c, 3) != substr(g, 3) || ca < 0 || ga < 0) { print "bad", $1, c, g; next }
		  if (ga < ca) print "weaker", $1, ca, ga
		  else if (ga == ca) same++
		  else if (ga == 7) stack++
		  else more++ }
		END { printf "summary %d %d %d\n", same, more, stack }' > "$tmp/o2"
	if grep -q '^bad\|^weaker' "$tmp/o2"; then
		echo "FAIL: -O2: an id differs, or our arity is below Clang's:"
		grep '^bad\|^weaker' "$tmp/o2" | head -10 | while read -r k d c g; do
			printf '  %s %s clang %s kcfi-gcc %s\n    %s\n' "$k" "$d" "$c" "$g" "$(grep -m1 " $d(" "$tmp/defs.c")"
		done
		failed=1; continue
	fi
	set -- $(sed -n 's/^summary //p' "$tmp/o2")
	echo "ok: -O2: $n preambles, ids equal; arity as Clang's $1; above it: $2 with registers Clang saw dead, $3 with va_start (7)"
done
exit $failed
