#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-audit --targets names the type behind each id: kcfi-as records the
# mangled name of every id it puts in a preamble, a check or a
# __kcfi_typeid_ symbol (KCFI_TYPE_NAME records of .debug,
# common/exempt.h).  names.c has one checked call of each of five types,
# with 5, 4, 3, 2 and 1 functions: each line of the most permissive list
# must carry the id (computed here, independently) and the mangled name of
# its type.  Then: the CSV and JSON type column, both hashes, names merged
# over ld -r, a record whose id is not its name's (a finding), a stripped
# file (no names, said so), names from DWARF where the records are missing
# (-g), names lent by another build (--names-from), and the x86 check in Clang's form (the branch's own register
# instead of %r11), also from clang itself when installed.
. "$top_srcdir/tests/audit/lib.sh"
case ${NATIVE_TRIPLE:-} in
x86_64-*) ;;
*) skip "x86_64 code, not ${NATIVE_TRIPLE:-unknown}" ;;
esac
[ -f "${KCFI_PLUGIN:-}" ] || skip "the plugin is not built"

# type NAME TARGETS FUNC-PREFIX: the expected line of the list (FNV-1a).
TYPES="_ZTSFvPvE:5:put _ZTSFiPKczE:4:vlog _ZTSFlP3objjE:3:op _ZTSFvPFiiEE:2:each _ZTSFhvE:1:get"
rewritten "$KCFI_GCC" names "$A/names.c" -O2 && as -o "$T/names.o" "$T/names.k.s" ||
	{ fail "kcfi-gcc/kcfi-as on names.c"; finish; }
"$AUDIT" --targets --csv="$T/n.csv" --json="$T/n.json" "$T/names.o" > "$T/n.out" 2>&1
check "exit 0" [ $? -eq 0 ]
list() { grep -A5 'most permissive' "$1" | tail -5; }
k=0
for t in $TYPES; do
	tn=${t%%:*} rest=${t#*:}
	n=${rest%%:*} fn=${rest#*:}
	k=$((k + 1))
	id=$(fnv1a "$tn")
	check "line $k: $tn, id $id, $n functions, 1 site, a $fn function" sh -c \
		"list() { grep -A5 'most permissive' \"\$1\" | tail -5; }; list '$T/n.out' | sed -n ${k}p |
		 grep -qE '^  $id +$n +1  $tn  ${fn}_[a-e]\$'"
	check "CSV: call_$fn's site has $tn" \
		grep -qE "^\"$T/names.o\",\".text\",0x[0-9a-f]+,\"call_$fn\",$id,$n,\"$tn\"\$" "$T/n.csv"
done
check "every id named, no collision, FNV-1a" grep -qx \
	"$T/names.o: type names for 10 of 10 ids (FNV-1a), 0 of them with more than one name (a hash collision)" "$T/n.out"
if command -v python3 >/dev/null; then
	check "JSON: each site's type" python3 -c "
import json
d = json.load(open('$T/n.json'))
got = {s['function']: s['type'] for s in d['sites']}
assert got == {'call_put': '_ZTSFvPvE', 'call_vlog': '_ZTSFiPKczE', 'call_op': '_ZTSFlP3objjE',
               'call_each': '_ZTSFvPFiiEE', 'call_get': '_ZTSFhvE'}, got
"
fi

# xxHash64 (Clang's default up to 21): the same names, other ids, which
# kcfi-typeid computes from the prototypes.
"$KCFI_GCC" -fsanitize=kcfi -fsanitize-kcfi-hash=xxHash64 -O2 -c -o "$T/names-xx.o" "$A/names.c"
"$AUDIT" --targets "$T/names-xx.o" > "$T/xx.out" 2>&1
xid=$("$top_builddir/kcfi-typeid" --hash=xxhash64 'void (void *)' | cut -d' ' -f1)
check "xxHash64: void (void *) first, as $xid, named" sh -c \
	"grep -A1 'most permissive' '$T/xx.out' | tail -1 | grep -qE '^  $xid +5 +1  _ZTSFvPvE  put_[a-e]\$'"
check "xxHash64: the names say which hash" grep -q "for 10 of 10 ids (xxHash64), 0 of" "$T/xx.out"

# ld -r: every object brings its own names; the audit merges them.
"$KCFI_GCC" -fsanitize=kcfi -O2 -c -o "$T/prog.o" "$A/prog.c"
ld -r -o "$T/both.o" "$T/names.o" "$T/prog.o"
np=$("$AUDIT" --targets "$T/prog.o" | sed -n 's/.*for \([0-9]*\) of.*/\1/p')
"$AUDIT" --targets "$T/both.o" > "$T/both.out" 2>&1
both=$(sed -n 's/.*for \([0-9]*\) of \([0-9]*\) ids.*/\1 \2/p' "$T/both.out")
check "ld -r: names of both objects, each id once (prog.o: $np, both: $both)" sh -c \
	"[ -n '$np' ] && set -- $both && [ \$1 -eq \$2 ] && [ \$1 -gt 10 ] && [ \$1 -le $((10 + ${np:-0})) ] &&
	 grep -q ', 0 of them with more than one name' '$T/both.out'"

# A record whose id is not the hash of its name is a finding.
want=$(fnv1a _ZTSFvPvE)
sed "s/^	\.quad	$((want)), \([0-9]*\), 65\$/	.quad	12345, \1, 65/" "$T/names.k.s" > "$T/badname.s"
as -o "$T/badname.o" "$T/badname.s"
check "a wrong id in a name record: exit 1, named" sh -c \
	". '$A/lib.sh'; audited '$T/badname.o' 1 &&
	 grep -qE '^$T/badname.o: \.debug\+0x[0-9a-f]+ <\?>: type name record: 0x00003039 is not the id of _ZTSFvPvE \(FNV-1a $want, xxHash64 0x[0-9a-f]{8}\)\$' '$T/badname.o.audit'"
check "... and that id has no name" sh -c \
	"'$AUDIT' --targets '$T/badname.o' | grep -qE '^  $want +5 +1  \?  put_[a-e]\$'"

# Stripped of its debug sections, the file has no names, and says so.
strip --strip-debug -o "$T/stripped.o" "$T/names.o"
"$AUDIT" --targets "$T/stripped.o" > "$T/s.out" 2>&1
check "stripped: '?' for the type, and a line that says why" sh -c \
	"grep -A1 'most permissive' '$T/s.out' | tail -1 | grep -qE '^  $want +5 +1  \?  put_[a-e]\$' &&
	 grep -qx '$T/stripped.o: type names unavailable: the file has no kcfi-as name records (built by Clang, or by a kcfi-as before them, or stripped) and no DWARF that gives them' '$T/s.out'"

# Lent names (--names-from): another build's records, hashed again with
# each hash, name the ids of a file that has neither records nor DWARF.
# Across hashes too: names.o (FNV-1a) names the xxHash64 build's ids.
"$AUDIT" --targets --names-from="$T/names.o" "$T/stripped.o" > "$T/l.out" 2>&1
check "lent: the stripped file's ten ids named by names.o" sh -c \
	"grep -A1 'most permissive' '$T/l.out' | tail -1 | grep -qE '^  $want +5 +1  _ZTSFvPvE  put_[a-e]\$' &&
	 grep -qx '$T/stripped.o: type names for 10 of 10 ids (FNV-1a; 10 lent by $T/names.o), 0 of them with more than one name (a hash collision)' '$T/l.out'"
strip --strip-debug -o "$T/stripped-xx.o" "$T/names-xx.o"
"$AUDIT" --targets --names-from="$T/names.o" "$T/stripped-xx.o" > "$T/lx.out" 2>&1
check "lent across hashes: FNV-1a records name the xxHash64 ids" sh -c \
	"grep -A1 'most permissive' '$T/lx.out' | tail -1 | grep -qE '^  $xid +5 +1  _ZTSFvPvE  put_[a-e]\$' &&
	 grep -q 'type names for 10 of 10 ids (xxHash64; 10 lent by $T/names.o), 0 of' '$T/lx.out'"
# A donor that has no such type lends nothing for it: prog.o's records
# name none of names.c's five call types.
"$AUDIT" --targets --names-from="$T/prog.o" "$T/stripped.o" > "$T/lp.out" 2>&1
check "a donor without the type: still '?'" sh -c \
	"grep -A1 'most permissive' '$T/lp.out' | tail -1 | grep -qE '^  $want +5 +1  \?  put_[a-e]\$'"
"$AUDIT" --targets --names-from="$T/stripped.o" "$T/stripped-xx.o" > "$T/le.out" 2>&1
check "a donor without records: exit 2, said so" sh -c \
	"[ $? -eq 2 ] && grep -qx 'kcfi-audit: $T/stripped.o: error: has no kcfi-as type name records to lend (built by Clang, by a kcfi-as before them, or stripped of them)' '$T/le.out'"
"$AUDIT" --names-from="$T/names.o" "$T/stripped.o" > "$T/ln.out" 2>&1
check "--names-from without --targets: exit 2" sh -c "[ $? -eq 2 ] && grep -q 'need --targets' '$T/ln.out'"

# Without the records but with DWARF (-g): the names come from the
# function types in the DWARF, written back as prototypes and hashed as
# kcfi-as would; a prototype names an id only if its hash is that id.
"$KCFI_GCC" -fsanitize=kcfi -O2 -g -c -o "$T/names-g.o" "$A/names.c"
objcopy --remove-section=.debug "$T/names-g.o" "$T/dwarf.o"
"$AUDIT" --targets "$T/dwarf.o" > "$T/d.out" 2>&1
k=0
for t in $TYPES; do
	tn=${t%%:*} rest=${t#*:}
	n=${rest%%:*} fn=${rest#*:}
	k=$((k + 1))
	id=$(fnv1a "$tn")
	check "from DWARF, line $k: $tn, id $id" sh -c \
		"grep -A5 'most permissive' '$T/d.out' | tail -5 | sed -n ${k}p | grep -qE '^  $id +$n +1  $tn  ${fn}_[a-e]\$'"
done
check "from DWARF: all ten ids, and it says where from" grep -qx \
	"$T/dwarf.o: type names for 10 of 10 ids (FNV-1a; 10 from DWARF), 0 of them with more than one name (a hash collision)" "$T/d.out"

# A check loads from the register the branch goes through (kcfi-as uses the
# call's own register, as Clang does without retpolines; Linux's decoder
# reads whichever the addl names).  The same text with every check through
# %rax, and through %r12 (whose addl needs a SIB).
ADDL='s/^	addl	-4(%[a-z0-9]*), %r10d$/	addl	-4(%REG), %r10d/'
BRANCH='s/^	\(call\|jmp\)	\*%[a-z0-9]*$/	\1	*%REG/'
for r in rax r12; do
	sed -e "$(echo "$ADDL" | sed "s/REG/$r/")" -e "$(echo "$BRANCH" | sed "s/REG/$r/")" \
		"$T/names.k.s" > "$T/$r.s" && as -o "$T/$r.o" "$T/$r.s"
	check "checks through %$r: 5 checked, 0 findings" sh -c \
		". '$A/lib.sh'; audited '$T/$r.o' 0 && grep -q ': x86_64: 5 checked, 0 exempt (), 0 unchecked, ' '$T/$r.o.audit'"
done
sed -e "$(echo "$ADDL" | sed "s/REG/rax/")" -e "$(echo "$BRANCH" | sed "s/REG/r11/")" \
	"$T/names.k.s" > "$T/mix.s" && as -o "$T/mix.o" "$T/mix.s"
check "a check of %rax before a branch through %r11: named" sh -c \
	". '$A/lib.sh'; audited '$T/mix.o' 1 &&
	 grep -q \"<call_put>: indirect call 'call r11': the KCFI check in front of it tests %rax, but the branch does not go through %rax\$\" '$T/mix.o.audit'"

# Clang itself, when configure found clang-19 (not needed in CI).
CLANG=${CLANG19:-}
if [ -n "$CLANG" ] && [ -x "$CLANG" ]; then
	"$CLANG" -fsanitize=kcfi -O2 -c -o "$T/clang.o" "$A/names.c"
	"$AUDIT" --targets "$T/clang.o" > "$T/c.out" 2>&1
	check "$CLANG: 5 checked, the xxHash64 ids, no names" sh -c \
		"grep -q ': x86_64: 5 checked, ' '$T/c.out' &&
		 grep -A1 'most permissive' '$T/c.out' | tail -1 | grep -qE '^  $xid +5 +1  \?  put_[a-e]\$' &&
		 grep -q 'type names unavailable' '$T/c.out'"
	"$AUDIT" --targets --names-from="$T/names.o" "$T/clang.o" > "$T/cl.out" 2>&1
	check "$CLANG without -g: names lent by kcfi-gcc's build of the same file" sh -c \
		"grep -A1 'most permissive' '$T/cl.out' | tail -1 | grep -qE '^  $xid +5 +1  _ZTSFvPvE  put_[a-e]\$' &&
		 grep -q 'type names for 10 of 10 ids (xxHash64; 10 lent by $T/names.o), 0 of' '$T/cl.out'"
	"$CLANG" -fsanitize=kcfi -O2 -g -c -o "$T/clang-g.o" "$A/names.c"
	"$AUDIT" --targets "$T/clang-g.o" > "$T/cg.out" 2>&1
	check "$CLANG -g: the names from DWARF, xxHash64" sh -c \
		"grep -A1 'most permissive' '$T/cg.out' | tail -1 | grep -qE '^  $xid +5 +1  _ZTSFvPvE  put_[a-e]\$' &&
		 grep -q 'type names for 10 of 10 ids (xxHash64; 10 from DWARF), 0 of' '$T/cg.out'"
else
	echo "SKIP: no clang-19 (configure's CLANG19)"
fi
finish
