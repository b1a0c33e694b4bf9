/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdicts: each indirect branch checked, exempt or a finding; each
 * trap table entry at a trap; each address-taken function with a
 * well-formed preamble whose id agrees with its __kcfi_typeid_ symbol. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "audit/tables.h"
#include "audit/verify.h"

static void add_site(struct audit_file *f, struct loc at, uint32_t id, struct loc trap)
{
	if (f->nsites == f->sites_cap) {
		f->sites_cap = f->sites_cap ? 2 * f->sites_cap : 256;
		f->sites = realloc(f->sites, f->sites_cap * sizeof(*f->sites));
		if (!f->sites) {
			audit_error(f->path, "out of memory");
			exit(2);
		}
	}
	f->sites[f->nsites++] = (struct site){ at, id, trap };
}

static void fmt_loc(const struct audit_file *f, struct loc at, char *buf, size_t size)
{
	snprintf(buf, size, "%s+0x%llx", at.shndx < f->nsecs ? f->secs[at.shndx].name : "?",
		 (unsigned long long)at.off);
}

/* The linker's PLT stubs jump through the GOT slot of a named function:
 * no program pointer is involved, and no unit records them. */
static bool linker_stub(const char *name)
{
	return !strcmp(name, ".plt") || !strcmp(name, ".plt.got") || !strcmp(name, ".plt.sec") ||
	       !strcmp(name, ".iplt");
}

void audit_code_ref(struct audit_file *f, struct loc from, uint64_t addr)
{
	if (f->ncode_refs == f->code_refs_cap) {
		f->code_refs_cap = f->code_refs_cap ? 2 * f->code_refs_cap : 256;
		f->code_refs = realloc(f->code_refs, f->code_refs_cap * sizeof(*f->code_refs));
		if (!f->code_refs) {
			audit_error(f->path, "out of memory");
			exit(2);
		}
	}
	f->code_refs[f->ncode_refs++] = (struct code_ref){ from, addr };
}

void audit_branch(struct audit_file *f, size_t shndx, uint64_t off, unsigned len, bool call,
		  const struct check *c, const char *spelling)
{
	struct loc at = { shndx, off };
	if (c && c->present && !c->problem) {
		f->n.checked++;
		add_site(f, at, c->id, c->trap);
		if (!f->arch->trap_table)
			f->n.traps++;	/* aarch64: the brk is the trap, no table lists it */
		if (f->arch->trap_table && !tables_trap_listed(f, c->trap)) {
			char t[128];
			fmt_loc(f, c->trap, t, sizeof(t));
			audit_finding(f, at, "the %s of its KCFI check (%s) is not listed in .kcfi_traps",
				      f->arch->trap_name, t);
		}
		return;
	}
	unsigned r = tables_exempt(f, at, len);
	if (!r && linker_stub(f->secs[shndx].name))
		r = AUDIT_EXEMPT_PLT;
	if (r) {
		f->n.exempt[r]++;
		f->n.exempt_total++;
		return;
	}
	if (!tables_instrumented(f, at)) {
		/* No instrumented unit made this code: kcfi-as never saw it,
		 * so nothing could be checked or recorded. */
		f->n.outside++;
		audit_finding(f, at, "indirect %s '%s' outside the code kcfi-as instrumented "
			      "(assembly source, or built without -fsanitize=kcfi)",
			      call ? "call" : "jump", spelling);
		return;
	}
	f->n.unchecked++;
	if (c && c->problem)
		audit_finding(f, at, "indirect %s '%s': %s", call ? "call" : "jump", spelling,
			      c->problem);
	else
		audit_finding(f, at, "indirect %s '%s' without a KCFI check", call ? "call" : "jump",
			      spelling);
}

void verify_traps(struct audit_file *f)
{
	f->n.traps += f->ntraps;
	for (size_t i = 0; i < f->ntraps; i++)
		if (!f->arch->is_trap(f, f->traps[i]))
			audit_finding(f, f->traps[i], "a .kcfi_traps entry points here, at no %s",
				      f->arch->trap_name);
}

/* Sections whose references to a function take its address as the program
 * means it (data, constant data, initializer arrays, and code other than
 * calls).  Unwind tables, patch-site lists and the like also point at
 * functions, for tools, not for indirect calls: they are not listed. */
static bool takes_addresses(const struct section *s)
{
	static const char *const prefixes[] = {
		".data", ".rodata", ".init.data", ".init.rodata", ".ref.data", ".init_array",
		".fini_array", ".preinit_array",
	};
	if (!(s->sh.sh_flags & SHF_ALLOC))
		return false;
	if (s->exec)
		return true;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(s->name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* TAKEN[sym] = where its address is first taken (section+1, or 0). */
static void find_taken(const struct audit_file *f, struct loc *taken)
{
	for (size_t i = 1; i < f->nsecs; i++) {
		const struct section *s = &f->secs[i];
		/* A linked file's GOT holds the address of every function its
		 * PIC code loads by name that the linker did not turn into a
		 * PC-relative computation (arm, i386 PIE: no such relaxation). */
		bool got = !f->has_relocs && !f->rel && !strcmp(s->name, ".got");
		if (!takes_addresses(s) && !got)
			continue;
		if (f->has_relocs) {
			for (size_t k = 0; k < s->nrelocs; k++) {
				const struct reloc *r = &s->relocs[k];
				struct loc to;
				if (s->exec && f->arch->is_branch_reloc(f, s, r))
					continue;
				if (!audit_reloc_loc(f, r, f->arch->reloc_target_bias(r->type), &to))
					continue;
				size_t fn = audit_func_starting(f, to);
				if (fn != (size_t)-1 && !taken[fn].shndx)
					taken[fn] = (struct loc){ i, r->off };
			}
		} else if (!s->exec && s->data) {
			/* A linked file without relocations: pointer-sized,
			 * aligned words that hold a function's address. */
			for (uint64_t o = 0; o + f->word <= s->size; o += f->word) {
				struct loc to;
				uint64_t v = f->word == 8 ? le64(s->data + o) : le32(s->data + o);
				if (!v || !audit_addr_loc(f, audit_code_addr(f, v), &to) ||
				    !f->secs[to.shndx].exec)
					continue;
				size_t fn = audit_func_starting(f, to);
				if (fn != (size_t)-1 && !taken[fn].shndx)
					taken[fn] = (struct loc){ i, o };
			}
		}
	}
	/* ... and addresses its code computes (the decoder's code_refs):
	 * "lea f(%rip), %rdi" leaves no word and no relocation behind. */
	for (size_t k = 0; k < f->ncode_refs; k++) {
		struct loc to;
		if (!audit_addr_loc(f, audit_code_addr(f, f->code_refs[k].addr), &to) ||
		    !f->secs[to.shndx].exec)
			continue;
		size_t fn = audit_func_starting(f, to);
		if (fn != (size_t)-1 && !taken[fn].shndx)
			taken[fn] = f->code_refs[k].from;
	}
}

static bool plain_function(const struct symbol *y)
{
	return y->type == STT_FUNC && y->shndx > 0 && y->shndx < SHN_LORESERVE &&
	       y->value != UINT64_MAX && strncmp(y->name, "__cfi_", 6) &&
	       strncmp(y->name, "__kcfi_", 7);
}

void verify_preambles(struct audit_file *f)
{
	struct loc *taken = calloc(f->nsyms + 1, sizeof(*taken));
	if (!taken) {
		audit_error(f->path, "out of memory");
		exit(2);
	}
	find_taken(f, taken);
	char name[1024];
	for (size_t k = 0; k < f->nsyms; k++) {
		const struct symbol *fn = &f->syms[k];
		if (!plain_function(fn) || fn->shndx >= f->nsecs)
			continue;
		struct loc at = { fn->shndx, fn->value };
		snprintf(name, sizeof(name), "__cfi_%s", fn->name);
		size_t cfi = audit_symbol_before(f, name, at);
		const struct symbol *cs = cfi == (size_t)-1 ? NULL : &f->syms[cfi];
		uint32_t id;
		/* Its own __cfi_ symbol, else the preamble's bytes alone (an
		 * alias shares the preamble of the name GCC printed it under). */
		bool ok = f->arch->preamble(f, fn, cs, &id) ||
			  (cs && f->arch->preamble(f, fn, NULL, &id));
		if (!ok && cs && fn->value - cs->value <= 4096) {
			audit_finding(f, at, "%s is not a well-formed KCFI preamble", name);
			continue;
		}
		if (!ok) {
			if (taken[k].shndx) {
				char t[128];
				fmt_loc(f, taken[k], t, sizeof(t));
				/* Fails closed (a checked call of it traps):
				 * not counted in the exit status. */
				f->n.nopreamble++;
				audit_finding(f, at, "address taken (%s) but no KCFI preamble", t);
			}
			continue;
		}
		if (f->npre == f->pre_cap) {
			f->pre_cap = f->pre_cap ? 2 * f->pre_cap : 256;
			f->pre = realloc(f->pre, f->pre_cap * sizeof(*f->pre));
			if (!f->pre) {
				audit_error(f->path, "out of memory");
				exit(2);
			}
		}
		f->pre[f->npre++] = (struct preamble){ k, id };
		f->n.preambles++;
		if (f->arch->preamble_arity) {
			int a = f->arch->preamble_arity(f, fn, cs);
			if (a < 0 && cs)
				a = f->arch->preamble_arity(f, fn, NULL);
			if (a >= 0 && a < 8) {
				f->n.arity[a]++;
				if (audit_arity)
					printf("%s: <%s>: arity %d\n", f->path, fn->name, a);
			}
		}
		snprintf(name, sizeof(name), "__kcfi_typeid_%s", fn->name);
		size_t t = audit_symbol(f, name);
		/* __kcfi_typeid_NAME names the external NAME: not a static
		 * function of the same name in another unit. */
		/* Without a __cfi_ symbol, in code no instrumented unit made (LKDTM
		 * copies a function built without KCFI into .rodata), the word
		 * in front is no preamble: nothing to compare. */
		bool bare = !cs && f->has_records && !tables_instrumented(f, at);
		if (!bare && t != (size_t)-1 && f->syms[t].shndx == SHN_ABS &&
		    fn->bind != STB_LOCAL && (uint32_t)f->syms[t].value != id)
			audit_finding(f, at, "preamble id 0x%08x differs from %s = 0x%08x", id, name,
				      (uint32_t)f->syms[t].value);
	}
	free(taken);
}
