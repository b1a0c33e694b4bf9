/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The architecture-neutral parts of emission; see emit.h. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "asmpass/emit.h"
#include "asmpass/section.h"
#include "asmpass/sink.h"

void emit(struct emitter *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(e->out, fmt, ap);
	va_end(ap);
}


/* One self-relative 32-bit entry per trap, in a section linked to the code
 * section, as Linux's is_cfi_trap() and Clang's emitKCFITrapEntry expect.
 * push/pop leave GNU as's ".previous" state alone. */
static void trap_entry(struct emitter *e, unsigned serial)
{
	if (!e->trap_word)
		return;
	const struct section *s = e->section;
	if (s->group && s->group[0])
		emit(e, "\t.pushsection .kcfi_traps,\"aoG\",@progbits,%s,%s,comdat\n",
		     s->name, s->group);
	else
		emit(e, "\t.pushsection .kcfi_traps,\"ao\",@progbits,%s\n", s->name);
	emit(e, ".Lkcfi%u_entry:\n\t%s\t.Lkcfi%u_trap-.Lkcfi%u_entry\n\t.popsection\n",
	     serial, e->trap_word, serial, serial);
}

void emit_trap(struct emitter *e, unsigned serial, const char *fmt, ...)
{
	va_list ap;
	emit(e, ".Lkcfi%u_trap:\n", serial);
	va_start(ap, fmt);
	buf_vprintf(e->out, fmt, ap);
	va_end(ap);
	trap_entry(e, serial);
	emit(e, EMIT_CALL_LABEL ":\n", serial);
}

int emit_fail(struct emitter *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->error, sizeof(e->error), fmt, ap);
	va_end(ap);
	return -1;
}
