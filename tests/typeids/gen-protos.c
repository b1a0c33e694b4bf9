/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gen-protos: random but reproducible function types for the Clang
 * differential test (clang-diff.sh).
 *
 *   gen-protos COUNT [SEED] [--cc=gcc] [--salt]
 *
 * --cc=gcc keeps to what the native GCC (12) compiles as well, for the
 * differential through kcfi-gcc (tests/differential/): no _BitInt, no
 * __bf16; and it adds ms_abi function types, as a third column "ms" (the
 * declaration carries the attribute) and as pointer typedefs ms_fp0/1, and
 * for about one base type in ten the typedef names of gcc_bases.
 * Prints COUNT lines "OURS<TAB>CLANG": the same function type in the
 * prototype language and in C that Clang accepts inside __typeof__().  The
 * two differ only where the prototype language has its own spelling: a
 * typedef'd anonymous tag is `struct NAME` for us and `NAME` in C, a GNU
 * vector is `__vector(N) T` for us and a vector_size typedef in C.  Those
 * typedefs, and the tags used here, are declared at file scope by the test.
 *
 * Both modes put x86 named address spaces (__seg_gs, __seg_fs, without
 * --cc=gcc also address_space(N), which GCC ignores) on pointees and array
 * elements, about one in ten.  --salt (Clang 22 only) adds cfi_salt: on the
 * function type itself, one in five, as a last column SALT (the body of a C
 * string; C has no salted abstract declarator, so the test puts it on the
 * declaration, and the prototype-language text carries it too), and salted
 * function pointers among the base types, with unsalted twins so that
 * substitutions across salts are tried: typedef names (salt_fp0...) for C,
 * declared by the tests.
 *
 * --defs (with --cc=gcc) prints function definitions for the arity
 * differential (tests/differential/arity.sh) instead: "NAME<TAB>DEFINITION"
 * lines, C23 (unnamed parameters), no [*] and no unprototyped function
 * types (C23 reads "()" as "(void)"), up to eight parameters, structs by
 * value of every psABI class (the test declares them, abi_bases), and
 * va_start in half of the variadic ones.
 *
 * Every generated type is valid C17: no void parameters, no arrays of
 * functions, restrict only on object pointers, [*] and [static N] only where
 * C allows them.  The mangler is exercised on the rest: specifier spellings
 * in any order, qualifiers everywhere, decay, VLAs, nested function types,
 * unprototyped pointees, variadics and lots of repeated components for the
 * substitution logic.
 */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a tiny string builder (no error path worth having in a test tool) ---- */

struct str {
	char *s;
	size_t len, cap;
};

static void str_printf(struct str *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void str_printf(struct str *b, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			abort();
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		b->cap = (b->cap + (size_t)n + 64) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
		if (!b->len)
			b->s[0] = '\0';
	}
}

static char *str_take(struct str *b)
{
	char *s = b->s ? b->s : strdup("");
	memset(b, 0, sizeof(*b));
	return s;
}

/* ---- deterministic randomness ---- */

static uint64_t rng_state;

static unsigned pick(unsigned n)
{
	/* splitmix64: reproducible on every host, unlike rand(). */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (unsigned)(z % n);
}

static bool chance(unsigned percent)
{
	return pick(100) < percent;
}

/* ---- types ---- */

enum kind { K_BASE, K_PTR, K_ARRAY, K_FUNC };

/* Where a type appears decides what C allows there. */
enum role { R_RETURN, R_PARAM, R_POINTEE, R_ELEMENT };

struct type {
	enum kind kind;
	const char *ours, *clang;	/* K_BASE spellings */
	bool scalar;			/* K_BASE: may take _Atomic */
	const char *quals;		/* "", "const ", ... (K_BASE, K_PTR) */
	const char *as;			/* "", "__seg_gs ", ... (K_BASE, K_PTR) */
	bool whole;			/* K_BASE: a full abstract declarator, unnamed */
	const char *salt;		/* K_FUNC outermost: "" or a C string body */
	struct type *inner;		/* pointee, element, return type */
	char size[32];			/* K_ARRAY: "3", "", "*", "static 4", "const 2" */
	struct type *params[8];
	unsigned nparams;
	bool variadic, unprototyped;
};

struct base {
	const char *ours, *clang;
	bool scalar;
};

static bool gcc_mode, salt_mode, defs_mode;

/* --defs: aggregates by value of each x86_64 psABI class, declared by
 * tests/differential/arity.sh: INTEGER in one and two eightbytes, MEMORY
 * (24 bytes, long double, over 16 bytes of floats), SSE, mixed eightbytes,
 * an empty struct, __int128 inside, a char array, a union of int and
 * float. */
static const char *const abi_bases[] = {
	"struct a8", "struct a16", "struct a24", "struct af8", "struct ad16", "struct am16",
	"struct amf", "struct ald", "struct a32f", "struct aempty", "struct ai128",
	"struct ac12", "union aif", "struct a3", "struct af12",
};

/* -1: GCC 12 has no such type; 1: only with --cc=gcc; 0: always. */
static int gcc12_class(const struct base *b)
{
	if (strstr(b->ours, "_BitInt") || !strcmp(b->ours, "__bf16"))
		return -1;
	return strstr(b->ours, "ms_abi") ? 1 : 0;
}

/* Spellings on purpose in many orders and forms: they must all mangle like
 * their canonical type. */
static const struct base bases[] = {
	{ "_Bool", NULL, true }, { "char", NULL, true }, { "signed char", NULL, true },
	{ "char unsigned", NULL, true }, { "short", NULL, true }, { "short int", NULL, true },
	{ "unsigned short", NULL, true }, { "int", NULL, true }, { "signed", NULL, true },
	{ "unsigned", NULL, true }, { "unsigned int", NULL, true }, { "long", NULL, true },
	{ "long int", NULL, true }, { "unsigned long", NULL, true },
	{ "long unsigned int", NULL, true }, { "long long", NULL, true },
	{ "long long unsigned", NULL, true }, { "int long long", NULL, true },
	{ "__int128", NULL, true }, { "unsigned __int128", NULL, true },
	{ "__signed__ char", NULL, true },
	{ "float", NULL, false }, { "double", NULL, false }, { "long double", NULL, false },
	{ "double long", NULL, false }, { "_Float16", NULL, false }, { "__bf16", NULL, false },
	{ "_Complex float", NULL, false }, { "double _Complex", NULL, false },
	{ "_Complex long double", NULL, false }, { "_Complex int", NULL, false },
	{ "unsigned _Complex char", NULL, false },
	{ "_BitInt(7)", NULL, false }, { "_BitInt(32)", NULL, false },
	{ "signed _BitInt(64)", NULL, false }, { "unsigned _BitInt(1)", NULL, false },
	{ "unsigned _BitInt(128)", NULL, false },
	{ "struct s0", NULL, false }, { "struct s1", NULL, false }, { "struct s2", NULL, false },
	{ "struct s3", NULL, false }, { "union u0", NULL, false }, { "union u1", NULL, false },
	{ "enum e0", NULL, false }, { "enum e1", NULL, false },
	{ "struct td_s0", "td_s0", false }, { "union td_u0", "td_u0", false },
	{ "enum td_e0", "td_e0", false },
	{ "__vector(4) int", "v4si", false }, { "__vector(4) float", "v4sf", false },
	{ "__vector(2) double", "v2df", false }, { "__vector(8) short", "v8hi", false },
	{ "__vector(16) unsigned char", "v16qu", false },
	{ "void (*)(int) __attribute__((ms_abi))", "ms_fp0", false },
	{ "int (*)(struct s0 *, ...) __attribute__((ms_abi))", "ms_fp1", false },
};

/* --cc=gcc only: typedef names whose meaning the plugin works out from
 * GCC's trees, declared by the differential test's prelude.  One typedef
 * declaring several names of an anonymous tag (the first name declared as
 * the tag type itself names it, whichever name is used), typedefs adding
 * qualifiers to an anonymous tag (it stays anonymous, $_N, numbered as
 * Clang numbers it) and transparent unions (as a parameter or the return
 * type of the function type itself, Clang 22 counts one as its first
 * member; td_tu2 is one Clang drops the attribute for).  Arrays cannot be
 * returned, and GCC drops the qualifiers of a return type (see gen_func):
 * those are NO_RETURN. */
static const struct gcc_base {
	const char *name;
	bool no_return;
} gcc_bases[] = {
	{ "td_m0", false }, { "td_m0p", false }, { "td_m0a", true },
	{ "td_pf0p", false }, { "td_pf0", false },
	{ "td_mu0", false }, { "td_mu0p", false }, { "td_me0", false }, { "td_me0p", false },
	{ "td_q0", true }, { "td_q1", true }, { "td_q1p", false }, { "td_q2", true },
	{ "td_q3", true },
	{ "td_tu0", false }, { "union tu1", false }, { "td_tu2", false },
};

/* --salt: salted function pointers and their unsalted twins.  OURS is the
 * prototype language (only ever a whole, unnamed parameter there), C a
 * typedef name the tests declare (salt_fp0: "kvm", salt_fp1: "kvm" again,
 * salt_fp2: "x", salt_fp3: an int (int, char *) salted "a.b"). */
static const struct base salt_bases[] = {
	{ "void (*)(int) __attribute__((cfi_salt(\"kvm\")))", "salt_fp0", false },
	{ "void (*)(int) __attribute__((cfi_salt(\"kvm\")))", "salt_fp1", false },
	{ "void (*)(int) __attribute__((cfi_salt(\"x\")))", "salt_fp2", false },
	{ "void (*)(int)", "plain_fp0", false },
	{ "int (*)(int, char *) __attribute__((cfi_salt(\"a.b\")))", "salt_fp3", false },
	{ "int (*)(int, char *)", "plain_fp3", false },
};

/* Salts of the function types themselves: C string bodies. */
static const char *const salts[] = { "kvm", "x", "a.b", "sp ace", "q\\\"t", "kvm" };

static const char *const qual_sets[] = {
	"const ", "volatile ", "const volatile ", "volatile const ", "__const ", "__volatile__ ",
};

static struct type *new_type(enum kind k)
{
	struct type *t = calloc(1, sizeof(*t));
	if (!t)
		abort();
	t->kind = k;
	t->quals = "";
	t->as = "";
	t->salt = "";
	return t;
}

static void free_type(struct type *t)
{
	if (!t)
		return;
	free_type(t->inner);
	for (unsigned i = 0; i < t->nparams; i++)
		free_type(t->params[i]);
	free(t);
}

static struct type *gen(enum role role, unsigned depth, bool in_params);

/* An address space for a pointee or an array element (never the top level
 * of a parameter or a return type): GCC has only x86's two. */
static const char *gen_as(enum role role)
{
	if ((role != R_POINTEE && role != R_ELEMENT) || !chance(10))
		return "";
	unsigned r = pick(gcc_mode ? 2 : 3);
	return r == 0 ? "__seg_gs " : r == 1 ? "__seg_fs " : "__attribute__((address_space(1))) ";
}

static struct type *gen_base(enum role role)
{
	struct type *t = new_type(K_BASE);
	/* A small pool, so that components repeat and substitutions happen. */
	if (salt_mode && (gcc_mode || role == R_PARAM) && chance(12)) {
		/* Without --cc=gcc the prototype-language text is a whole
		 * abstract declarator: a parameter of its own, unqualified. */
		const struct base *b = &salt_bases[pick(sizeof(salt_bases) / sizeof(salt_bases[0]))];
		t->ours = b->ours;
		t->clang = b->clang;
		t->whole = !gcc_mode;
		if (gcc_mode && chance(20))
			t->quals = qual_sets[pick(sizeof(qual_sets) / sizeof(qual_sets[0]))];
		t->as = gcc_mode ? gen_as(role) : "";
		return t;
	}
	if (defs_mode && (role == R_PARAM || role == R_RETURN) && chance(30)) {
		t->ours = t->clang = abi_bases[pick(sizeof(abi_bases) / sizeof(abi_bases[0]))];
	} else if ((role == R_RETURN || role == R_POINTEE) && chance(15)) {
		t->ours = t->clang = "void";
	} else if (gcc_mode && chance(10)) {
		const struct gcc_base *b;
		do
			b = &gcc_bases[pick(sizeof(gcc_bases) / sizeof(gcc_bases[0]))];
		while (role == R_RETURN && b->no_return);
		t->ours = t->clang = b->name;	/* "ours" is unused with --cc=gcc */
	} else {
		const struct base *b;
		do
			b = &bases[pick(sizeof(bases) / sizeof(bases[0]))];
		while (gcc12_class(b) == (gcc_mode ? -1 : 1));
		t->ours = b->ours;
		t->clang = b->clang ? b->clang : b->ours;
		t->scalar = b->scalar;
	}
	if (chance(20))
		t->quals = qual_sets[pick(sizeof(qual_sets) / sizeof(qual_sets[0]))];
	else if (t->scalar && chance(5))
		t->quals = chance(50) ? "_Atomic " : "const _Atomic ";
	t->as = gen_as(role);
	return t;
}

static struct type *gen_func(unsigned depth, bool in_params)
{
	struct type *t = new_type(K_FUNC);
	t->inner = gen(R_RETURN, depth + 1, in_params);
	/* GCC removes a return type's qualifiers except _Atomic (C11 DR 423),
	 * Clang keeps them: a documented divergence, not tested here. */
	if (gcc_mode)
		t->inner->quals = strstr(t->inner->quals, "_Atomic") ? "_Atomic " : "";
	if (chance(6) && !defs_mode) {
		t->unprototyped = true;
		return t;
	}
	t->nparams = pick(depth ? 3 : defs_mode ? 9 : 6);
	for (unsigned i = 0; i < t->nparams; i++) {
		t->params[i] = gen(R_PARAM, depth + 1, true);
		/* GCC drops _Atomic from parameter types too, Clang keeps it:
		 * the other GCC-side divergence. */
		if (gcc_mode && strstr(t->params[i]->quals, "_Atomic"))
			t->params[i]->quals = "";
	}
	t->variadic = t->nparams && chance(10);
	return t;
}

static struct type *gen(enum role role, unsigned depth, bool in_params)
{
	unsigned r = depth > 2 ? 0 : pick(100);	/* deep enough: a base type */
	if (r < 55)
		return gen_base(role);
	if (r < 80 || role == R_RETURN) {
		struct type *t = new_type(K_PTR);
		t->inner = gen(R_POINTEE, depth + 1, in_params);
		if (chance(20))
			t->quals = qual_sets[pick(sizeof(qual_sets) / sizeof(qual_sets[0]))];
		/* restrict needs a pointer to an object type */
		if (t->inner->kind != K_FUNC && chance(10))
			t->quals = chance(50) ? "restrict " : "const __restrict ";
		t->as = gen_as(role);
		return t;
	}
	if (r < 92 && role != R_ELEMENT)
		return gen_func(depth, in_params);	/* as a parameter, it decays */
	struct type *t = new_type(K_ARRAY);
	do {
		free_type(t->inner);
		t->inner = gen(R_ELEMENT, depth + 1, in_params);
	} while (t->inner->kind == K_BASE && !strcmp(t->inner->ours, "void"));
	unsigned s = pick(10);
	if (role == R_PARAM && s == 0)
		strcpy(t->size, "static 4");
	else if (role == R_PARAM && s == 1)
		strcpy(t->size, "const 2");
	else if (role != R_ELEMENT && s < 4)
		strcpy(t->size, "");		/* [] may not be an element type */
	else if (in_params && s < 6 && !defs_mode)
		strcpy(t->size, "*");
	else
		snprintf(t->size, sizeof(t->size), "%u", 1 + pick(16));
	/* An array parameter is qualified as its elements are, and Clang
	 * refuses a parameter in an address space. */
	if (role == R_PARAM) {
		struct type *e = t;
		while (e->kind == K_ARRAY)
			e = e->inner;
		e->as = "";
	}
	return t;
}

/* ---- printing C declarators inside out ---- */

static char *print(const struct type *t, const char *inner, bool clang);

/* --defs: the function being defined, whose parameters get names
 * (some none: C23), and the name of its last one ("" if unnamed). */
static const struct type *defining;
static char last_name[16];

static char *print_params(const struct type *f, bool clang)
{
	struct str b = { 0 };
	if (f->unprototyped)
		return str_take(&b);
	if (!f->nparams)
		str_printf(&b, "void");
	for (unsigned i = 0; i < f->nparams; i++) {
		/* Parameter names are allowed and ignored. */
		bool whole = !clang && f->params[i]->whole;
		char name[16] = "";
		if (f == defining && chance(85))
			snprintf(name, sizeof(name), "p%u", i);
		if (f == defining)
			strcpy(last_name, name);
		char *p = print(f->params[i], f == defining ? name : i == 1 && !whole ? "arg" : "", clang);
		str_printf(&b, "%s%s", i ? ", " : "", p);
		free(p);
	}
	if (f->variadic)
		str_printf(&b, ", ...");
	return str_take(&b);
}

static char *print(const struct type *t, const char *inner, bool clang)
{
	struct str b = { 0 };
	char *r, *p;
	switch (t->kind) {
	case K_BASE:
		str_printf(&b, "%s%s%s%s%s", t->quals, t->as, clang ? t->clang : t->ours,
			   *inner ? " " : "", inner);
		return str_take(&b);
	case K_PTR:
		if (t->inner->kind == K_ARRAY || t->inner->kind == K_FUNC)
			str_printf(&b, "(*%s%s%s)", t->quals, t->as, inner);
		else
			str_printf(&b, "*%s%s%s", t->quals, t->as, inner);
		break;
	case K_ARRAY:
		str_printf(&b, "%s[%s]", inner, t->size);
		break;
	case K_FUNC:
		p = print_params(t, clang);
		str_printf(&b, "%s(%s)", inner, p);
		if (!clang && *t->salt)
			str_printf(&b, " __attribute__((cfi_salt(\"%s\")))", t->salt);
		free(p);
		break;
	}
	p = str_take(&b);
	r = print(t->inner, p, clang);
	free(p);
	return r;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s COUNT [SEED]\n", argv[0]);
		return 2;
	}
	unsigned count = (unsigned)strtoul(argv[1], NULL, 10);
	rng_state = argc > 2 ? strtoull(argv[2], NULL, 0) : 20240601;
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--cc=gcc"))
			gcc_mode = true;
		else if (!strcmp(argv[i], "--salt"))
			salt_mode = true;
		else if (!strcmp(argv[i], "--defs"))
			defs_mode = gcc_mode = true;
		else {
			fprintf(stderr, "%s: unknown option %s\n", argv[0], argv[i]);
			return 2;
		}
	}
	for (unsigned i = 0; i < count; i++) {
		struct type *f = gen_func(0, false);
		/* K&R types cannot be salted (Clang's error) */
		if (salt_mode && !f->unprototyped && chance(20))
			f->salt = salts[pick(sizeof(salts) / sizeof(salts[0]))];
		if (defs_mode) {
			char name[16];
			snprintf(name, sizeof(name), "d%u", i + 1);
			defining = f;
			last_name[0] = '\0';
			char *def = print(f, name, true);
			defining = NULL;
			/* va_start needs the last named parameter's name. */
			bool va = f->variadic && *last_name && chance(50);
			/* ms_abi functions have __builtin_ms_va_start instead */
			bool ms = !va && chance(10);
			printf("%s\t%s%s {%s%s%s}\n", name, ms ? "__attribute__((ms_abi)) " : "", def,
			       va ? " __builtin_va_list ap; __builtin_va_start(ap, " : "",
			       va ? last_name : "", va ? "); __builtin_va_end(ap); " : "");
			free(def);
			free_type(f);
			continue;
		}
		char *ours = print(f, "", false), *clang = print(f, "", true);
		/* the ms_abi pool entries are pointers: as a base, the C side
		 * uses the typedef, and "ours" (unused in this mode) too */
		if (gcc_mode)
			printf("%s\t%s\t%s\t%s\n", clang, clang,
			       !f->unprototyped && chance(10) ? "ms" : "", f->salt);
		else if (salt_mode)
			printf("%s\t%s\t%s\n", ours, clang, f->salt);
		else
			printf("%s\t%s\n", ours, clang);
		free(ours);
		free(clang);
		free_type(f);
	}
	return 0;
}
