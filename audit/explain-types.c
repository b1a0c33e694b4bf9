/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The C prototype behind a KCFI type name, and two prototypes' differences.
 *
 * kcfi-as names an id by "_ZTS" and the Itanium mangling of a C function
 * type (doc/abi.md 5): "_ZTSFvP3objmE" is void (obj *, unsigned long).
 * libiberty's demangler (libiberty-dev) reads the name into a component
 * tree: TYPEINFO_NAME over a FUNCTION_TYPE, whose left is the return type
 * and whose right a chain of ARGLISTs, one parameter each (one ARGLIST
 * with no parameter for "v"; "..." for "z" is a builtin type of its own).
 * Each type is printed by libiberty.  A tag (struct, union, enum) is its
 * bare name, which is all the mangled name holds; a name libiberty does
 * not read as a function type is printed mangled by the caller.
 *
 * libiberty writes C++ ("char const*", "bool", "void ()"); c_names() and
 * c_spelling() below write C instead, and do nothing else:
 *  - the tree: bool, decltype(nullptr), std::bfloat16_t and half take
 *    C's names (_Bool, nullptr_t, __bf16, __fp16), and the qualifiers of
 *    a builtin or named type go before it ("const char");
 *  - the text: "*" after a name is spaced from it and joined to what
 *    follows ("int* const*" is "int *const *"), an empty parameter list
 *    is "(void)", and a pointer to an array is "(*)[4]", not "(*) [4]".
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "audit/explain.h"

enum { DEPTH_MAX = 64, NAMES_MAX = 4096 };

#define PRINT_OPTS (DMGL_PARAMS | DMGL_TYPES)

/* Text of the NAME components c_names() makes: libiberty keeps a pointer. */
struct names {
	char s[NAMES_MAX];
	size_t used;
};

/* C into OUT (SIZE bytes) from libiberty's text IN; false if too long. */
static bool c_spelling(const char *in, char *out, size_t size)
{
	size_t o = 0;
	for (const char *p = in; *p; p++) {
		char add[8] = { *p, 0 };
		char prev = o ? out[o - 1] : 0;
		bool word = prev == '_' || prev == ')' || (prev >= '0' && prev <= '9') ||
			    ((prev | 0x20) >= 'a' && (prev | 0x20) <= 'z');
		if (p[0] == '(' && p[1] == ')') {		/* "()": "(void)" */
			strcpy(add, "(void)");
			p++;
		} else if (p[0] == '*' && word) {		/* "int*": "int *" */
			strcpy(add, " *");
		} else if (p[0] == ' ' && prev == '*' && p[1] && p[1] != '*' && p[1] != ')' &&
			   p[1] != ',') {			/* "* const": "*const" */
			continue;
		} else if (p[0] == ' ' && prev == ')' && p[1] == '[') {	/* "(*) [4]" */
			continue;
		}
		size_t n = strlen(add);
		if (o + n >= size)
			return false;
		memcpy(out + o, add, n);
		o += n;
	}
	out[o] = 0;
	return true;
}

/* C into OUT (SIZE bytes) of the type C; false if libiberty cannot print it. */
static bool print_c(struct demangle_component *c, char *out, size_t size)
{
	size_t alloc;
	char *s = cplus_demangle_print(PRINT_OPTS, c, (int)size, &alloc);
	bool ok = s && c_spelling(s, out, size);
	free(s);
	return ok;
}

static bool is_qual(const struct demangle_component *c)
{
	return c->type == DEMANGLE_COMPONENT_CONST || c->type == DEMANGLE_COMPONENT_VOLATILE ||
	       c->type == DEMANGLE_COMPONENT_RESTRICT ||
	       c->type == DEMANGLE_COMPONENT_VENDOR_TYPE_QUAL;
}

/* Make C a NAME component of TEXT (LEN bytes), kept in NS. */
static bool rename_to(struct demangle_component *c, struct names *ns, const char *text, size_t len)
{
	if (len > NAMES_MAX - ns->used)
		return false;
	char *s = ns->s + ns->used;
	memcpy(s, text, len);
	ns->used += len;
	return cplus_demangle_fill_name(c, s, (int)len) != 0;
}

/* The tree's C names (see the top): the C types C++ spells otherwise, and
 * the qualifiers of a builtin or named type before it.  Only the types C
 * has are entered; what else libiberty reads is printed as it prints it. */
static bool c_names(struct demangle_component *c, struct names *ns, int depth)
{
	static const struct { const char *cxx, *c; } builtins[] = {
		{ "bool", "_Bool" }, { "decltype(nullptr)", "nullptr_t" },
		{ "std::bfloat16_t", "__bf16" }, { "half", "__fp16" },
	};
	if (!c)
		return true;
	if (depth > DEPTH_MAX)
		return false;
	switch (c->type) {
	case DEMANGLE_COMPONENT_BUILTIN_TYPE: {
		char s[64];
		if (!print_c(c, s, sizeof(s)))
			return false;
		for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
			if (!strcmp(s, builtins[i].cxx))
				return rename_to(c, ns, builtins[i].c, strlen(builtins[i].c));
		return true;
	}
	case DEMANGLE_COMPONENT_CONST:
	case DEMANGLE_COMPONENT_VOLATILE:
	case DEMANGLE_COMPONENT_RESTRICT:
	case DEMANGLE_COMPONENT_VENDOR_TYPE_QUAL: {
		struct demangle_component *base = c;
		while (base && is_qual(base))
			base = base->u.s_binary.left;
		if (!base || (base->type != DEMANGLE_COMPONENT_BUILTIN_TYPE &&
			      base->type != DEMANGLE_COMPONENT_NAME &&
			      base->type != DEMANGLE_COMPONENT_VENDOR_TYPE))
			break;	/* a qualified pointer, array...: "int *const" */
		if (!c_names(base, ns, depth + 1))
			return false;
		/* "const volatile restrict", vendor qualifiers, the type. */
		char text[EXPLAIN_TYPE_MAX], t[EXPLAIN_TYPE_MAX];
		size_t n = 0;
		static const struct { enum demangle_component_type type; const char *word; } cv[] = {
			{ DEMANGLE_COMPONENT_CONST, "const " },
			{ DEMANGLE_COMPONENT_VOLATILE, "volatile " },
			{ DEMANGLE_COMPONENT_RESTRICT, "restrict " },
			{ DEMANGLE_COMPONENT_VENDOR_TYPE_QUAL, NULL },
		};
		for (size_t k = 0; k < sizeof(cv) / sizeof(cv[0]); k++)
			for (struct demangle_component *q = c; q != base; q = q->u.s_binary.left) {
				if (q->type != cv[k].type)
					continue;
				const char *w = cv[k].word;
				if (!w) {	/* U3AS1: its name, then a space */
					if (!print_c(q->u.s_binary.right, t, sizeof(t) - 1))
						return false;
					w = strcat(t, " ");
				}
				size_t l = strlen(w);
				if (n + l >= sizeof(text))
					return false;
				memcpy(text + n, w, l);
				n += l;
				if (cv[k].word)
					break;	/* "KKi" is one const */
			}
		if (!print_c(base, t, sizeof(t)) || n + strlen(t) >= sizeof(text))
			return false;
		memcpy(text + n, t, strlen(t));
		return rename_to(c, ns, text, n + strlen(t));
	}
	case DEMANGLE_COMPONENT_TYPEINFO_NAME:
	case DEMANGLE_COMPONENT_FUNCTION_TYPE:
	case DEMANGLE_COMPONENT_ARGLIST:
	case DEMANGLE_COMPONENT_POINTER:
	case DEMANGLE_COMPONENT_ARRAY_TYPE:
	case DEMANGLE_COMPONENT_VECTOR_TYPE:
		break;
	default:
		return true;
	}
	return c_names(c->u.s_binary.left, ns, depth + 1) &&
	       c_names(c->u.s_binary.right, ns, depth + 1);
}

bool explain_demangle(const char *mangled, struct proto *p)
{
	static struct names ns;	/* one demangling at a time */
	void *mem = NULL;
	bool ok = false;
	memset(p, 0, sizeof(*p));
	if (!mangled || strncmp(mangled, "_ZTS", 4))
		return false;
	struct demangle_component *tree = cplus_demangle_v3_components(mangled, PRINT_OPTS, &mem);
	/* Only "typeinfo name for <function type>": no ".normalized" (a
	 * CLONE above it), no other type. */
	if (!tree || tree->type != DEMANGLE_COMPONENT_TYPEINFO_NAME)
		goto out;
	struct demangle_component *fn = tree->u.s_binary.left;
	if (!fn || fn->type != DEMANGLE_COMPONENT_FUNCTION_TYPE || !fn->u.s_binary.left)
		goto out;
	ns.used = 0;
	if (!c_names(fn, &ns, 0) || !print_c(fn->u.s_binary.left, p->ret, sizeof(p->ret)))
		goto out;
	for (struct demangle_component *a = fn->u.s_binary.right; a; a = a->u.s_binary.right) {
		if (a->type != DEMANGLE_COMPONENT_ARGLIST)
			goto out;
		if (!a->u.s_binary.left)	/* "v": no parameters */
			continue;
		char t[EXPLAIN_TYPE_MAX];
		if (!print_c(a->u.s_binary.left, t, sizeof(t)))
			goto out;
		if (!strcmp(t, "...")) {	/* "z" */
			p->variadic = true;
			continue;
		}
		if (p->nparams == EXPLAIN_PARAMS_MAX)
			goto out;
		strcpy(p->params[p->nparams++], t);
	}
	ok = print_c(fn, p->c, sizeof(p->c));
out:
	free(mem);
	if (!ok)
		memset(p, 0, sizeof(*p));
	return ok;
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
