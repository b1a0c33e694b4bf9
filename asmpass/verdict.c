/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Verdicts of the translation-unit pass; see verdict.h. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "asmpass/verdict.h"

void verdict_reset(struct verdict *v)
{
	v->before.len = 0;
	v->text.len = 0;
	v->diag.len = 0;
	v->diag_fails = false;
	v->entry = ENTRY_NONE;
}

void verdict_free(struct verdict *v)
{
	buf_free(&v->before);
	buf_free(&v->text);
	buf_free(&v->diag);
	buf_free(&v->preamble);
}

enum verdict_kind v_vfail(struct verdict *v, size_t col, bool at_source,
			  const char *fmt, va_list ap)
{
	vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
	v->col = col;
	v->at_source = at_source;
	return V_FAIL;
}

enum verdict_kind v_fail(struct verdict *v, size_t col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	v_vfail(v, col, false, fmt, ap);
	va_end(ap);
	return V_FAIL;
}

enum verdict_kind v_fail_src(struct verdict *v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	v_vfail(v, 0, true, fmt, ap);
	va_end(ap);
	return V_FAIL;
}
