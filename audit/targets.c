/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --targets: how many functions each checked call site could reach, i.e.
 * how many preambles in the file carry the id the site compares with.
 * Printed as a distribution, written as CSV or JSON, drawn by gnuplot. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit/audit.h"
#include "audit/tables.h"
#include "audit/targets.h"
#include "typeids/typeid.h"

static int by_id(const void *a, const void *b)
{
	uint32_t x = ((const struct preamble *)a)->id, y = ((const struct preamble *)b)->id;
	return x < y ? -1 : x > y;
}

/* Preambles with ID: [*first, *first + return). */
static size_t with_id(const struct audit_file *f, uint32_t id, size_t *first)
{
	size_t lo = 0, hi = f->npre;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->pre[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	size_t n = 0;
	while (lo + n < f->npre && f->pre[lo + n].id == id)
		n++;
	return n;
}

static const struct {
	const char *label;
	size_t lo, hi;
} buckets[] = {
	{ "0", 0, 0 }, { "1", 1, 1 }, { "2-4", 2, 4 }, { "5-20", 5, 20 },
	{ "21-100", 21, 100 }, { ">100", 101, (size_t)-1 },
};
enum { NBUCKETS = sizeof(buckets) / sizeof(buckets[0]) };

struct id_use {
	uint32_t id;
	size_t targets, sites;
};

static int by_targets(const void *a, const void *b)
{
	const struct id_use *x = a, *y = b;
	if (x->targets != y->targets)
		return x->targets > y->targets ? -1 : 1;
	return x->sites > y->sites ? -1 : x->sites < y->sites;
}

static void csv_quote(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', o);
		fputc(*s, o);
	}
	fputc('"', o);
}

static void json_string(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(o, "\\%c", c);
		else if (c < 0x20)
			fprintf(o, "\\u%04x", c);
		else
			fputc(c, o);
	}
	fputc('"', o);
}

/* The type behind ID for CSV and JSON: its recorded name, the names joined
 * by '|' after a collision, NULL if none was recorded.  In BUF (SIZE bytes)
 * when it takes more than one. */
static const char *type_of(const struct audit_file *f, uint32_t id, char *buf, size_t size)
{
	size_t n;
	const struct type_name *t = tables_type_names(f, id, &n);
	if (n <= 1)
		return n ? t->name : NULL;
	size_t len = 0;
	buf[0] = 0;
	for (size_t k = 0; k < n && len < size; k++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", k ? "|" : "", t[k].name);
	return buf;
}

static int close_output(FILE *out, const char *path);

/* gnuplot draws into a private file in $TMPDIR, which is then written into
 * PATH as --csv is: gnuplot reports no write error, and a full disk must
 * not pass for a plot. */
static int plot(const char *path, const char *title, const size_t *count, size_t total)
{
	const char *dot = strrchr(path, '.');
	const char *term = dot && !strcmp(dot, ".png") ? "pngcairo size 800,480" : "svg size 800,480";
	const char *dir = getenv("TMPDIR");
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof(tmp), "%s/kcfi-audit-plot-XXXXXX", dir && *dir ? dir : "/tmp");
	int tfd = mkstemp(tmp);
	if (tfd < 0) {
		audit_error(path, "cannot create a temporary file for gnuplot: %s", strerror(errno));
		return -1;
	}
	FILE *g = popen("gnuplot 2>&1", "w");
	if (!g) {
		audit_error(path, "cannot run gnuplot");
		close(tfd);
		unlink(tmp);
		return -1;
	}
	fprintf(g, "set terminal %s\nset output '%s'\nset style fill solid 0.8\n"
		"set boxwidth 0.7\nset ylabel 'share of checked call sites (%%)'\n"
		"set xlabel 'functions whose preamble carries the id the site expects'\n"
		"set title '%s (%zu checked sites)' noenhanced\nset yrange [0:*]\nset grid y\n"
		"plot '-' using 0:2:xtic(1) with boxes notitle, '' using 0:2:(sprintf('%%.1f', $2)) "
		"with labels offset 0,0.8 notitle\n", term, tmp, title, total);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t b = 0; b < NBUCKETS; b++)
			fprintf(g, "\"%s\" %.3f\n", buckets[b].label,
				total ? 100.0 * (double)count[b] / (double)total : 0.0);
		fprintf(g, "e\n");
	}
	int rc = pclose(g);
	if (rc) {
		audit_error(path, "gnuplot failed (exit %d); on Debian: apt-get install gnuplot-nox", rc);
		close(tfd);
		unlink(tmp);
		return -1;
	}
	FILE *out = fopen(path, "w");
	if (!out) {
		audit_error(path, "cannot write: %s", strerror(errno));
		close(tfd);
		unlink(tmp);
		return -1;
	}
	char buf[65536];
	ssize_t n;
	while ((n = read(tfd, buf, sizeof(buf))) > 0 && fwrite(buf, 1, (size_t)n, out) == (size_t)n)
		;
	if (n < 0)
		audit_error(tmp, "cannot read gnuplot's output: %s", strerror(errno));
	rc = close_output(out, path) || n < 0 ? -1 : 0;
	close(tfd);
	unlink(tmp);
	return rc;
}

/* Does an id of a preamble or a site have no recorded name? */
static bool unnamed_ids(const struct audit_file *f)
{
	size_t n;
	for (size_t i = 0; i < f->npre; i++)
		if (tables_type_names(f, f->pre[i].id, &n), !n)
			return true;
	for (size_t i = 0; i < f->nsites; i++)
		if (tables_type_names(f, f->sites[i].id, &n), !n)
			return true;
	return false;
}

/* Close a --csv or --json file (opened as fopen "w": through a symlink,
 * into a device or FIFO, a regular file truncated in place).  If it could
 * not be written whole, say so and remove it as GCC removes an output it
 * failed to write: only an ordinary file. */
static int close_output(FILE *out, const char *path)
{
	bool bad = ferror(out);
	int err = bad ? errno : 0;	/* what the failed write left, if anything */
	if (fclose(out) != 0) {
		bad = true;
		err = errno;
	}
	if (!bad)
		return 0;
	audit_error(path, "cannot write: %s", strerror(err ? err : EIO));
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		unlink(path);
	return -1;
}

int targets_report(struct audit_file *f, const struct targets_opts *o)
{
	if (f->npre > 1)	/* qsort's base may not be NULL, even for 0 */
		qsort(f->pre, f->npre, sizeof(*f->pre), by_id);
	/* Ids kcfi-as left no name for (Clang, an older kcfi-as): from the
	 * DWARF's function types, where the file has DWARF. */
	size_t from_dwarf = unnamed_ids(f) ? dwarf_names(f) : 0;
	/* Then from another build's records (--names-from). */
	long lent = o->names_from && unnamed_ids(f) ? lent_names(f, o->names_from) : 0;
	if (lent < 0)
		return -1;
	size_t count[NBUCKETS] = { 0 };
	struct id_use *use = calloc(f->nsites + 1, sizeof(*use));
	size_t nuse = 0;
	if (!use) {
		audit_error(f->path, "out of memory");
		return -1;
	}
	FILE *csv = NULL, *json = NULL;
	if (o->csv && !(csv = fopen(o->csv, "w"))) {
		audit_error(o->csv, "cannot write: %s", strerror(errno));
		free(use);
		return -1;
	}
	if (o->json && !(json = fopen(o->json, "w"))) {
		audit_error(o->json, "cannot write: %s", strerror(errno));
		if (csv)
			fclose(csv);
		free(use);
		return -1;
	}
	if (csv)
		fprintf(csv, "file,section,offset,function,id,targets,type\n");
	if (json) {
		fprintf(json, "{\"file\": ");
		json_string(json, f->path);
		fprintf(json, ", \"sites\": [");
	}
	for (size_t i = 0; i < f->nsites; i++) {
		const struct site *s = &f->sites[i];
		size_t first, n = with_id(f, s->id, &first);
		for (size_t b = 0; b < NBUCKETS; b++)
			if (n >= buckets[b].lo && n <= buckets[b].hi)
				count[b]++;
		size_t k = 0;
		while (k < nuse && use[k].id != s->id)
			k++;
		if (k == nuse)
			use[nuse++] = (struct id_use){ s->id, n, 0 };
		use[k].sites++;
		size_t fn = audit_func_at(f, s->at);
		const char *fname = fn == (size_t)-1 ? "?" : f->syms[fn].name;
		const char *sec = f->secs[s->at.shndx].name;
		char many[1024];
		const char *type = type_of(f, s->id, many, sizeof(many));
		if (csv) {
			csv_quote(csv, f->path);
			fputc(',', csv);
			csv_quote(csv, sec);
			fprintf(csv, ",0x%llx,", (unsigned long long)s->at.off);
			csv_quote(csv, fname);
			fprintf(csv, ",0x%08x,%zu,", s->id, n);
			if (type)
				csv_quote(csv, type);
			fputc('\n', csv);
		}
		if (json) {
			fprintf(json, "%s\n  {\"section\": ", i ? "," : "");
			json_string(json, sec);
			fprintf(json, ", \"offset\": %llu, \"function\": ", (unsigned long long)s->at.off);
			json_string(json, fname);
			fprintf(json, ", \"id\": \"0x%08x\", \"targets\": %zu, \"type\": ", s->id, n);
			if (type)
				json_string(json, type);
			else
				fputs("null", json);
			fputc('}', json);
		}
	}
	printf("%s: targets per checked call site (%zu sites, %zu preambles):\n", f->path,
	       f->nsites, f->npre);
	for (size_t b = 0; b < NBUCKETS; b++)
		printf("  %-7s %8zu  %5.1f%%\n", buckets[b].label, count[b],
		       f->nsites ? 100.0 * (double)count[b] / (double)f->nsites : 0.0);
	if (json) {
		fprintf(json, "\n], \"distribution\": {");
		for (size_t b = 0; b < NBUCKETS; b++)
			fprintf(json, "%s\"%s\": %zu", b ? ", " : "", buckets[b].label, count[b]);
		fprintf(json, "}}\n");
	}
	/* The most permissive ids, each with its type's mangled name where
	 * kcfi-as recorded it (Clang records none: then a function that
	 * carries the id is all that stands for the type), and one function. */
	qsort(use, nuse, sizeof(*use), by_targets);
	printf("%s: most permissive type ids (targets, sites, type, one function of the type):\n",
	       f->path);
	for (size_t k = 0; k < nuse && k < o->top; k++) {
		size_t first, n = with_id(f, use[k].id, &first);
		char many[1024];
		const char *type = type_of(f, use[k].id, many, sizeof(many));
		printf("  0x%08x %6zu %6zu  %s  %s\n", use[k].id, use[k].targets, use[k].sites,
		       type ? type : "?", n ? f->syms[f->pre[first].func].name : "(none in this file)");
	}
	/* How far the names go, and whether two types share an id: ids that
	 * the checks and preambles use, counted once each. */
	size_t ids = 0, named = 0, collisions = 0;
	for (size_t i = 0; i < f->npre + nuse; i++) {
		uint32_t id = i < f->npre ? f->pre[i].id : use[i - f->npre].id;
		if (i < f->npre ? i && f->pre[i - 1].id == id
				: with_id(f, id, &(size_t){ 0 }))
			continue;	/* seen: a repeated preamble id, or a site id with preambles */
		size_t nn;
		tables_type_names(f, id, &nn);
		ids++;
		named += nn > 0;
		collisions += nn > 1;
	}
	char dwarf[64 + PATH_MAX] = "";
	int len = 0;
	if (from_dwarf)
		len = snprintf(dwarf, sizeof(dwarf), "; %zu from DWARF", from_dwarf);
	if (lent)
		snprintf(dwarf + len, sizeof(dwarf) - (size_t)len, "; %ld lent by %s", lent,
			 o->names_from);
	if (f->nnames)
		printf("%s: type names for %zu of %zu ids (%s%s), %zu of them with more "
		       "than one name (a hash collision)\n", f->path, named, ids,
		       f->name_hashes == 1u << KCFI_HASH_FNV1A ? "FNV-1a" :
		       f->name_hashes == 1u << KCFI_HASH_XXHASH64 ? "xxHash64" : "both hashes",
		       dwarf, collisions);
	else
		printf("%s: type names unavailable: the file has no kcfi-as name records (built "
		       "by Clang, or by a kcfi-as before them, or stripped) and no DWARF that "
		       "gives them\n", f->path);
	int rc = 0;
	if (csv && close_output(csv, o->csv))
		rc = -1;
	if (json && close_output(json, o->json))
		rc = -1;
	if (o->plot)
		rc |= plot(o->plot, f->path, count, f->nsites);
	free(use);
	return rc;
}
