/* The C prototype behind a KCFI type name, and two prototypes' differences.
 *
 * kcfi-as names an id by "_ZTS" and the Itanium mangling of a C function
 * type (doc/abi.md 5): "_ZTSFvP3objmE" is void (obj *, unsigned long).
 * C needs a small part of that grammar: builtin types, pointers, the
 * qualifiers, function and array types, source names (a struct, union,
 * enum or typedef'd tag, which the mangling leaves unmarked, so it is
 * printed as the bare name), vendor qualifiers and types, vectors, and
 * the substitutions S_, S0_... that stand for an earlier part.  Anything
 * else makes the name unreadable here, and the caller prints it mangled.
 * The grammar is small enough that a parser of our own gives each
 * parameter as a string directly, which the comparison needs, without a
 * dependency on libiberty.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/explain.h"

enum { NODES_MAX = 256, KIDS_MAX = 256, SUBS_MAX = 128, DEPTH_MAX = 32 };

enum kind { K_BUILTIN, K_NAME, K_PTR, K_QUAL, K_FUNC, K_ARRAY, K_VECTOR };

struct node {
	enum kind k;
	const char *s;		/* builtin's C name, name or qualifier text */
	size_t len;		/* of S when it points into the mangled name */
	int child;		/* pointee, qualified, element, return type */
	int first, n;		/* K_FUNC: parameters in kids[first..first+n) */
	bool variadic;
	unsigned long count;	/* K_ARRAY (0: unknown), K_VECTOR */
};

struct parse {
	const char *p, *end;
	struct node nodes[NODES_MAX];
	int nnodes;
	int kids[KIDS_MAX];
	int nkids;
	int subs[SUBS_MAX];
	int nsubs;
	bool ok;
};

static const struct { const char *code, *c; } builtins[] = {
	{ "v", "void" }, { "w", "wchar_t" }, { "b", "_Bool" }, { "c", "char" },
	{ "a", "signed char" }, { "h", "unsigned char" }, { "s", "short" },
	{ "t", "unsigned short" }, { "i", "int" }, { "j", "unsigned int" }, { "l", "long" },
	{ "m", "unsigned long" }, { "x", "long long" }, { "y", "unsigned long long" },
	{ "n", "__int128" }, { "o", "unsigned __int128" }, { "f", "float" }, { "d", "double" },
	{ "e", "long double" }, { "g", "__float128" }, { "Dn", "nullptr_t" },
	{ "DF16_", "_Float16" }, { "DF32_", "_Float32" }, { "DF64_", "_Float64" },
	{ "DF128_", "_Float128" }, { "DF32x", "_Float32x" }, { "DF64x", "_Float64x" },
	{ "Dh", "__fp16" }, { "DF16b", "__bf16" }, { "Du", "char8_t" }, { "Ds", "char16_t" },
	{ "Di", "char32_t" },
};

static int node(struct parse *ps, struct node n)
{
	if (ps->nnodes == NODES_MAX) {
		ps->ok = false;
		return 0;
	}
	ps->nodes[ps->nnodes] = n;
	return ps->nnodes++;
}

static void sub(struct parse *ps, int n)
{
	if (ps->nsubs < SUBS_MAX)
		ps->subs[ps->nsubs++] = n;
	else
		ps->ok = false;
}

static bool number(struct parse *ps, unsigned long *v)
{
	if (ps->p == ps->end || *ps->p < '0' || *ps->p > '9')
		return false;
	*v = 0;
	while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') {
		if (*v > 100000000)
			return false;
		*v = *v * 10 + (unsigned long)(*ps->p++ - '0');
	}
	return true;
}

/* <source-name> ::= <length> <identifier>: into *S, *LEN. */
static bool source_name(struct parse *ps, const char **s, size_t *len)
{
	unsigned long n;
	if (!number(ps, &n) || n == 0 || n > (unsigned long)(ps->end - ps->p))
		return false;
	*s = ps->p;
	*len = n;
	ps->p += n;
	return true;
}

static int type(struct parse *ps, int depth);

static int function(struct parse *ps, int depth)
{
	int ret = type(ps, depth + 1);
	int params[EXPLAIN_PARAMS_MAX + 1], np = 0;
	bool variadic = false;
	while (ps->ok && ps->p < ps->end && *ps->p != 'E') {
		if (*ps->p == 'z') {
			variadic = true;
			ps->p++;
			continue;
		}
		int t = type(ps, depth + 1);
		if (np > EXPLAIN_PARAMS_MAX)
			ps->ok = false;
		else
			params[np++] = t;
	}
	if (!ps->ok || ps->p == ps->end) {
		ps->ok = false;
		return 0;
	}
	ps->p++;	/* E */
	/* "Fv...E" with the one parameter void: no parameters. */
	if (np == 1 && ps->nodes[params[0]].k == K_BUILTIN && !strcmp(ps->nodes[params[0]].s, "void"))
		np = 0;
	if (ps->nkids + np > KIDS_MAX) {
		ps->ok = false;
		return 0;
	}
	int f = node(ps, (struct node){ .k = K_FUNC, .child = ret, .first = ps->nkids, .n = np,
				       .variadic = variadic });
	memcpy(ps->kids + ps->nkids, params, (size_t)np * sizeof(*params));
	ps->nkids += np;
	return f;
}

static int type(struct parse *ps, int depth)
{
	if (!ps->ok || depth > DEPTH_MAX || ps->p == ps->end) {
		ps->ok = false;
		return 0;
	}
	char c = *ps->p;
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
		size_t l = strlen(builtins[i].code);
		if ((size_t)(ps->end - ps->p) >= l && !memcmp(ps->p, builtins[i].code, l)) {
			ps->p += l;
			return node(ps, (struct node){ .k = K_BUILTIN, .s = builtins[i].c,
						      .len = strlen(builtins[i].c) });
		}
	}
	int n;
	const char *s;
	size_t len;
	unsigned long count = 0;
	ps->p++;
	switch (c) {
	case 'P':
		n = node(ps, (struct node){ .k = K_PTR, .child = type(ps, depth + 1) });
		break;
	case 'r':
	case 'V':
	case 'K': {
		/* <CV-qualifiers> in the order r V K: one qualified type. */
		unsigned q = c == 'r' ? 1 : c == 'V' ? 2 : 4;
		if (q < 2 && ps->p < ps->end && *ps->p == 'V')
			q |= 2, ps->p++;
		if (q < 4 && ps->p < ps->end && *ps->p == 'K')
			q |= 4, ps->p++;
		/* C writes them the other way round: "const volatile". */
		static const char *const c_names[8] = {
			"", "restrict", "volatile", "volatile restrict", "const", "const restrict",
			"const volatile", "const volatile restrict",
		};
		n = node(ps, (struct node){ .k = K_QUAL, .s = c_names[q], .len = strlen(c_names[q]),
					   .child = type(ps, depth + 1) });
		break;
	}
	case 'U':	/* vendor qualifier: U3AS1i, an address space */
		if (!source_name(ps, &s, &len)) {
			ps->ok = false;
			return 0;
		}
		n = node(ps, (struct node){ .k = K_QUAL, .s = s, .len = len,
					   .child = type(ps, depth + 1) });
		break;
	case 'u':	/* vendor type */
		if (!source_name(ps, &s, &len)) {
			ps->ok = false;
			return 0;
		}
		n = node(ps, (struct node){ .k = K_NAME, .s = s, .len = len });
		break;
	case 'F':
		if (ps->p < ps->end && *ps->p == 'Y')
			ps->p++;
		n = function(ps, depth);
		break;
	case 'A':
		number(ps, &count);
		if (ps->p == ps->end || *ps->p++ != '_') {
			ps->ok = false;
			return 0;
		}
		n = node(ps, (struct node){ .k = K_ARRAY, .count = count,
					   .child = type(ps, depth + 1) });
		break;
	case 'D':	/* Dv<N>_<type>: a vector */
		if (ps->p == ps->end || *ps->p++ != 'v' || !number(ps, &count) ||
		    ps->p == ps->end || *ps->p++ != '_') {
			ps->ok = false;
			return 0;
		}
		n = node(ps, (struct node){ .k = K_VECTOR, .count = count,
					   .child = type(ps, depth + 1) });
		break;
	case 'S': {	/* S_ is the first, S0_ the second, S<base 36>_ */
		unsigned long id = 0;
		if (ps->p < ps->end && *ps->p != '_') {
			for (; ps->p < ps->end && *ps->p != '_'; ps->p++) {
				char d = *ps->p;
				if (!((d >= '0' && d <= '9') || (d >= 'A' && d <= 'Z')) || id > SUBS_MAX) {
					ps->ok = false;
					return 0;
				}
				id = id * 36 + (unsigned long)(d <= '9' ? d - '0' : d - 'A' + 10);
			}
			id++;
		}
		if (ps->p == ps->end || id >= (unsigned long)ps->nsubs) {
			ps->ok = false;
			return 0;
		}
		ps->p++;
		return ps->subs[id];	/* not a new candidate itself */
	}
	default:
		ps->p--;
		if (!source_name(ps, &s, &len)) {
			ps->ok = false;
			return 0;
		}
		n = node(ps, (struct node){ .k = K_NAME, .s = s, .len = len });
		break;
	}
	if (ps->ok)
		sub(ps, n);
	return n;
}

/* Writing C declarators: each call writes "TYPE INNER" into OUT. */
struct out {
	char *s;
	size_t size;
	bool ok;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	char tmp[EXPLAIN_TYPE_MAX * 2];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(tmp) || (size_t)n >= o->size)
		o->ok = false;
	else
		memcpy(o->s, tmp, (size_t)n + 1);
}

static void params_c(const struct parse *ps, const struct node *f, struct out *o, int depth);

/* Did an snprintf of N into SIZE bytes fit?  If not, O is not ok. */
static bool fits(int n, size_t size, struct out *o)
{
	if (n < 0 || (size_t)n >= size)
		o->ok = false;
	return o->ok;
}

static void decl(const struct parse *ps, int n, const char *inner, struct out *o, int depth)
{
	const struct node *d = &ps->nodes[n];
	const char *sep = inner[0] ? " " : "";
	char in[EXPLAIN_TYPE_MAX * 2];
	if (depth > DEPTH_MAX) {
		o->ok = false;
		return;
	}
	switch (d->k) {
	case K_BUILTIN:
	case K_NAME:
		put(o, "%.*s%s%s", (int)d->len, d->s, sep, inner);
		return;
	case K_PTR: {
		enum kind to = ps->nodes[d->child].k;
		if (!fits(snprintf(in, sizeof(in), to == K_FUNC || to == K_ARRAY ? "(*%s)" : "*%s",
				   inner), sizeof(in), o))
			return;
		decl(ps, d->child, in, o, depth + 1);
		return;
	}
	case K_QUAL:
		if (ps->nodes[d->child].k == K_PTR) {	/* "* const p" */
			if (!fits(snprintf(in, sizeof(in), "%.*s%s%s", (int)d->len, d->s, sep, inner),
				  sizeof(in), o))
				return;
			decl(ps, d->child, in, o, depth + 1);
			return;
		}
		decl(ps, d->child, inner, o, depth + 1);
		if (o->ok) {
			char tmp[EXPLAIN_TYPE_MAX * 2];
			if (fits(snprintf(tmp, sizeof(tmp), "%s", o->s), sizeof(tmp), o))
				put(o, "%.*s %s", (int)d->len, d->s, tmp);
		}
		return;
	case K_FUNC: {
		char p[EXPLAIN_TYPE_MAX * 2];
		struct out po = { p, sizeof(p), true };
		params_c(ps, d, &po, depth + 1);
		if (!po.ok) {
			o->ok = false;
			return;
		}
		if (!fits(snprintf(in, sizeof(in), "%s(%s)", inner, p), sizeof(in), o))
			return;
		decl(ps, d->child, in, o, depth + 1);
		return;
	}
	case K_ARRAY:
		if (!fits(d->count ? snprintf(in, sizeof(in), "%s[%lu]", inner, d->count)
				   : snprintf(in, sizeof(in), "%s[]", inner), sizeof(in), o))
			return;
		decl(ps, d->child, in, o, depth + 1);
		return;
	case K_VECTOR:
		decl(ps, d->child, inner, o, depth + 1);
		if (o->ok) {
			char tmp[EXPLAIN_TYPE_MAX * 2];
			if (fits(snprintf(tmp, sizeof(tmp), "%s", o->s), sizeof(tmp), o))
				put(o, "%s __attribute__((vector_size(%lu elements)))", tmp, d->count);
		}
		return;
	}
}

static void params_c(const struct parse *ps, const struct node *f, struct out *o, int depth)
{
	char acc[EXPLAIN_TYPE_MAX * 2] = "";
	for (int i = 0; i < f->n && o->ok; i++) {
		char one[EXPLAIN_TYPE_MAX];
		struct out po = { one, sizeof(one), true };
		decl(ps, ps->kids[f->first + i], "", &po, depth);
		if (!po.ok || strlen(acc) + strlen(one) + 3 >= sizeof(acc)) {
			o->ok = false;
			return;
		}
		if (i)
			strcat(acc, ", ");
		strcat(acc, one);
	}
	if (f->variadic) {
		if (strlen(acc) + 6 >= sizeof(acc)) {
			o->ok = false;
			return;
		}
		strcat(acc, f->n ? ", ..." : "...");
	}
	put(o, "%s", f->n || f->variadic ? acc : "void");
}

bool explain_demangle(const char *mangled, struct proto *p)
{
	static struct parse ps;	/* large; one demangling at a time */
	memset(p, 0, sizeof(*p));
	if (!mangled || strncmp(mangled, "_ZTS", 4))
		return false;
	ps.p = mangled + 4;
	ps.end = ps.p + strlen(ps.p);
	ps.nnodes = ps.nkids = ps.nsubs = 0;
	ps.ok = true;
	int f = type(&ps, 0);
	if (!ps.ok || ps.p != ps.end || ps.nodes[f].k != K_FUNC)
		return false;
	const struct node *fn = &ps.nodes[f];
	struct out o = { p->ret, sizeof(p->ret), true };
	decl(&ps, fn->child, "", &o, 0);
	for (int i = 0; i < fn->n && o.ok; i++) {
		o = (struct out){ p->params[i], sizeof(p->params[i]), true };
		decl(&ps, ps.kids[fn->first + i], "", &o, 0);
	}
	p->nparams = fn->n;
	p->variadic = fn->variadic;
	struct out c = { p->c, sizeof(p->c), o.ok };
	if (c.ok)
		decl(&ps, f, "", &c, 0);
	return o.ok && c.ok;
}

int explain_diff(FILE *out, const struct proto *call, const struct proto *fn, const char *name)
{
	int n = 0;
	if (strcmp(call->ret, fn->ret)) {
		fprintf(out, "    return: the call expects %s, %s returns %s\n", call->ret, name, fn->ret);
		n++;
	}
	if (call->nparams != fn->nparams) {
		fprintf(out, "    arity: the call passes %d parameter%s, %s takes %d\n", call->nparams,
			call->nparams == 1 ? "" : "s", name, fn->nparams);
		n++;
	}
	int most = call->nparams > fn->nparams ? call->nparams : fn->nparams;
	for (int i = 0; i < most; i++) {
		const char *a = i < call->nparams ? call->params[i] : NULL;
		const char *b = i < fn->nparams ? fn->params[i] : NULL;
		if (a && b && !strcmp(a, b))
			continue;
		fprintf(out, "    parameter %d: the call passes %s, %s takes %s\n", i + 1,
			a ? a : "nothing", name, b ? b : "nothing");
		n++;
	}
	if (call->variadic != fn->variadic) {
		fprintf(out, "    variadic: the call passes %s, %s %s\n",
			call->variadic ? "more arguments (...)" : "no more arguments", name,
			fn->variadic ? "takes more (...)" : "takes none beyond its parameters");
		n++;
	}
	if (!n && strcmp(call->c, fn->c)) {
		fprintf(out, "    the prototypes read alike, their mangled names differ "
			"(tags, qualifiers or attributes C does not print)\n");
		n++;
	}
	return n;
}
