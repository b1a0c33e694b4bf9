/* SPDX-License-Identifier: GPL-2.0-or-later */
/* .debug_srcinfo records (common/exempt.h) as the TU is streamed: #APP
 * blocks and the extent of every function kcfi-as instrumented, so
 * kcfi-audit can tell those apart from a lost check.  Branches left
 * unchecked on purpose get theirs where that is decided (tu-check.c,
 * tu-callsite.c, tu-stubs.c). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "common/exempt.h"
#include "asmpass/tu-state.h"

static unsigned ptr_bits(const struct tu *t)
{
	return t->type_opts.model.ptr_bits;
}

/* ".type NAME, @function" (or %function, STT_FUNC): the label NAME that
 * follows starts a function. */
void tu_function_type(struct tu *t, struct slice args)
{
	const char *comma = memchr(args.p, ',', args.n);
	t->fn_type.len = 0;
	t->fn_start_set = false;
	if (!comma)
		return;
	struct slice name = { args.p, (size_t)(comma - args.p) }, kind = { comma + 1, 0 };
	kind.n = args.n - name.n - 1;
	slice_trim(&name);
	slice_trim(&kind);
	if (name.n && kind.n > 1 && (slice_eq(kind, "@function") || slice_eq(kind, "%function") ||
				     slice_eq(kind, "STT_FUNC")))
		buf_append(&t->fn_type, name.p, name.n);
}

/* The function's own label: a local one beside it, which its range record
 * starts from.  The record cannot name the function itself: a weak
 * definition the linker replaces by another unit's would stretch the range
 * from that unit's function to this unit's end label, over whatever code
 * lies between (Linux's weak __x64_sys_* stubs in kernel/sys_ni.c). */
void tu_function_start(struct tu *t)
{
	t->fn_start = t->fn_serial++;
	t->fn_start_set = true;
	t->fn_start_pending = true;
}

/* After the function label's line: its local twin, at the same address
 * (the preamble's id stays right before the label itself). */
enum verdict_kind tu_function_start_label(struct tu *t, struct verdict *v)
{
	t->fn_start_pending = false;
	buf_printf(&v->before, ".Lkcfi_fn%u:\n", t->fn_start);
	return V_PASS;
}

/* ".size NAME, .-NAME", GCC's line at the end of every function (and of
 * its .cold part): a record that NAME..here is code kcfi-as instrumented.
 * kcfi-audit tells an unchecked branch in such code (a lost check) from
 * one in code no instrumented unit produced (hand-written assembly, units
 * built without -fsanitize=kcfi), which kcfi-as never sees to record. */
enum verdict_kind tu_function_range(struct tu *t, struct slice args, struct verdict *v)
{
	const char *comma = memchr(args.p, ',', args.n);
	if (!comma)
		return V_PASS;
	struct slice name = { args.p, (size_t)(comma - args.p) }, rest;
	rest.p = comma + 1;
	rest.n = args.n - name.n - 1;
	slice_trim(&name);
	slice_trim(&rest);
	if (!name.n || rest.n != name.n + 2 || memcmp(rest.p, ".-", 2) ||
	    memcmp(rest.p + 2, name.p, name.n))
		return V_PASS;
	unsigned n = t->exempt_serial++;
	record_label(&v->before, n);
	char start[32];
	if (t->fn_start_set && t->fn_type.len == name.n && !memcmp(t->fn_type.data, name.p, name.n)) {
		int k = snprintf(start, sizeof(start), ".Lkcfi_fn%u", t->fn_start);
		name = (struct slice){ start, (size_t)k };
	}
	record_range(&v->before, ptr_bits(t), name, n, KCFI_RANGE_INSTRUMENTED);
	t->fn_start_set = false;
	t->fn_type.len = 0;
	return V_PASS;
}

/* The section an #APP block starts in, as one string (name NUL group). */
static size_t section_key(const struct section *s, char *buf, size_t size)
{
	size_t a = strlen(s->name), b = s->group ? strlen(s->group) : 0;
	if (a + b + 2 > size)
		return 0;
	memcpy(buf, s->name, a + 1);
	if (b)
		memcpy(buf + a + 1, s->group, b);
	buf[a + 1 + b] = '\0';
	return a + b + 2;
}

/* An inline-assembly block begins (after its #APP line, before GCC's line
 * marker for the asm statement, whose numbering stays intact; on arm after
 * that marker, or before the first line of unmarked asm text): mark its
 * start.
 * Kcfi-as does not read the block, so every indirect branch in it is
 * exempt, as with Clang; the range says where such branches may be.
 * Branches the block puts into other sections (.pushsection) are outside
 * the range, and kcfi-audit reports them. */
enum verdict_kind tu_app_begin(struct tu *t, struct verdict *v)
{
	t->app_section_len = 0;
	if (!t->instrumented || !t->sec.cur.name)
		return V_PASS;
	t->app_section_len = section_key(&t->sec.cur, t->app_section, sizeof(t->app_section));
	if (!t->app_section_len)
		return V_PASS;
	t->app_serial = t->exempt_serial++;
	record_label(&v->before, t->app_serial);
	return V_PASS;
}

/* Before its #NO_APP line: the end label and the record, if the block
 * held code (the plugin's own blocks hold nothing) and ends in the section
 * it began in. */
enum verdict_kind tu_app_end(struct tu *t, struct verdict *v)
{
	char key[sizeof(t->app_section)];
	if (!t->app_section_len || !t->sec.cur.name)
		return V_PASS;
	size_t n = section_key(&t->sec.cur, key, sizeof(key));
	t->app_section_len = 0;
	if (!t->app_started)
		return V_PASS;
	if (n == 0 || memcmp(key, t->app_section, n))
		return V_PASS;
	unsigned end = t->exempt_serial++;
	record_label(&v->before, end);
	record_exempt(&v->before, ptr_bits(t), t->app_serial, end, KCFI_EXEMPT_INLINE_ASM);
	t->stats.exempt_records++;
	return V_PASS;
}
