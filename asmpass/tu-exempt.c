/* .debug_srcinfo records (common/exempt.h) as the TU is streamed: the
 * branches left unchecked on purpose, #APP blocks, and the extent of every
 * function kcfi-as instrumented, so kcfi-audit can tell those apart from a
 * lost check. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "common/exempt.h"
#include "asmpass/tu-state.h"

/* One record: START (text), .Lkcfi_exemptEND, R.  A 32-bit target has no
 * 64-bit absolute relocation (arm: .quad of a symbol does not assemble), so
 * there each word is the 32-bit value and a zero upper half. */
static void exempt_words(struct tu *t, struct slice start, unsigned end, unsigned r)
{
	const char *w = t->type_opts.model.ptr_bits == 32 ? "long" : "quad";
	const char *hi = t->type_opts.model.ptr_bits == 32 ? ", 0" : "";
	sink_printf(t->out, "\t.pushsection\t" KCFI_EXEMPT_SECTION ",\"\",%%progbits\n"
		    "\t.balign\t8\n\t.%s\t%.*s%s, .Lkcfi_exempt%u%s, %u%s\n\t.popsection\n",
		    w, (int)start.n, start.p, hi, end, hi, r, hi);
}

void tu_exempt_record(struct tu *t, unsigned start, unsigned end, enum kcfi_exempt_reason r)
{
	char label[32];
	int n = snprintf(label, sizeof(label), ".Lkcfi_exempt%u", start);
	exempt_words(t, (struct slice){ label, (size_t)n }, end, (unsigned)r);
}

/* A label right before the branch on the next line, and its record: the
 * branch stays unchecked on purpose, for reason R. */
void tu_exempt_branch(struct tu *t, enum kcfi_exempt_reason r)
{
	unsigned n = t->exempt_serial++;
	sink_printf(t->out, ".Lkcfi_exempt%u:\n", n);
	tu_exempt_record(t, n, n, r);
	t->stats.exempt_records++;
}

/* ".size NAME, .-NAME", GCC's line at the end of every function (and of
 * its .cold part): a record that NAME..here is code kcfi-as instrumented.
 * kcfi-audit tells an unchecked branch in such code (a lost check) from
 * one in code no instrumented unit produced (hand-written assembly, units
 * built without -fsanitize=kcfi), which kcfi-as never sees to record. */
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
void tu_function_start_label(struct tu *t)
{
	t->fn_start_pending = false;
	sink_printf(t->out, ".Lkcfi_fn%u:\n", t->fn_start);
	tu_resync(t, t->loc.line);
}

void tu_function_range(struct tu *t, struct slice args)
{
	const char *comma = memchr(args.p, ',', args.n);
	if (!comma)
		return;
	struct slice name = { args.p, (size_t)(comma - args.p) }, rest;
	rest.p = comma + 1;
	rest.n = args.n - name.n - 1;
	slice_trim(&name);
	slice_trim(&rest);
	if (!name.n || rest.n != name.n + 2 || memcmp(rest.p, ".-", 2) ||
	    memcmp(rest.p + 2, name.p, name.n))
		return;
	unsigned n = t->exempt_serial++;
	sink_printf(t->out, ".Lkcfi_exempt%u:\n", n);
	char start[32];
	if (t->fn_start_set && t->fn_type.len == name.n && !memcmp(t->fn_type.data, name.p, name.n)) {
		int k = snprintf(start, sizeof(start), ".Lkcfi_fn%u", t->fn_start);
		name = (struct slice){ start, (size_t)k };
	}
	exempt_words(t, name, n, KCFI_RANGE_INSTRUMENTED);
	t->fn_start_set = false;
	t->fn_type.len = 0;
	tu_resync(t, t->loc.line);
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
 * start.  NEXT_LINE is the number of the input line that follows.
 * Kcfi-as does not read the block, so every indirect branch in it is
 * exempt, as with Clang; the range says where such branches may be.
 * Branches the block puts into other sections (.pushsection) are outside
 * the range, and kcfi-audit reports them. */
void tu_app_begin(struct tu *t, unsigned long next_line)
{
	t->app_section_len = 0;
	if (!t->instrumented || !t->sec.cur.name)
		return;
	t->app_section_len = section_key(&t->sec.cur, t->app_section, sizeof(t->app_section));
	if (!t->app_section_len)
		return;
	t->app_serial = t->exempt_serial++;
	sink_printf(t->out, ".Lkcfi_exempt%u:\n", t->app_serial);
	tu_resync(t, next_line);
}

/* Before its #NO_APP line: the end label and the record, if the block
 * held code (the plugin's own blocks hold nothing) and ends in the section
 * it began in. */
void tu_app_end(struct tu *t)
{
	char key[sizeof(t->app_section)];
	if (!t->app_section_len || !t->sec.cur.name)
		return;
	size_t n = section_key(&t->sec.cur, key, sizeof(key));
	t->app_section_len = 0;
	if (!t->app_started)
		return;
	if (n == 0 || memcmp(key, t->app_section, n))
		return;
	unsigned end = t->exempt_serial++;
	sink_printf(t->out, ".Lkcfi_exempt%u:\n", end);
	tu_exempt_record(t, t->app_serial, end, KCFI_EXEMPT_INLINE_ASM);
	t->stats.exempt_records++;
	tu_resync(t, t->loc.line);
}
