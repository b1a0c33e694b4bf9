#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Differential test of type ids: kcfi-gcc against Clang, on the same C.
#
# gen-protos --cc=gcc writes random file-scope function types over the forms
# both compilers have (every integer and floating type GCC 12 and Clang
# share, _Complex, __int128, vectors, _Atomic, typedef'd and named tags,
# VLAs, [static N], unprototyped pointees, variadics, nested function
# pointers, ms_abi; typedefs declaring several names of an anonymous tag,
# typedefs adding qualifiers to one, transparent unions; x86 __seg_gs and
# __seg_fs pointees; with --salt, cfi_salt on the declared function and
# salted function pointers inside).  Each becomes an address-taken extern declaration
#     extern __typeof__(TYPE) fN;   void *tbl[] = { ..., fN, ... };
# compiled to an object by Clang and by kcfi-gcc; both objects carry
# __kcfi_typeid_fN, and the values must agree for every N:
#   clang-19                     xxHash64 (its default); kcfi-gcc with
#            -fplugin-arg-kcfi-transparent-union=union, Clang 21's rule
#   clang-22 -fsanitize-kcfi-hash=FNV-1a, with and without
#            -fsanitize-cfi-icall-experimental-normalize-integers, and
#            -fsanitize-kcfi-hash=xxHash64: these three with salts (clang-19
#            has no cfi_salt, so salted prototypes meet xxHash64 here)
#   clang-22 -fsanitize-cfi-icall-generalize-pointers, both hashes, with and
#            without normalization, salted (clang-19 ignores the option)
# kcfi-gcc gets Clang's own spellings of those options.  The one allowed
# difference: on x86 our __kcfi_typeid_ is ENDBR-masked (Clang's +1).
#
#   KCFI_DIFF_COUNT  prototypes per batch (default 1500), KCFI_DIFF_BATCHES
#   (default 3), KCFI_DIFF_SEED (default 7): counts per mode = COUNT*BATCHES.
# Every batch also declares two functions whose xxHash64 ids are ENDBR-like
# (doc/abi.md 1, masking), so that the masking rule itself is exercised.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${KCFI_GCC:?}"
gen=$top_builddir/tests/typeids/gen-protos
count=${KCFI_DIFF_COUNT:-1500}
batches=${KCFI_DIFF_BATCHES:-3}
seed=${KCFI_DIFF_SEED:-7}
CLANG19=${CLANG19:-$(command -v clang-19)}
CLANG22=${CLANG22:-$(command -v clang-22)}
NM=${NM:-nm}

[ "$(uname -m)" = x86_64 ] || { echo "SKIP: x86_64 hosts only"; exit 77; }
[ -n "$CLANG19" ] && [ -n "$CLANG22" ] || { echo "FAIL: clang-19 and clang-22 are required"; exit 1; }

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM

prelude='typedef struct { int x; } td_s0; typedef union { int x; } td_u0; typedef enum { TD_E0_A } td_e0;
typedef int v4si __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));
typedef short v8hi __attribute__((vector_size(16)));
typedef unsigned char v16qu __attribute__((vector_size(16)));
struct s0 { int m; }; struct s1 { int m; }; struct s2 { int m; }; struct s3 { int m; };
union u0 { int m; }; union u1 { int m; }; enum e0 { E0_A }; enum e1 { E1_A };
struct s11636896; struct s89142b63;
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
typedef void (*salt_fp0)(int) __attribute__((cfi_salt("kvm")));
typedef void (*salt_fp1)(int) __attribute__((cfi_salt("kvm")));
typedef void (*salt_fp2)(int) __attribute__((cfi_salt("x")));
typedef void (*plain_fp0)(int);
typedef int (*salt_fp3)(int, char *) __attribute__((cfi_salt("a.b")));
typedef int (*plain_fp3)(int, char *);'

# make_c PROTOS: the C file (fields: ours, C spelling, "ms" or empty, salt)
make_c() {
	printf '%s\n' "$prelude"
	awk -F '\t' '{ printf "extern __typeof__(%s) f%d%s%s;\n", $2, NR,
			($3 == "ms" ? " __attribute__((ms_abi))" : ""),
			($4 != "" ? " __attribute__((cfi_salt(\"" $4 "\")))" : "") }
		END { printf "extern void f%d(struct s11636896 *);\n", NR + 1
		      printf "extern void f%d(struct s89142b63 *);\n", NR + 2
		      printf "void *tbl[] = {"; for (i = 1; i <= NR + 2; i++) printf " f%d,", i; print " 0 };" }' "$1"
}

# ids OBJ: "N VALUE" for every __kcfi_typeid_fN, sorted by N
ids() {
	"$NM" -P "$1" | awk '$1 ~ /^__kcfi_typeid_f[0-9]+$/ { n = substr($1, 16); print n, $3 }' |
		sort -n | while read -r n v; do printf '%d %u\n' "$n" "0x$v"; done
}

failed=0
total=0
# mode NAME CLANG "CLANG FLAGS" "KCFI-GCC FLAGS" [GEN-PROTOS OPTION]
mode() {
	name=$1 cc=$2 cflags=$3 kflags=$4 genopt=${5:-}
	n_mode=0
	adjusted=0
	salted=0
	seg=0
	b=0
	while [ $b -lt "$batches" ]; do
		# shellcheck disable=SC2086
		"$gen" "$count" $((seed + b)) --cc=gcc $genopt > "$tmp/protos" || exit 99
		make_c "$tmp/protos" > "$tmp/t.c"
		# shellcheck disable=SC2086
		if ! "$cc" --target=x86_64-linux-gnu -std=gnu17 -w -fsanitize=kcfi $cflags \
			-c -o "$tmp/clang.o" "$tmp/t.c" 2> "$tmp/err"; then
			echo "FAIL: $name: $cc rejected batch $b:"; head -20 "$tmp/err"; failed=1; return
		fi
		# shellcheck disable=SC2086
		if ! "$KCFI_GCC" -std=gnu17 -w -O2 -fsanitize=kcfi $kflags \
			-c -o "$tmp/ours.o" "$tmp/t.c" 2> "$tmp/err"; then
			echo "FAIL: $name: kcfi-gcc rejected batch $b:"; head -20 "$tmp/err"; failed=1; return
		fi
		ids "$tmp/clang.o" > "$tmp/clang.ids"
		ids "$tmp/ours.o" > "$tmp/ours.ids"
		if [ "$(wc -l < "$tmp/clang.ids")" -ne $((count + 2)) ] ||
		   [ "$(wc -l < "$tmp/ours.ids")" -ne $((count + 2)) ]; then
			echo "FAIL: $name: batch $b: $((count + 2)) declarations, but Clang defined" \
				"$(wc -l < "$tmp/clang.ids") and kcfi-gcc $(wc -l < "$tmp/ours.ids") type ids"
			failed=1; return
		fi
		# ENDBR64/32 encodings and their negations: ours is Clang's + 1
		bad=$(awk 'NR == FNR { c[$1] = $2; next }
			function endbr(h) { return h == 4196274163 || h == 98693133 ||
						  h == 4213051379 || h == 81915917 }
			{ want = endbr(c[$1]) ? c[$1] + 1 : c[$1] }
			endbr(c[$1]) { adj++ }
			$2 != want { printf "f%d clang 0x%08x ours 0x%08x\n", $1, c[$1], $2 }
			END { printf "%d", adj > "/dev/stderr" }' \
			"$tmp/clang.ids" "$tmp/ours.ids" 2> "$tmp/adj")
		adjusted=$((adjusted + $(cat "$tmp/adj")))
		if [ -n "$bad" ]; then
			echo "FAIL: $name: batch $b: $(printf '%s\n' "$bad" | wc -l) ids differ:"
			printf '%s\n' "$bad" | head -10 | while read -r f rest; do
				i=${f#f}
				printf '  %s %s\n    %s\n' "$f" "$rest" "$(sed -n "${i}p" "$tmp/protos" | cut -f2-)"
			done
			failed=1; return
		fi
		n_mode=$((n_mode + count))
		salted=$((salted + $(awk -F '\t' '$4 != "" || /salt_fp/' "$tmp/protos" | wc -l)))
		seg=$((seg + $(grep -c '__seg_' "$tmp/protos")))
		b=$((b + 1))
	done
	echo "ok: $name: $n_mode prototypes (+$((2 * batches)) fixed), all ids equal ($adjusted ENDBR-adjusted;" \
		"$salted salted, $seg with __seg_gs/__seg_fs)"
	total=$((total + n_mode))
}

# Definitions (definitions.c): the preamble ids, "NAME 0xID" per __cfi_NAME
# (movl $ID, %eax just before the entry; no ENDBR values among them).
preambles() {
	objdump -d --no-show-raw-insn "$1" |
	awk '/^[0-9a-f]+ <__cfi_/ { name = $2; sub(/^<__cfi_/, "", name); sub(/>:$/, "", name); next }
	     name && /mov +\$0x[0-9a-f]+,%eax/ { match($0, /\$0x[0-9a-f]+/)
						 print name, substr($0, RSTART + 1, RLENGTH - 1); name = "" }' | sort
}
# definitions NAME CLANG "CLANG FLAGS" "KCFI-GCC FLAGS"
definitions() {
	name=$1 cc=$2 cflags=$3 kflags=$4
	defs=$top_srcdir/tests/differential/definitions.c
	# shellcheck disable=SC2086
	if ! "$cc" --target=x86_64-linux-gnu -std=gnu17 -w -O2 -fsanitize=kcfi $cflags -c -o "$tmp/dc.o" "$defs" ||
	   ! "$KCFI_GCC" -std=gnu17 -w -O2 -fsanitize=kcfi $kflags -c -o "$tmp/dg.o" "$defs"; then
		echo "FAIL: $name: definitions.c does not compile"; failed=1; return
	fi
	preambles "$tmp/dc.o" > "$tmp/dc.ids"
	preambles "$tmp/dg.o" > "$tmp/dg.ids"
	n=$(wc -l < "$tmp/dc.ids")
	if [ "$n" -lt 12 ] || ! cmp -s "$tmp/dc.ids" "$tmp/dg.ids"; then
		echo "FAIL: $name: preamble ids of definitions.c differ (Clang | kcfi-gcc):"
		paste "$tmp/dc.ids" "$tmp/dg.ids" | sed 's/^/    /'
		failed=1; return
	fi
	echo "ok: $name: $n definitions (K&R, unprototyped, ms_abi, VLA...), preamble ids equal"
	total=$((total + n))
}

# Data models of the targets below (kcfi-typeid --target, typeids/model.c)
# against clang-22 for them, normalized so that char and long show.  No
# plugin is involved: kcfi-gcc here wraps the native compiler only.
models() {
	cat > "$tmp/m.txt" <<'M'
void (char, signed char, unsigned char)
void (long, unsigned long, long long, unsigned long long)
long double (long double, double, float)
void (_Bool, short, unsigned short, int *, const char *)
unsigned long (*(char *, ...))(long)
void (void (*)(unsigned char, char), void (*)(signed char))
M
	bad_models=0
	for t in x86_64-linux-gnu i686-linux-gnu aarch64-linux-gnu riscv64-linux-gnu arm-linux-gnueabihf; do
		awk '{ printf "extern __typeof__(%s) m%d;\n", $0, NR }
		     END { printf "void *tbl[] = {"; for (i = 1; i <= NR; i++) printf " m%d,", i; print " 0 };" }' \
			"$tmp/m.txt" > "$tmp/m.c"
		"$CLANG22" --target=$t -w -fsanitize=kcfi -Xclang -fsanitize-kcfi-hash=FNV-1a \
			-fsanitize-cfi-icall-experimental-normalize-integers -c -o "$tmp/m.o" "$tmp/m.c" 2> "$tmp/err" ||
			{ echo "FAIL: models: clang-22 --target=$t:"; head -5 "$tmp/err"; bad_models=1; continue; }
		got=$("$NM" -P "$tmp/m.o" | awk '$1 ~ /^__kcfi_typeid_m/ { print substr($1, 16), $3 }' | sort -n |
			while read -r n v; do printf '%u ' "0x$v"; done)
		want=$("$top_builddir/kcfi-typeid" --target=$t --normalize-integers < "$tmp/m.txt" |
			while read -r h _; do printf '%u ' "$h"; done)
		if [ "$got" != "$want" ]; then
			echo "FAIL: models: $t: clang-22 $got, kcfi-typeid $want"; bad_models=1; continue
		fi
		total=$((total + $(wc -l < "$tmp/m.txt")))
	done
	[ $bad_models -eq 0 ] && echo "ok: data models of x86_64, i686, aarch64, riscv64, arm32 agree with clang-22"
	[ $bad_models -eq 0 ] || failed=1
}

norm=-fsanitize-cfi-icall-experimental-normalize-integers
# Clang 21 and earlier keep transparent unions (doc/manual.md, type-id divergences).
old_tu=-fplugin-arg-kcfi-transparent-union=union
models
definitions "clang-19 xxHash64" "$CLANG19" "" "-fsanitize-kcfi-hash=xxHash64 $old_tu"
definitions "clang-22 FNV-1a normalized" "$CLANG22" "-Xclang -fsanitize-kcfi-hash=FNV-1a $norm" \
	"-fsanitize-kcfi-hash=FNV-1a $norm"
gen_ptr=-fsanitize-cfi-icall-generalize-pointers
definitions "clang-22 FNV-1a generalized" "$CLANG22" "-Xclang -fsanitize-kcfi-hash=FNV-1a $gen_ptr" \
	"-fsanitize-kcfi-hash=FNV-1a $gen_ptr"
mode "clang-19 xxHash64" "$CLANG19" "" "-fsanitize-kcfi-hash=xxHash64 $old_tu"
mode "clang-19 xxHash64 normalized" "$CLANG19" "$norm" "-fsanitize-kcfi-hash=xxHash64 $norm $old_tu"
mode "clang-22 FNV-1a" "$CLANG22" "-Xclang -fsanitize-kcfi-hash=FNV-1a" "-fsanitize-kcfi-hash=FNV-1a" --salt
mode "clang-22 FNV-1a normalized" "$CLANG22" "-Xclang -fsanitize-kcfi-hash=FNV-1a $norm" \
	"-fsanitize-kcfi-hash=FNV-1a $norm" --salt
mode "clang-22 xxHash64 salted" "$CLANG22" "-Xclang -fsanitize-kcfi-hash=xxHash64" \
	"-fsanitize-kcfi-hash=xxHash64" --salt
mode "clang-22 FNV-1a generalized" "$CLANG22" "-Xclang -fsanitize-kcfi-hash=FNV-1a $gen_ptr" \
	"-fsanitize-kcfi-hash=FNV-1a $gen_ptr" --salt
mode "clang-22 FNV-1a normalized generalized" "$CLANG22" \
	"-Xclang -fsanitize-kcfi-hash=FNV-1a $norm $gen_ptr" "-fsanitize-kcfi-hash=FNV-1a $norm $gen_ptr" --salt
mode "clang-22 xxHash64 generalized" "$CLANG22" "-Xclang -fsanitize-kcfi-hash=xxHash64 $gen_ptr" \
	"-fsanitize-kcfi-hash=xxHash64 $gen_ptr" --salt
mode "clang-22 xxHash64 normalized generalized" "$CLANG22" \
	"-Xclang -fsanitize-kcfi-hash=xxHash64 $norm $gen_ptr" "-fsanitize-kcfi-hash=xxHash64 $norm $gen_ptr" --salt
echo "$total comparisons"
exit $failed
