/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-function state between .kcfi_func and the function's label: the
 * output is held back meanwhile (ENTRY_HOLD) so the preamble can go after
 * the alignment and before GCC's patchable prefix NOPs, which are counted
 * here. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "asmpass/tu-state.h"

enum verdict_kind tu_on_func(struct tu *t, const struct kcfi_directive *d, struct verdict *v)
{
	if (t->func.active)
		return v_fail(v, 0, ".kcfi_func %s (line %lu) was not followed by its definition",
			      t->func.name.data, t->func.line);
	if (d->has_id && !typetab_need(&t->types, d->id))
		return v_fail(v, 0, TYPETAB_UNDEFINED, kcfi_dir_name(d->kind), d->id);
	if (d->arity >= 0 && !t->arch->arity)
		return v_fail(v, 0, ".kcfi_func %.*s: the %s preamble has no place for an arity "
			      "(only x86_64's has, for -fsanitize-kcfi-arity)",
			      (int)d->name.n, d->name.p, t->arch->name);
	struct pending_func *f = &t->func;
	f->name.len = 0;
	buf_append(&f->name, d->name.p, d->name.n);
	buf_append(&f->name, "", 1);
	f->active = true;
	f->typed = d->has_id;
	f->arity = d->arity;
	f->id = d->has_id ? typetab_get(&t->types, d->id)->id : 0;
	f->line = t->loc.line;
	f->n_aligns = 0;
	f->align_any = 1;
	f->aligns_full = false;
	f->binding = NULL;
	f->stub_alias = d->stub;
	if (d->stub && d->has_id && t->symvers.n)
		symver_defined(&t->symvers, d->name, f->id);
	f->prefix_seen = false;
	f->nops = 0;
	t->code_seen = true;
	v->entry = ENTRY_HOLD;
	return V_BLANK;
}

/* The pending function's alignment: the largest asked for in the section
 * its label is in. */
static unsigned entry_align(const struct tu *t)
{
	unsigned long long here = section_hash(&t->sec.cur);
	unsigned a = 1;
	if (t->func.aligns_full)
		return t->func.align_any;
	for (unsigned i = 0; i < t->func.n_aligns; i++)
		if (t->func.aligns[i].section == here && t->func.aligns[i].align > a)
			a = t->func.aligns[i].align;
	return a;
}

/* The label of the pending function: the preamble, for tu.c to place where
 * the prefix began (or in front of the label), and what was held back goes
 * out. */
static enum verdict_kind finish_entry(struct tu *t, struct verdict *v)
{
	struct pending_func *f = &t->func;
	unsigned nops = f->prefix_seen ? f->nops : 0;
	if (nops != t->prefix_nops)
		return v_fail(v, 0, "%s has %u patchable prefix NOPs, but callers in this "
			      "translation unit assume %u (-fpatchable-function-entry)",
			      f->name.data, nops, t->prefix_nops);
	struct slice name = { f->name.data, f->name.len - 1 };
	struct kcfi_entry e = {
		.cfi_sym = sym_prefixed(&t->scratch, "__cfi_", name),
		.binding = f->binding,
		.typed = f->typed,
		.id = f->id,
		.align = entry_align(t),
		.prefix_nops = t->prefix_nops,
		.arity = f->arity,
	};
	v->preamble.len = 0;
	struct emitter em = { .out = &v->preamble, .section = &t->sec.cur,
			      .trap_word = t->arch->trap_word };
	t->arch->emit_entry(&em, &e);
	v->entry = ENTRY_PLACE;
	if (f->stub_alias && f->binding)
		sym_stub_alias(&v->before, &t->scratch, name, name, f->binding);
	if (f->typed)
		t->stats.preambles++;
	else
		t->stats.padded++;
	f->active = false;
	return V_PASS;
}

/* A label while the function is pending: its own ends the wait, GCC's
 * .LPFE label says where the patchable prefix NOPs begin. */
enum verdict_kind tu_entry_label(struct tu *t, struct stmt *s, struct verdict *v)
{
	struct slice fname = { t->func.name.data, t->func.name.len - 1 };
	if (sym_same(s->name, fname))
		return finish_entry(t, v);
	if (!t->func.prefix_seen && slice_starts(s->name, ".LPFE")) {
		t->func.prefix_seen = true;
		v->entry = ENTRY_MARK;
	}
	return V_PASS;
}

/* An instruction while the function is pending: only the prefix NOPs may
 * come before its label, a preamble cannot go in front of anything else. */
enum verdict_kind tu_entry_insn(struct tu *t, struct stmt *s, struct verdict *v)
{
	struct slice w = s->text;
	if (t->func.prefix_seen && slice_eq(w, t->arch->nop)) {
		t->func.nops++;
		return V_PASS;
	}
	return v_fail(v, 0, "instruction '%.*s' before the label of %s (.kcfi_func at line %lu)",
		      (int)s->text.n, s->text.p, t->func.name.data, t->func.line);
}

/* The alignment in bytes (GNU as takes up to 2^31 in ELF). */
static unsigned parse_align(const struct tu *t, struct stmt *s)
{
	unsigned long v = strtoul(s->args.p, NULL, 0);
	if (dir_is(s, "p2align") || (dir_is(s, "align") && t->arch->align_pow2))
		return v <= 31 ? 1u << v : 1;
	return v >= 1 && v <= (1ul << 31) ? (unsigned)v : 1;
}

/* A directive while the function is pending: the preamble needs the
 * function's alignment and binding. */
void tu_entry_directive(struct tu *t, struct stmt *s)
{
	if (dir_is(s, "p2align") || dir_is(s, "balign") || dir_is(s, "align")) {
		unsigned a = parse_align(t, s);
		unsigned long long here = section_hash(&t->sec.cur);
		struct pending_func *f = &t->func;
		unsigned i = 0;
		if (a > f->align_any)
			f->align_any = a;
		while (i < f->n_aligns && f->aligns[i].section != here)
			i++;
		if (i == f->n_aligns) {
			/* More sections than slots (never from GCC): pad for
			 * the largest alignment seen anywhere, which loses none. */
			if (f->n_aligns == sizeof f->aligns / sizeof f->aligns[0]) {
				f->aligns_full = true;
				return;
			}
			f->aligns[f->n_aligns++] = (struct func_align){ here, 1 };
		}
		if (a > f->aligns[i].align)
			f->aligns[i].align = a;
	} else if (dir_is(s, "globl") || dir_is(s, "global") || dir_is(s, "weak")) {
		struct slice fname = { t->func.name.data, t->func.name.len - 1 };
		if (sym_same(s->args, fname))
			t->func.binding = dir_is(s, "weak") ? ".weak" : ".globl";
	}
}
