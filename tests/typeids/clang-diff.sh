#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Differential test: our type ids against the ones real Clang emits.
#
# Every prototype (the hand-picked ones in clang-cases*.txt plus a few
# hundred from gen-protos) becomes an address-taken declaration
#     extern __typeof__(TYPE) fN;   void *tbl[] = { ..., fN, ... };
# so that Clang prints `__kcfi_typeid_fN = ID` (clang-22) or
# `.set __kcfi_typeid_fN, ID` (clang-19).  kcfi-typeid computes the same ids
# from the prototype-language spelling; both lists must agree exactly, with
#   clang-22 -Xclang -fsanitize-kcfi-hash=FNV-1a    (our default hash)
#   clang-19                                        (xxHash64)
# each with and without integer normalization.  Salted prototypes
# (clang-cases-salt.txt, gen-protos --salt) go to clang-22 only, with both
# of its hashes: clang-19 has no cfi_salt.  Skipped (77) without either.
set -u

: "${top_srcdir:?}" "${top_builddir:?}"
tool=$top_builddir/kcfi-typeid
gen=$top_builddir/tests/typeids/gen-protos
here=$top_srcdir/tests/typeids
count=${KCFI_DIFF_COUNT:-400}		# random prototypes, and their seed
seed=${KCFI_DIFF_SEED:-20240601}

if [ -z "${CLANG22:-}" ] && [ -z "${CLANG19:-}" ]; then
	echo "SKIP: neither clang-22 nor clang-19 is available"
	exit 77
fi

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM

# Lines "OURS" or "OURS<TAB>C SPELLING[<TAB>SALT]"; '#' comments and blank
# lines skipped; "@ DECLARATION" lines go to the C file as they are.  SALT,
# the body of a C string, goes on the declaration (C has no salted
# abstract declarator).
cases() {
	grep -v -e '^#' -e '^@ ' -e '^[[:space:]]*$' "$1"
}
decls() {
	sed -n 's/^@ //p' "$1"
}

# File-scope declarations: Clang mangles a tag declared inside a function as
# a local name, which our language never is.  Tags are declared by make_c;
# these are the typedef'd anonymous tags and vector types gen-protos uses.
prelude='typedef struct { int x; } td_s0; typedef union { int x; } td_u0; typedef enum { TD_E0_A } td_e0;
typedef int v4si __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));
typedef short v8hi __attribute__((vector_size(16)));
typedef unsigned char v16qu __attribute__((vector_size(16)));'

# make_c PROTOS EXTRA: the C file for one list of prototypes; EXTRA holds
# more declarations (the "@ " lines of a cases file).
make_c() {
	printf '%s\n' "$prelude"
	cat "$2"
	# every tag the C spellings mention, defined once at file scope (and
	# complete: C wants complete array elements, even in parameters)
	awk -F '\t' '{ print (NF > 1 ? $2 : $1) }' "$1" |
		grep -o -E '(struct|union|enum)[[:space:]]+[A-Za-z_$][A-Za-z0-9_$]*' | sort -u |
		awk '$1 == "enum" { printf "enum %s { %s_k };\n", $2, $2; next }
		     { printf "%s %s { int %s_m; };\n", $1, $2, $2 }'
	awk -F '\t' '{ printf "extern __typeof__(%s) f%d%s;\n", (NF > 1 ? $2 : $1), NR,
			(NF > 2 && $3 != "" ? " __attribute__((cfi_salt(\"" $3 "\")))" : "") }
		END { printf "void *tbl[] = {"; for (i = 1; i <= NR; i++) printf " f%d,", i; print " 0 };" }' "$1"
}

cases "$here/clang-cases.txt" > "$tmp/gnu17.protos"
"$gen" "$count" "$seed" >> "$tmp/gnu17.protos" || exit 99
cases "$here/clang-cases-c23.txt" > "$tmp/gnu23.protos"
# clang-19 does not know C23's `T (...)` yet
grep -v -F '(...)' "$tmp/gnu23.protos" > "$tmp/gnu23-19.protos"
decls "$here/clang-cases.txt" > "$tmp/gnu17.decls"
decls "$here/clang-cases-c23.txt" > "$tmp/gnu23.decls"
make_c "$tmp/gnu17.protos" "$tmp/gnu17.decls" > "$tmp/gnu17.c"
make_c "$tmp/gnu23.protos" "$tmp/gnu23.decls" > "$tmp/gnu23.c"
make_c "$tmp/gnu23-19.protos" "$tmp/gnu23.decls" > "$tmp/gnu23-19.c"
cases "$here/clang-cases-salt.txt" > "$tmp/salt.protos"
"$gen" "$count" "$((seed + 1))" --salt >> "$tmp/salt.protos" || exit 99
decls "$here/clang-cases-salt.txt" > "$tmp/salt.decls"
make_c "$tmp/salt.protos" "$tmp/salt.decls" > "$tmp/salt.c"

failed=0
checked=0

# run NAME CLANG LIST OURFLAGS -- CLANGFLAGS...   (LIST: gnu17, gnu23, gnu23-19)
run() {
	name=$1 cc=$2 list=$3 ours=$4
	shift 5
	std=${list%-19}
	[ "$std" = salt ] && std=gnu17
	if ! "$cc" --target=x86_64-linux-gnu -std="$std" -w -fsanitize=kcfi "$@" \
		-S -o "$tmp/out.s" "$tmp/$list.c" 2> "$tmp/cc.err"; then
		echo "FAIL: $name: $cc rejected the generated C:"
		head -20 "$tmp/cc.err"
		failed=1
		return
	fi
	# "__kcfi_typeid_f12 = 123" (LLVM 22) or ".set __kcfi_typeid_f12, 123"
	sed -n 's/^[[:space:]]*\(\.set[[:space:]]*\)\{0,1\}__kcfi_typeid_f\([0-9]*\)[[:space:]]*[,=][[:space:]]*\([0-9]*\).*/\2 \3/p' \
		"$tmp/out.s" | sort -n | awk '{ printf "%d 0x%08x\n", $1, $2 }' > "$tmp/clang.ids"
	cut -f1 "$tmp/$list.protos" > "$tmp/ours.in"
	# shellcheck disable=SC2086
	if ! "$tool" $ours < "$tmp/ours.in" > "$tmp/ours.out" 2> "$tmp/ours.err"; then
		echo "FAIL: $name: kcfi-typeid rejected prototypes:"
		head -20 "$tmp/ours.err"
		failed=1
		return
	fi
	awk '{ print NR, $1, $2 }' "$tmp/ours.out" > "$tmp/ours.ids"
	n=$(wc -l < "$tmp/$list.protos")
	if [ "$(wc -l < "$tmp/clang.ids")" -ne "$n" ]; then
		echo "FAIL: $name: expected $n __kcfi_typeid_ symbols, Clang printed $(wc -l < "$tmp/clang.ids")"
		failed=1
		return
	fi
	# join on the declaration number; report each disagreement with its text
	bad=$(awk 'NR == FNR { clang[$1] = $2; next }
		   clang[$1] != $2 { printf "  f%d: clang %s, ours %s %s\n", $1, clang[$1], $2, $3 }' \
		"$tmp/clang.ids" "$tmp/ours.ids")
	if [ -n "$bad" ]; then
		echo "FAIL: $name: ids differ:"
		printf '%s\n' "$bad" | head -20 | while read -r f rest; do
			i=${f#f}; i=${i%:}
			printf '%s %s\n      %s\n' "$f" "$rest" "$(sed -n "${i}p" "$tmp/ours.in")"
		done
		failed=1
		return
	fi
	echo "ok: $name: $n prototypes, all ids equal"
	checked=$((checked + n))
}

norm=-fsanitize-cfi-icall-experimental-normalize-integers
for std in gnu17 gnu23; do
	if [ -n "${CLANG22:-}" ]; then
		run "clang-22 FNV-1a $std" "$CLANG22" $std "--hash=fnv1a" -- -Xclang -fsanitize-kcfi-hash=FNV-1a
		run "clang-22 FNV-1a normalized $std" "$CLANG22" $std "--hash=fnv1a --normalize-integers" -- \
			-Xclang -fsanitize-kcfi-hash=FNV-1a $norm
	fi
	if [ -n "${CLANG19:-}" ]; then
		list=$std
		[ $std = gnu23 ] && list=gnu23-19
		run "clang-19 xxHash64 $std" "$CLANG19" $list "--hash=xxhash64" --
		run "clang-19 xxHash64 normalized $std" "$CLANG19" $list "--hash=xxhash64 --normalize-integers" -- $norm
	fi
done

if [ -n "${CLANG22:-}" ]; then
	run "clang-22 FNV-1a salted" "$CLANG22" salt "--hash=fnv1a" -- -Xclang -fsanitize-kcfi-hash=FNV-1a
	run "clang-22 FNV-1a normalized salted" "$CLANG22" salt "--hash=fnv1a --normalize-integers" -- \
		-Xclang -fsanitize-kcfi-hash=FNV-1a $norm
	run "clang-22 xxHash64 salted" "$CLANG22" salt "--hash=xxhash64" -- -Xclang -fsanitize-kcfi-hash=xxHash64
	run "clang-22 xxHash64 normalized salted" "$CLANG22" salt "--hash=xxhash64 --normalize-integers" -- \
		-Xclang -fsanitize-kcfi-hash=xxHash64 $norm
fi

echo "$checked comparisons"
exit $failed
