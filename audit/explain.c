/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-audit --explain LOG FILE...: each CFI failure of a kernel log,
 * explained from the files that ran (doc/kcfi-audit.md 7).
 *
 * For each report (explain-log.c): the file holding the caller (a module
 * named by its "[mod]", else vmlinux or a program), the checked call whose
 * trap is the reported place (under x86 FineIBT: whose return address is
 * the call trace's first frame), the id that check compares with, read
 * from the file's code and not from the log, whose id is re-randomized at
 * boot on x86; the target's preamble id; both ids' mangled names from
 * kcfi-as's records (or the DWARF), as C (explain-types.c), compared
 * parameter by parameter; DWARF's source lines of the call and of the
 * target's definition; and kcfi-as's conversion records of the target,
 * which name the line where its address took the call's type.
 *
 * Exit status: 0 every report explained, 1 some only in part (what is
 * missing is said), 2 an error (usage, LOG or a FILE unreadable), 3 the
 * log holds no CFI failure report.
 */
#include "config.h"

#include <ftw.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "audit/explain.h"
#include "audit/tables.h"

enum { EXPLAIN_PARTIAL = 1, EXPLAIN_ERROR = 2, EXPLAIN_NONE = 3 };

struct xfile {
	char *path;
	char mod[EXPLAIN_MOD_MAX];	/* module name as the kernel prints it; "" if none */
	bool compressed;		/* a .ko.xz, .ko.zst, .ko.gz: not read */
	int state;			/* 0 unopened, 1 open, -1 unreadable */
	bool opened;			/* audit_open ran: F to be closed */
	struct audit_file f;
	bool *scanned;			/* per section */
	bool dwarf_named;
};

static struct xfile *xs;
static size_t nxs, xcap;
static int status;

static void worse(int s)
{
	/* EXPLAIN_NONE is not worse than anything: it is set alone. */
	if (s > status)
		status = s;
}

static void add_file(const char *path)
{
	if (nxs == xcap) {
		xcap = xcap ? 2 * xcap : 16;
		xs = realloc(xs, xcap * sizeof(*xs));
		if (!xs) {
			audit_error("kcfi-audit", "out of memory");
			exit(EXPLAIN_ERROR);
		}
	}
	struct xfile *x = &xs[nxs++];
	memset(x, 0, sizeof(*x));
	x->path = strdup(path);
	if (!x->path) {
		audit_error("kcfi-audit", "out of memory");
		exit(EXPLAIN_ERROR);
	}
	/* The kernel names a module by its file name, '-' read as '_'. */
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	const char *ko = strstr(b, ".ko");
	if (ko && (!ko[3] || !strcmp(ko + 3, ".xz") || !strcmp(ko + 3, ".zst") ||
		   !strcmp(ko + 3, ".gz"))) {
		size_t n = (size_t)(ko - b) < sizeof(x->mod) - 1 ? (size_t)(ko - b) : sizeof(x->mod) - 1;
		for (size_t i = 0; i < n; i++)
			x->mod[i] = b[i] == '-' ? '_' : b[i];
		x->compressed = ko[3] != 0;
	}
}

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	const char *ko = type == FTW_F ? strstr(path, ".ko") : NULL;
	if (ko && (!ko[3] || !strcmp(ko + 3, ".xz") || !strcmp(ko + 3, ".zst") ||
		   !strcmp(ko + 3, ".gz")))
		add_file(path);
	return 0;
}

static int add_arg(const char *path)
{
	struct stat st;
	if (stat(path, &st)) {
		audit_error(path, "cannot read it");
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		size_t before = nxs;
		if (nftw(path, walk_one, 16, FTW_PHYS)) {
			audit_error(path, "cannot read the directory");
			return -1;
		}
		if (nxs == before)
			fprintf(stderr, "kcfi-audit: %s: note: no .ko file in the directory\n", path);
		return 0;
	}
	add_file(path);
	return 0;
}

static struct audit_file *xopen(struct xfile *x)
{
	if (x->state == 0) {
		x->state = -1;
		if (x->compressed)
			return NULL;
		x->opened = true;
		if (audit_open(&x->f, x->path) == 0 && tables_read(&x->f) == 0) {
			x->scanned = calloc(x->f.nsecs + 1, sizeof(bool));
			if (x->scanned)
				x->state = 1;
		}
		if (x->state < 0)
			worse(EXPLAIN_ERROR);
	}
	return x->state > 0 ? &x->f : NULL;
}

/* The function symbol called NAME that FR lies in: of several, one
 * whose size is the printed one. */
static size_t function_named(const struct audit_file *f, const struct frame *fr, const char *name)
{
	size_t best = (size_t)-1;
	for (size_t k = 0; k < f->nsyms; k++) {
		const struct symbol *y = &f->syms[k];
		if (strcmp(y->name, name) || y->shndx == 0 || y->shndx >= f->nsecs ||
		    y->value == UINT64_MAX || (y->type != STT_FUNC && y->type != STT_NOTYPE))
			continue;
		if (best == (size_t)-1 || (y->size == fr->size && f->syms[best].size != fr->size))
			best = k;
	}
	return best;
}

/* The file holding FR's function NAME, and the symbol; NULL with WHY. */
static struct xfile *holder(const struct frame *fr, const char *name, size_t *sym, char *why,
			    size_t size)
{
	bool any = false, compressed = false;
	for (size_t i = 0; i < nxs; i++) {
		struct xfile *x = &xs[i];
		if (strcmp(x->mod, fr->mod))
			continue;
		any = true;
		compressed |= x->compressed;
		struct audit_file *f = xopen(x);
		if (f && (*sym = function_named(f, fr, name)) != (size_t)-1)
			return x;
	}
	if (fr->mod[0] && compressed)
		snprintf(why, size, "module %s is among the files only compressed: decompress it "
			 "(xz -dk, zstd -d) and name the .ko", fr->mod);
	else if (fr->mod[0] && !any)
		snprintf(why, size, "module %s is not among the files: name its .ko, or the "
			 "modules directory", fr->mod);
	else if (!any)
		snprintf(why, size, "%s is in vmlinux (no [module] in the log), and no file but "
			 "modules was given", name);
	else
		snprintf(why, size, "no file given %sholds a function %s: not the build that ran?",
			 fr->mod[0] ? "for that module " : "", name);
	return NULL;
}

static void ensure_scanned(struct xfile *x, size_t shndx)
{
	if (shndx < x->f.nsecs && !x->scanned[shndx] && x->f.secs[shndx].exec) {
		x->scanned[shndx] = true;
		if (x->f.arch->scan(&x->f, shndx))
			worse(EXPLAIN_ERROR);
	}
}

/* What one report resolves to. */
struct resolved {
	const struct cfi_report *r;
	bool fineibt;
	const struct frame *cframe;	/* the caller's frame: the report's or the trace's */
	struct xfile *cx, *tx;
	size_t csym, tsym;
	struct loc place;		/* the trap, or the return address */
	bool have_site, have_pre;
	struct site site;
	uint32_t tid;
	char cwhy[1024], twhy[1024];
	char tname[EXPLAIN_SYM_MAX];
};

static void resolve_caller(struct resolved *v)
{
	const struct cfi_report *r = v->r;
	v->cframe = &r->at;
	if (v->fineibt) {
		if (!r->has_caller) {
			snprintf(v->cwhy, sizeof(v->cwhy), "under FineIBT the trap is in the target's "
				 "preamble and the caller is only in the call trace, which the log %s",
				 r->trace_seen ? "holds no reliable frame of" : "does not hold (cut short?)");
			return;
		}
		v->cframe = &r->caller;
	}
	v->cx = holder(v->cframe, v->cframe->sym, &v->csym, v->cwhy, sizeof(v->cwhy));
	if (!v->cx)
		return;
	struct audit_file *f = &v->cx->f;
	const struct symbol *y = &f->syms[v->csym];
	v->place = (struct loc){ y->shndx, y->value + v->cframe->off };
	ensure_scanned(v->cx, y->shndx);
	for (size_t i = 0; i < f->nsites; i++) {
		const struct site *s = &f->sites[i];
		if (v->fineibt) {
			/* The call the return address follows: the last check
			 * of the function before it. */
			if (s->at.shndx == v->place.shndx && s->at.off < v->place.off &&
			    s->at.off >= y->value && (!v->have_site || s->at.off > v->site.at.off)) {
				v->site = *s;
				v->have_site = true;
			}
		} else if (s->trap.shndx == v->place.shndx && s->trap.off == v->place.off) {
			v->site = *s;
			v->have_site = true;
			break;
		}
	}
	if (!v->have_site)
		snprintf(v->cwhy, sizeof(v->cwhy), "%s has no KCFI check %s %s+0x%llx: not the "
			 "build that ran?", v->cx->path, v->fineibt ? "before the return address" :
			 "whose trap is at", v->cframe->sym, (unsigned long long)v->cframe->off);
}

static void add_preamble(struct audit_file *f, size_t sym, uint32_t id)
{
	if (f->npre == f->pre_cap) {
		size_t cap = f->pre_cap ? 2 * f->pre_cap : 16;
		struct preamble *p = realloc(f->pre, cap * sizeof(*p));
		if (!p)
			return;
		f->pre = p;
		f->pre_cap = cap;
	}
	f->pre[f->npre++] = (struct preamble){ sym, id };
}

static void resolve_target(struct resolved *v)
{
	const struct cfi_report *r = v->r;
	if (!r->has_target) {
		snprintf(v->twhy, sizeof(v->twhy), "the report %s", r->cut ?
			 "is cut short before it" : "names no target (\"no target information\")");
		return;
	}
	snprintf(v->tname, sizeof(v->tname), "%s", r->target.sym);
	v->tx = holder(&r->target, v->tname, &v->tsym, v->twhy, sizeof(v->twhy));
	if (!v->tx)
		return;
	struct audit_file *f = &v->tx->f;
	const struct symbol *fn = &f->syms[v->tsym];
	char name[EXPLAIN_SYM_MAX + 8];
	snprintf(name, sizeof(name), "__cfi_%s", fn->name);
	size_t cfi = audit_symbol_before(f, name, (struct loc){ fn->shndx, fn->value });
	const struct symbol *cs = cfi == (size_t)-1 ? NULL : &f->syms[cfi];
	v->have_pre = f->arch->preamble(f, fn, cs, &v->tid) ||
		      (cs && f->arch->preamble(f, fn, NULL, &v->tid));
	if (v->have_pre)
		add_preamble(f, v->tsym, v->tid);
	else
		snprintf(v->twhy, sizeof(v->twhy), "%s in %s has no KCFI preamble", fn->name,
			 v->tx->path);
}

/* Names from DWARF for files kcfi-as left no name records in. */
static void name_from_dwarf(struct xfile *x)
{
	if (x && x->state > 0 && !x->dwarf_named && !x->f.nnames) {
		x->dwarf_named = true;
		dwarf_names(&x->f);
	}
}

/* The C of ID in F ("void (int *)  [_ZTSFvPiE]") into BUF; *P when one
 * name reads as C.  False (BUF says why) without a name. */
static bool type_of(struct audit_file *f, uint32_t id, struct proto *p, char *buf, size_t size)
{
	size_t k;
	const struct type_name *t = tables_type_names(f, id, &k);
	if (!k) {
		snprintf(buf, size, "id 0x%08x, which no type name record%s of %s names", id,
			 f->nnames ? "" : " (nor DWARF function type)", f->path);
		return false;
	}
	if (k > 1) {
		snprintf(buf, size, "id 0x%08x, named by %zu types (a hash collision): %s, %s%s", id,
			 k, t[0].name, t[1].name, k > 2 ? ", ..." : "");
		return false;
	}
	if (!explain_demangle(t->name, p)) {
		snprintf(buf, size, "%s (id 0x%08x; not read as C here)", t->name, id);
		return false;
	}
	snprintf(buf, size, "%s  [%s, id 0x%08x]", p->c, t->name, id);
	return true;
}

static const char *arch_label(const struct resolved *v)
{
	const struct audit_file *f = v->cx ? &v->cx->f : v->tx ? &v->tx->f : NULL;
	if (!f)
		return v->fineibt ? "x86_64 FineIBT" : "unknown architecture (no file read)";
	switch (f->eh.e_machine) {
	case EM_X86_64: return v->fineibt ? "x86_64 FineIBT" : "x86_64 kCFI";
	case EM_AARCH64: return "arm64";
	case EM_RISCV: return "riscv64";
	case EM_ARM: return "arm";
	default: return f->arch->name;
	}
}

static void print_frame(const struct frame *fr)
{
	printf("%s+0x%llx/0x%llx%s%s%s", fr->sym, (unsigned long long)fr->off,
	       (unsigned long long)fr->size, fr->mod[0] ? " [" : "", fr->mod, fr->mod[0] ? "]" : "");
}

/* KCFI_CONVERSION records of the target in the files read: those to the
 * call's type first, as the line to fix. */
static void conversions(const struct resolved *v)
{
	bool any_records = false;
	int shown = 0;
	for (int exact = 1; exact >= 0 && !shown; exact--) {
		for (size_t i = 0; i < nxs; i++) {
			const struct audit_file *f = xs[i].state > 0 ? &xs[i].f : NULL;
			if (!f)
				continue;
			any_records |= f->nconvs > 0;
			for (size_t k = 0; k < f->nconvs; k++) {
				const struct conversion *c = &f->convs[k];
				if (strcmp(c->sym, v->tname) ||
				    (exact && (!v->have_site || c->ptr_id != v->site.id)))
					continue;
				if (!shown++)
					printf("  %s\n", exact ? "the line to fix (kcfi-as's conversion "
					       "records):" : "conversions of the target, none to the "
					       "call's type:");
				struct proto p;
				printf("    %s:%s: %s%s%s: %s taken as %s\n", c->file[0] ? c->file : "?",
				       c->line, c->kind, c->context[0] ? " in " : "", c->context, c->sym,
				       explain_demangle(c->ptr_type, &p) ? p.c : c->ptr_type);
			}
		}
	}
	if (shown)
		return;
	worse(EXPLAIN_PARTIAL);
	if (!any_records)
		printf("  the line to fix: unknown: no file read holds conversion records (built "
		       "by a kcfi-as before them, by Clang, or stripped), so where %s's address "
		       "took the call's type cannot be said; look for casts of %s, its use in "
		       "initializers of the call's pointer type, and stores through void * or "
		       "unions\n", v->tname, v->tname);
	else
		printf("  the line to fix: unknown: no conversion of %s is recorded in the files "
		       "read; it is made in a file not given (another module, vmlinux), or in a "
		       "way kcfi-as does not see (assembly, a pointer computed at run time)\n",
		       v->tname);
}

static void explain_one(const char *log, struct resolved *v)
{
	const struct cfi_report *r = v->r;
	char buf[EXPLAIN_TYPE_MAX * 3], src[512];
	printf("%s:%lu: CFI failure at ", log, r->line);
	print_frame(&r->at);
	if (r->has_target) {
		printf(" (target: ");
		print_frame(&r->target);
		if (r->has_type)
			printf("; expected type: 0x%08x", r->type);
		printf(")");
	}
	printf("\n  kernel: %s, %s\n", arch_label(v),
	       r->outcome == OUTCOME_TRAP ? "trapping (the kernel died)" :
	       r->outcome == OUTCOME_PERMISSIVE ? "permissive (CONFIG_CFI_PERMISSIVE: a warning, "
						  "the kernel went on)" :
	       "the log ends before the kernel says whether it went on");
	if (r->cut) {
		printf("  the report is cut short: %s cannot be read\n", r->cut);
		worse(EXPLAIN_PARTIAL);
	}

	/* The caller and the type its check expects. */
	struct proto call, fn;
	bool call_ok = false, fn_ok = false;
	if (!v->have_site) {
		printf("  caller: %s%s%s\n", v->cframe && v->cx ? v->cframe->sym : "unknown",
		       v->cx ? ": " : ": ", v->cwhy);
		worse(EXPLAIN_PARTIAL);
	} else {
		struct audit_file *f = &v->cx->f;
		printf("  caller: %s, ", v->cframe->sym);
		if (audit_source_line(f, v->site.at, src, sizeof(src)))
			printf("the indirect call at %s", src);
		else
			printf("the indirect call at %s+0x%llx (%s has no DWARF line information)",
			       v->cframe->sym, (unsigned long long)(v->site.at.off - f->syms[v->csym].value),
			       v->cx->path);
		printf(" (%s: %s+0x%llx)\n", v->cx->path, f->secs[v->site.at.shndx].name,
		       (unsigned long long)v->site.at.off);
		call_ok = type_of(f, v->site.id, &call, buf, sizeof(buf));
		printf("  the call expects: %s\n", buf);
		if (!call_ok)
			worse(EXPLAIN_PARTIAL);
		if (r->has_type && r->type != v->site.id)
			printf("  (the kernel printed 0x%08x, which the file's check does not hold: %s)\n",
			       r->type, f->eh.e_machine == EM_X86_64 ?
			       "x86 re-randomizes the ids at boot unless cfi=norand" :
			       "not the build that ran?");
	}

	/* The target's own type and definition. */
	if (!v->tx || !v->have_pre) {
		printf("  target: %s%s%s\n", r->has_target ? v->tname : "unknown", ": ", v->twhy);
		worse(EXPLAIN_PARTIAL);
	} else {
		struct audit_file *f = &v->tx->f;
		const struct symbol *y = &f->syms[v->tsym];
		printf("  target: %s, ", v->tname);
		if (audit_decl_line(f, (struct loc){ y->shndx, y->value }, y->name, src, sizeof(src)))
			printf("defined at %s", src);
		else
			printf("its definition unknown (%s has no DWARF for it)", v->tx->path);
		printf(" (%s)\n", v->tx->path);
		fn_ok = type_of(f, v->tid, &fn, buf, sizeof(buf));
		printf("  %s is: %s\n", v->tname, buf);
		if (!fn_ok)
			worse(EXPLAIN_PARTIAL);
	}
	if (v->have_site && v->have_pre && v->site.id == v->tid)
		printf("  the ids are equal: the call passes this check (the trap is not this "
		       "check's, or the code changed at run time)\n");
	if (call_ok && fn_ok) {
		printf("  differences:\n");
		if (!explain_diff(stdout, &call, &fn, v->tname))
			printf("    none in C\n");
	}
	if (r->has_target)
		conversions(v);
}

int explain_main(const char *log, char **files, int nfiles)
{
	FILE *in = strcmp(log, "-") ? fopen(log, "r") : stdin;
	const char *lname = strcmp(log, "-") ? log : "<stdin>";
	if (!in) {
		audit_error(log, "cannot open the log");
		return EXPLAIN_ERROR;
	}
	struct cfi_report *rs;
	size_t n;
	int rc = explain_read_log(in, lname, &rs, &n);
	if (in != stdin)
		fclose(in);
	if (rc)
		return EXPLAIN_ERROR;
	for (int i = 0; i < nfiles; i++)
		if (add_arg(files[i]))
			worse(EXPLAIN_ERROR);
	audit_quiet = true;	/* the files' own findings are the audit's business */
	if (!n) {
		printf("%s: no CFI failure report (\"CFI failure at ...\") in the log\n", lname);
		free(rs);
		return status ? status : EXPLAIN_NONE;
	}
	struct resolved *vs = calloc(n, sizeof(*vs));
	if (!vs) {
		audit_error("kcfi-audit", "out of memory");
		return EXPLAIN_ERROR;
	}
	for (size_t i = 0; i < n; i++) {
		vs[i].r = &rs[i];
		vs[i].fineibt = !strncmp(rs[i].at.sym, "__cfi_", 6);
		if (vs[i].fineibt && !rs[i].has_target) {
			/* The target is the function the preamble is of. */
			rs[i].target = rs[i].at;
			memmove(rs[i].target.sym, rs[i].target.sym + 6, strlen(rs[i].target.sym + 6) + 1);
			rs[i].target.off = 0;
			rs[i].has_target = !rs[i].cut || rs[i].at.sym[6];
		}
		resolve_caller(&vs[i]);
		resolve_target(&vs[i]);
	}
	for (size_t i = 0; i < n; i++) {
		name_from_dwarf(vs[i].cx);
		name_from_dwarf(vs[i].tx);
	}
	for (size_t i = 0; i < n; i++) {
		if (i)
			putchar('\n');
		explain_one(lname, &vs[i]);
	}
	fflush(stdout);
	for (size_t i = 0; i < nxs; i++) {
		if (xs[i].state > 0)
			free(xs[i].scanned);
		if (xs[i].opened)
			audit_close(&xs[i].f);
		free(xs[i].path);
	}
	free(xs);
	free(vs);
	free(rs);
	return status;
}
