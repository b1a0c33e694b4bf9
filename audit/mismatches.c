// SPDX-License-Identifier: GPL-2.0-or-later
/* kcfi-audit --mismatches: the places where a function's address became a
 * pointer of another type id, from the KCFI_CONVERSION records of every
 * file given (doc/kcfi-audit.md, "Mismatches").
 *
 * A record says one place: the function, its type, the pointer's type, the
 * C file and line, the function or variable it is in, and how (common/
 * exempt.h).  The same place comes in once per object that includes it (a
 * header's inline function, an object linked into two programs): places are
 * deduplicated by function, both types, file and line.  They are ranked by
 * how many places convert the same function to the same type, then by file
 * and line.  A decl record (the unit only declared the function) is a
 * mismatch only when the files define the function with a preamble of
 * another id: a function declared one way in one unit and defined another
 * way in another.  A union record (a store into a union member, read as
 * another member's type only if the code does so, which most such unions'
 * code never does) is left out and counted in the summary line, unless
 * --union-stores asks for them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "common/exempt.h"
#include "audit/audit.h"
#include "audit/explain.h"
#include "audit/mismatches.h"
#include "audit/tables.h"
#include "audit/verify.h"

struct def {
	const char *name;
	uint32_t id;
	size_t file;
};

struct place {
	const struct conversion *c;
	const char *to_type;	/* the pointer's name; for decl the definition's */
	const char *from_type;
	uint32_t from_id, to_id;
	const char *defined_in;	/* decl: the file with the definition */
	unsigned long group;	/* places of the same function and pointer type */
};

static int def_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct def *)a)->name, ((const struct def *)b)->name);
}

/* By name, then in the order of the files given. */
static int def_cmp(const void *a, const void *b)
{
	const struct def *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : x->file < y->file ? -1 : x->file > y->file;
}

static int str_cmp0(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static long line_of(const struct place *p)
{
	return strtol(p->c->line, NULL, 10);
}

/* Same place: function, both types, file, line. */
static int place_key_cmp(const void *a, const void *b)
{
	const struct place *x = a, *y = b;
	int c;
	if ((c = strcmp(x->c->sym, y->c->sym)) || (c = str_cmp0(x->from_type, y->from_type)) ||
	    (c = str_cmp0(x->to_type, y->to_type)) || (c = strcmp(x->c->file, y->c->file)))
		return c;
	long lx = line_of(x), ly = line_of(y);
	return lx < ly ? -1 : lx > ly;
}

/* Function and pointer type: the group a place counts in. */
static int group_cmp(const struct place *x, const struct place *y)
{
	int c = strcmp(x->c->sym, y->c->sym);
	return c ? c : str_cmp0(x->to_type, y->to_type);
}

/* The two types of a place (ids where a type has no name). */
static int pair_cmp(const void *a, const void *b)
{
	const struct place *x = a, *y = b;
	int c = str_cmp0(x->from_type, y->from_type);
	if (!c)
		c = str_cmp0(x->to_type, y->to_type);
	if (!c && x->from_id != y->from_id)
		c = x->from_id < y->from_id ? -1 : 1;
	if (!c && x->to_id != y->to_id)
		c = x->to_id < y->to_id ? -1 : 1;
	return c;
}

static int rank_cmp(const void *a, const void *b)
{
	const struct place *x = a, *y = b;
	if (x->group != y->group)
		return x->group > y->group ? -1 : 1;
	int c = strcmp(x->c->file, y->c->file);
	if (c)
		return c;
	long lx = line_of(x), ly = line_of(y);
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return place_key_cmp(a, b);
}

/* A mangled type name ("_ZTSFilE") as C would write it ("int (long)"),
 * through the explainer's reading of libiberty's tree, so that both reports
 * spell a type alike; into BUF.  The name itself where that cannot read it
 * (a ".normalized" one), "id 0x..." if there is none. */
static const char *c_type(const char *mangled, uint32_t id, char *buf, size_t size)
{
	static struct proto p;	/* big; one report at a time */
	if (!mangled)
		snprintf(buf, size, "id 0x%08x", id);
	else
		snprintf(buf, size, "%s", explain_demangle(mangled, &p) ? p.c : mangled);
	return buf;
}

/* The name a file's records give ID, or NULL. */
static const char *name_of_id(const struct audit_file *f, uint32_t id)
{
	size_t k;
	const struct type_name *n = tables_type_names(f, id, &k);
	return k ? n->name : NULL;
}

int mismatches_report(char *const *paths, int npaths, bool union_stores)
{
	struct audit_file *files = calloc((size_t)npaths, sizeof(*files));
	size_t ndefs = 0, nconvs = 0;
	int rc = 0;
	if (!files) {
		audit_error("kcfi-audit", "out of memory");
		return 2;
	}
	bool quiet = audit_quiet;
	int opened;
	for (opened = 0; opened < npaths; opened++) {
		struct audit_file *f = &files[opened];
		if (audit_open(f, paths[opened]) || tables_read(f)) {
			rc = 2;
			opened++;
			goto out;
		}
		audit_quiet = true;	/* the preambles' own findings are not ours */
		verify_preambles(f);
		audit_quiet = quiet;
		ndefs += f->npre;
		nconvs += f->nconvs;
	}
	struct def *defs = calloc(ndefs + 1, sizeof(*defs));
	struct place *places = calloc(nconvs + 1, sizeof(*places));
	if (!defs || !places) {
		audit_error("kcfi-audit", "out of memory");
		free(defs);
		free(places);
		rc = 2;
		goto out;
	}
	ndefs = 0;
	for (int i = 0; i < npaths; i++)
		for (size_t k = 0; k < files[i].npre; k++) {
			const struct symbol *s = &files[i].syms[files[i].pre[k].func];
			if (s->bind != STB_LOCAL)
				defs[ndefs++] = (struct def){ s->name, files[i].pre[k].id, (size_t)i };
		}
	qsort(defs, ndefs, sizeof(*defs), def_cmp);

	size_t n = 0;
	for (int i = 0; i < npaths; i++)
		for (size_t k = 0; k < files[i].nconvs; k++) {
			const struct conversion *c = &files[i].convs[k];
			struct place p = { c, c->ptr_type, c->fn_type, c->fn_id, c->ptr_id, NULL, 0 };
			if (!strcmp(c->kind, "decl")) {
				struct def key = { c->sym, 0, 0 };
				const struct def *d = bsearch(&key, defs, ndefs, sizeof(*defs),
							      def_name_cmp);
				while (d && d > defs && !def_name_cmp(d - 1, d))
					d--;	/* the first file that defines it */
				if (!d || d->id == c->fn_id)
					continue;	/* defined elsewhere, or as declared */
				/* The function, as defined, used as declared. */
				p.from_id = d->id;
				p.from_type = name_of_id(&files[d->file], d->id);
				p.to_id = c->fn_id;
				p.to_type = c->fn_type;
				p.defined_in = files[d->file].path;
			}
			places[n++] = p;
		}
	qsort(places, n, sizeof(*places), place_key_cmp);
	size_t u = 0;
	for (size_t k = 0; k < n; k++)
		if (!u || place_key_cmp(&places[u - 1], &places[k]))
			places[u++] = places[k];
	n = u;
	size_t unions = 0;
	if (!union_stores) {
		for (size_t k = u = 0; k < n; k++)
			if (strcmp(places[k].c->kind, "union"))
				places[u++] = places[k];
		unions = n - u;
		n = u;
	}
	/* Sorted by function then types: each group is a run. */
	size_t functions = 0, pairs = 0;
	for (size_t k = 0, run; k < n; k = run) {
		for (run = k + 1; run < n && !group_cmp(&places[k], &places[run]); run++)
			;
		for (size_t j = k; j < run; j++)
			places[j].group = run - k;
		functions += !k || strcmp(places[k - 1].c->sym, places[k].c->sym);
	}
	struct place *by_pair = malloc((n + 1) * sizeof(*by_pair));
	if (by_pair) {
		memcpy(by_pair, places, n * sizeof(*places));
		qsort(by_pair, n, sizeof(*by_pair), pair_cmp);
		for (size_t k = 0; k < n; k++)
			pairs += !k || pair_cmp(&by_pair[k - 1], &by_pair[k]);
		free(by_pair);
	}
	qsort(places, n, sizeof(*places), rank_cmp);
	for (size_t k = 0; k < n; k++) {
		const struct place *p = &places[k];
		char from[sizeof(((struct proto *)0)->c)], to[sizeof(((struct proto *)0)->c)];
		printf("%s:%s: %s: '%s' %s as %s", p->c->file, p->c->line, p->c->kind, p->c->sym,
		       c_type(p->from_type, p->from_id, from, sizeof(from)),
		       c_type(p->to_type, p->to_id, to, sizeof(to)));
		if (p->c->context[0])
			printf(" [in %s]", p->c->context);
		if (p->defined_in)
			printf(" (defined in %s)", p->defined_in);
		putchar('\n');
	}
	printf("mismatches: %zu places, %zu functions, %zu distinct type pairs", n, functions, pairs);
	if (unions)
		printf(" (%zu union store%s not listed: --union-stores)", unions,
		       unions == 1 ? "" : "s");
	putchar('\n');
	rc = n ? 1 : 0;
	free(defs);
	free(places);
out:
	fflush(stdout);
	for (int i = 0; i < opened; i++)
		audit_close(&files[i]);
	free(files);
	return rc;
}
