#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Who gets a __cfi_ preamble and who gets __kcfi_typeid_, read from the
# objects kcfi-gcc writes (doc/design.md 4): public
# functions and address-taken statics yes, with the function's binding; a
# static only called directly, nocf_check and .cold parts no; asm names are
# used as written; __kcfi_typeid_ only for address-taken declarations.
. "$top_srcdir/tests/e2e/lib.sh"

VOID_INT=$(id FviE) VOID=$(id FvvE) INT_INT=$(id FiiE)
has_preamble() {	# OBJ NAME TYPE BINDING
	got=$(preamble "$1" "$2")
	case $got in
	"type=$3 nops="*" binding=$4") ;;
	*) echo "__cfi_$2: want type=$3 binding=$4, got '$got'"; return 1 ;;
	esac
}
rules() {
	s=$1
	decoded "$s" &&
	has_preamble "$s" pub_fn "$VOID_INT" GLOBAL &&
	has_preamble "$s" st_taken "$VOID_INT" LOCAL &&
	has_preamble "$s" cold_fn "$VOID" GLOBAL &&
	has_preamble "$s" custom_sym "$INT_INT" GLOBAL &&
	has_preamble "$s" splitter "$VOID_INT" GLOBAL &&
	has_preamble "$s" main "$(id FivE)" GLOBAL &&
	equal 6 "$(grep -c '^preamble ' "$s.chk")" "preambles" &&
	nm "$s" | grep -q ' st_plain' && nm "$s" | grep -q ' T nocf_fn$' &&
	! nm "$s" | grep -E '__cfi_(st_plain|nocf_fn|renamed|.*\.cold)' &&
	! nm "$s" | grep -F '__cfi_*' &&
	equal "$VOID" "$(typeid "$s" ext_taken)" "__kcfi_typeid_ext_taken" &&
	equal 1 "$(grep -c '^typeid ' "$s.chk")" "__kcfi_typeid_ symbols" &&
	# hook, ext_hook and renamed_hook: one check each.
	equal 1 "$(n_traps "$s" "$VOID_INT")" "checks of void (int)" &&
	equal 1 "$(n_traps "$s" "$VOID")" "checks of void (void)" &&
	equal 1 "$(n_traps "$s" "$INT_INT")" "checks of int (int)" &&
	adjacent "$s"
}
for o in $OPT_LEVELS "-O2 -fcf-protection=branch" "-O2 -ffunction-sections" "-O2 -fpic"; do
	obj=$T/p$(echo "$o" | tr -d ' =').o
	kgcc $o -c -o "$obj" "$PRE/preamble.c" &&
	check "preambles and typeids at $o" rules "$obj" || fail "preamble.c builds at $o"
done

cold() {
	s=$1
	rules "$s" && nm "$s" | grep -q ' splitter\.cold$' && ! nm "$s" | grep -q '__cfi_splitter\.cold'
}
kgcc -O2 -freorder-blocks-and-partition -c -o "$T/cold.o" "$PRE/preamble.c" &&
check "a .cold part gets no preamble" cold "$T/cold.o"

# With -fcf-protection the preamble sits in front of f's endbr64.
endbr() {
	objdump -d "$T/cet.o" | grep -A1 '<pub_fn>:' | grep -q endbr64 &&
	objdump -d "$T/cet.o" | grep -A12 '<__cfi_pub_fn>:' | grep -q 'mov  *\$0x.*%eax'
}
kgcc -O2 -fcf-protection=branch -c -o "$T/cet.o" "$PRE/preamble.c" &&
check "endbr64 stays the entry instruction" endbr

# Declarations the optimizers never see as functions (static_assert) do not
# confuse who gets a preamble.
cat >"$T/asserts.c" <<'C'
#include <stddef.h>
typedef struct { int a; char b; } rec_t;
_Static_assert (offsetof (rec_t, b) == 4, "layout");
void visible (void) { }
static void helper (void) { __asm__ volatile (""); }
void taken (void) { }
_Static_assert (sizeof (void *) >= 4, "pointer");
void (*hook_ptr) (void) = taken;
int main (void) { _Static_assert (sizeof (int) == 4, "int"); visible (); helper (); hook_ptr (); return 0; }
C
asserts() {
	decoded "$1" &&
	has_preamble "$1" visible "$VOID" GLOBAL && has_preamble "$1" taken "$VOID" GLOBAL &&
	has_preamble "$1" main "$(id FivE)" GLOBAL && [ -z "$(preamble "$1" helper)" ] &&
	equal 1 "$(n_traps "$1" "$VOID")" "checks of void (void)"
}
for o in $OPT_LEVELS; do
	kgcc $o -c -o "$T/asserts$o.o" "$T/asserts.c" &&
	check "static_assert around functions at $o" asserts "$T/asserts$o.o" ||
		fail "static_assert unit builds at $o"
done

# The same scenario, run: address-taken and public functions are callable.
kgcc -O2 -c -o "$T/pre.o" "$PRE/preamble.c" &&
printf 'void ext_taken (void) { }\nint ext_called (int v) { return v; }\nvoid rare_path (int v) { (void) v; }\n' >"$T/ext.c" &&
kgcc -O2 -o "$T/pre" "$T/pre.o" "$T/ext.c" &&
check "preamble.c runs its three indirect calls" sh -c "'$T/pre'; test \$? -eq 5"
finish
