/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings, one line each:
 *	FILE: SECTION+0xOFF <FUNCTION> (SOURCE:LINE): WHAT
 * The source line comes from DWARF (libdw's offline Dwfl, which also lays
 * out the sections of a relocatable object) when the file has a
 * .debug_line; otherwise the parenthesis is left out. */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "audit/audit.h"

void audit_error(const char *path, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "kcfi-audit: %s: error: ", path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static const Dwfl_Callbacks offline = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static bool has_debug_line(const struct audit_file *f)
{
	for (size_t i = 1; i < f->nsecs; i++)
		if (!strcmp(f->secs[i].name, ".debug_line"))
			return true;
	return false;
}

static int first_module(Dwfl_Module *mod, void **user, const char *name, Dwarf_Addr start,
			void *arg)
{
	(void)user;
	(void)name;
	(void)start;
	*(Dwfl_Module **)arg = mod;
	return DWARF_CB_ABORT;
}

static Dwfl_Module *dwarf_module(struct audit_file *f)
{
	if (!f->dwfl_tried) {
		f->dwfl_tried = true;
		if (!has_debug_line(f))
			return NULL;
		Dwfl *d = dwfl_begin(&offline);
		if (!d)
			return NULL;
		if (!dwfl_report_offline(d, "", f->path, -1) || dwfl_report_end(d, NULL, NULL)) {
			dwfl_end(d);
			return NULL;
		}
		f->dwfl = d;
	}
	if (!f->dwfl)
		return NULL;
	Dwfl_Module *m = NULL;
	dwfl_getmodules(f->dwfl, first_module, &m, 0);
	return m;
}

void *audit_dwarf_module(struct audit_file *f)
{
	return dwarf_module(f);
}

/* The address libdw gives AT (an object's sections laid out by Dwfl). */
static bool dwarf_addr(struct audit_file *f, struct loc at, Dwfl_Module **m, Dwarf_Addr *addr)
{
	*m = dwarf_module(f);
	if (!*m)
		return false;
	Dwarf_Addr bias;
	Elf *e = dwfl_module_getelf(*m, &bias);
	GElf_Shdr sh;
	Elf_Scn *scn = e ? elf_getscn(e, at.shndx) : NULL;
	if (!scn || !gelf_getshdr(scn, &sh))
		return false;
	*addr = sh.sh_addr + at.off + bias;
	return true;
}

bool audit_source_line(struct audit_file *f, struct loc at, char *buf, size_t size)
{
	Dwfl_Module *m;
	Dwarf_Addr addr;
	if (!dwarf_addr(f, at, &m, &addr))
		return false;
	Dwfl_Line *l = dwfl_module_getsrc(m, addr);
	int line;
	const char *file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
	if (!file)
		return false;
	snprintf(buf, size, "%s:%d", file, line);
	return true;
}

/* Looking for the subprogram DIE called NAME whose code starts at ADDR,
 * or, failing that, any called NAME with a declared line. */
struct decl_want {
	const char *name;
	Dwarf_Addr addr;
	Dwarf_Die die;
	bool any, exact;
};

static void find_subprogram(Dwarf_Die *die, struct decl_want *w, int depth)
{
	Dwarf_Die c;
	if (depth > 16 || dwarf_child(die, &c) != 0)
		return;
	do {
		Dwarf_Addr lo;
		const char *n = dwarf_diename(&c);
		int line;
		if (dwarf_tag(&c) == DW_TAG_subprogram && n && !strcmp(n, w->name) &&
		    dwarf_decl_line(&c, &line) == 0) {
			bool at = dwarf_lowpc(&c, &lo) == 0 && lo == w->addr;
			if (at || !w->any) {
				w->die = c;
				w->any = true;
				w->exact = at;
				if (at)
					return;
			}
		}
		find_subprogram(&c, w, depth + 1);
	} while (!w->exact && dwarf_siblingof(&c, &c) == 0);
}

bool audit_decl_line(struct audit_file *f, struct loc at, const char *name, char *buf,
		     size_t size)
{
	Dwfl_Module *m;
	Dwarf_Addr addr, bias;
	if (!dwarf_addr(f, at, &m, &addr))
		return false;
	struct decl_want w = { .name = name };
	Dwarf_Die *cu = dwfl_module_addrdie(m, addr, &bias);
	if (cu) {
		w.addr = addr - bias;
		find_subprogram(cu, &w, 0);
	}
	/* Not in the unit of its code: any unit's definition of it. */
	for (Dwarf_Die *d = NULL; !w.any && (d = dwfl_module_nextcu(m, d, &bias));) {
		w.addr = addr - bias;
		find_subprogram(d, &w, 0);
	}
	int line;
	const char *file = w.any ? dwarf_decl_file(&w.die) : NULL;
	if (!file || dwarf_decl_line(&w.die, &line) != 0)
		return false;
	snprintf(buf, size, "%s:%d", file, line);
	return true;
}

bool audit_quiet;
bool audit_arity;

/* The symbol to name AT by: the function containing it; but a place past
 * the end of the last function before it (or before any) is code that no
 * function symbol covers, such as an assembly file's SYM_CODE_START_LOCAL
 * (Linux's head_64.S: common_startup_64's call *initial_code(%rip), which
 * used to be shown as <load_trampoline_pgtable>).  Then the nearest label
 * before it that is a code or untyped symbol, if one is past that end. */
static const char *place_name(const struct audit_file *f, struct loc at)
{
	size_t fn = audit_func_at(f, at);
	uint64_t from = 0;
	if (fn != (size_t)-1) {
		const struct symbol *y = &f->syms[fn];
		if (!y->size || at.off < y->value + y->size)
			return y->name;
		from = y->value + y->size;
	}
	size_t best = (size_t)-1;
	for (size_t k = 0; k < f->nsyms; k++) {
		const struct symbol *y = &f->syms[k];
		if (y->shndx != at.shndx || y->value > at.off || y->value < from || !y->name[0] ||
		    (y->type != STT_NOTYPE && y->type != STT_FUNC) || !strncmp(y->name, ".L", 2) ||
		    y->name[0] == '$')	/* mapping symbols ($a, $t, $d, $x) name no code */
			continue;
		if (best == (size_t)-1 || y->value > f->syms[best].value)
			best = k;
	}
	if (best != (size_t)-1)
		return f->syms[best].name;
	return fn == (size_t)-1 ? "?" : f->syms[fn].name;
}

void audit_finding(struct audit_file *f, struct loc at, const char *fmt, ...)
{
	char src[512];
	f->n.findings++;
	if (audit_quiet)
		return;
	printf("%s: %s+0x%llx <%s>", f->path, at.shndx < f->nsecs ? f->secs[at.shndx].name : "?",
	       (unsigned long long)at.off, place_name(f, at));
	if (audit_source_line(f, at, src, sizeof(src)))
		printf(" (%s)", src);
	printf(": ");
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* The exit status of one file (doc/kcfi-audit.md 1, "Exit status"): 1 if
 * a finding means a lost or forged check -- a branch unchecked inside a
 * function kcfi-as instrumented, a malformed record, trap table or
 * preamble, a record of unknown reason, an id that disagrees with its
 * name or its __kcfi_typeid_, a trap missing from .kcfi_traps -- or, under
 * --strict, if anything at all was found; else 0.  Not counted without
 * --strict: branches in code no instrumented unit made (hand-written
 * assembly, code built without -fsanitize=kcfi, another compiler's
 * output, a file stripped of its records), which say nothing about what
 * kcfi-as did, and functions whose address is taken without a preamble
 * (the C library's start files, constructors), which fail closed: a
 * checked call of one traps. */
bool audit_strict;

static unsigned long uncounted(const struct audit_file *f)
{
	return f->n.outside + f->n.nopreamble;
}

int audit_verdict(const struct audit_file *f)
{
	if (f->n.findings > uncounted(f))
		return 1;
	return audit_strict && uncounted(f) ? 1 : 0;
}

/* The line before the summary that says which findings the exit status
 * leaves out, or, under --strict, counts only because of it. */
void audit_verdict_note(const struct audit_file *f)
{
	unsigned long n = uncounted(f);
	if (!n)
		return;
	printf("%s: %s: %lu finding%s %s:", f->path, f->arch->name, n, n == 1 ? "" : "s",
	       audit_strict ? "counted in the exit status because of --strict"
			    : "not counted in the exit status (--strict counts them)");
	if (f->n.outside)
		printf(" %lu indirect branch%s outside instrumented code (assembly source, or built "
		       "without -fsanitize=kcfi)%s", f->n.outside, f->n.outside == 1 ? "" : "es",
		       f->n.nopreamble ? "," : "");
	if (f->n.nopreamble)
		printf(" %lu function%s whose address is taken without a preamble (a checked call "
		       "of %s traps)", f->n.nopreamble, f->n.nopreamble == 1 ? "" : "s",
		       f->n.nopreamble == 1 ? "it" : "one");
	putchar('\n');
}

void audit_report_free(struct audit_file *f)
{
	if (f->dwfl)
		dwfl_end(f->dwfl);
	f->dwfl = NULL;
}
