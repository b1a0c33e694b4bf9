/* gen-protos: random but reproducible function types for the Clang
 * differential test (clang-diff.sh).
 *
 *   gen-protos COUNT [SEED] [--cc=gcc]
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

static bool gcc_mode;

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

static struct type *gen_base(enum role role)
{
	struct type *t = new_type(K_BASE);
	/* A small pool, so that components repeat and substitutions happen. */
	if ((role == R_RETURN || role == R_POINTEE) && chance(15)) {
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
	if (chance(6)) {
		t->unprototyped = true;
		return t;
	}
	t->nparams = pick(depth ? 3 : 6);
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
	else if (in_params && s < 6)
		strcpy(t->size, "*");
	else
		snprintf(t->size, sizeof(t->size), "%u", 1 + pick(16));
	return t;
}

/* ---- printing C declarators inside out ---- */

static char *print(const struct type *t, const char *inner, bool clang);

static char *print_params(const struct type *f, bool clang)
{
	struct str b = { 0 };
	if (f->unprototyped)
		return str_take(&b);
	if (!f->nparams)
		str_printf(&b, "void");
	for (unsigned i = 0; i < f->nparams; i++) {
		/* Parameter names are allowed and ignored. */
		char *p = print(f->params[i], i == 1 ? "arg" : "", clang);
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
		str_printf(&b, "%s%s%s%s", t->quals, clang ? t->clang : t->ours, *inner ? " " : "",
			   inner);
		return str_take(&b);
	case K_PTR:
		if (t->inner->kind == K_ARRAY || t->inner->kind == K_FUNC)
			str_printf(&b, "(*%s%s)", t->quals, inner);
		else
			str_printf(&b, "*%s%s", t->quals, inner);
		break;
	case K_ARRAY:
		str_printf(&b, "%s[%s]", inner, t->size);
		break;
	case K_FUNC:
		p = print_params(t, clang);
		str_printf(&b, "%s(%s)", inner, p);
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
	gcc_mode = argc > 3 && !strcmp(argv[3], "--cc=gcc");
	for (unsigned i = 0; i < count; i++) {
		struct type *f = gen_func(0, false);
		char *ours = print(f, "", false), *clang = print(f, "", true);
		/* the ms_abi pool entries are pointers: as a base, the C side
		 * uses the typedef, and "ours" (unused in this mode) too */
		if (gcc_mode)
			printf("%s\t%s\t%s\n", clang, clang, !f->unprototyped && chance(10) ? "ms" : "");
		else
			printf("%s\t%s\n", ours, clang);
		free(ours);
		free(clang);
		free_type(f);
	}
	return 0;
}
