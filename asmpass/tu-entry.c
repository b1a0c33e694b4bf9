/* Per-function state between .kcfi_func and the function's label: the
 * output is held back meanwhile so the preamble can go after the alignment
 * and before GCC's patchable prefix NOPs, which are counted here. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "asmpass/tu-state.h"

int tu_on_func(struct tu *t, const struct kcfi_directive *d)
{
	if (t->func.active)
		return tu_fail(t, 0, ".kcfi_func %s (line %lu) was not followed by its definition",
			    t->func.name.data, t->func.line);
	if (d->has_id && !tu_need_type(t, d))
		return -1;
	if (d->arity >= 0 && !t->arch->arity)
		return tu_fail(t, 0, ".kcfi_func %.*s: the %s preamble has no place for an arity "
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
	sink_hold(t->out);
	return 0;
}

struct entry_ctx {
	struct tu *t;
	const struct kcfi_entry *e;
	unsigned long resume_line;
};

static void insert_entry(void *p)
{
	struct entry_ctx *c = p;
	struct emitter em = { .sink = c->t->out, .section = &c->t->sec.cur,
			      .trap_word = c->t->arch->trap_word };
	c->t->arch->emit_entry(&em, c->e);
	tu_resync(c->t, c->resume_line);
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

/* The label of the pending function: release what was held back, with the
 * preamble at the right place. */
static int finish_entry(struct tu *t)
{
	struct pending_func *f = &t->func;
	unsigned nops = f->prefix_seen ? f->nops : 0;
	if (nops != t->prefix_nops)
		return tu_fail(t, 0, "%s has %u patchable prefix NOPs, but callers in this "
			    "translation unit assume %u (-fpatchable-function-entry)",
			    f->name.data, nops, t->prefix_nops);
	struct slice name = { f->name.data, f->name.len - 1 };
	struct kcfi_entry e = {
		.cfi_sym = tu_prefixed_symbol(t, "__cfi_", name),
		.binding = f->binding,
		.typed = f->typed,
		.id = f->id,
		.align = entry_align(t),
		.prefix_nops = t->prefix_nops,
		.arity = f->arity,
	};
	struct entry_ctx c = { t, &e, f->prefix_seen ? f->prefix_line : t->loc.line };
	size_t at = f->prefix_seen ? f->prefix_off : sink_held_len(t->out);
	sink_release(t->out, at, insert_entry, &c);
	if (f->stub_alias && f->binding)
		tu_emit_stub_alias(t, name, name, f->binding);
	if (f->typed)
		t->stats.preambles++;
	else
		t->stats.padded++;
	f->active = false;
	return 0;
}

/* A label while the function is pending: its own ends the wait, GCC's
 * .LPFE label says where the patchable prefix NOPs begin. */
int tu_entry_label(struct tu *t, struct stmt *s)
{
	struct slice fname = { t->func.name.data, t->func.name.len - 1 };
	if (tu_same_symbol(s->name, fname))
		return finish_entry(t);
	if (!t->func.prefix_seen && slice_starts(s->name, ".LPFE")) {
		t->func.prefix_seen = true;
		t->func.prefix_off = sink_held_len(t->out);
		t->func.prefix_line = t->loc.line;
	}
	return 0;
}

/* An instruction while the function is pending: only the prefix NOPs may
 * come before its label, a preamble cannot go in front of anything else. */
int tu_entry_insn(struct tu *t, struct stmt *s)
{
	struct slice w = s->text;
	if (t->func.prefix_seen && slice_eq(w, t->arch->nop)) {
		t->func.nops++;
		return 0;
	}
	return tu_fail(t, 0, "instruction '%.*s' before the label of %s (.kcfi_func at line %lu)",
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
		if (tu_same_symbol(s->args, fname))
			t->func.binding = dir_is(s, "weak") ? ".weak" : ".globl";
	}
}
