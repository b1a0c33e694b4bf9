/* Verdicts of the translation-unit pass; see verdict.h. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "asmpass/verdict.h"

void verdict_reset(struct verdict *v)
{
	v->before.len = 0;
	v->text.len = 0;
	v->entry = ENTRY_NONE;
}

void verdict_free(struct verdict *v)
{
	buf_free(&v->before);
	buf_free(&v->text);
	buf_free(&v->preamble);
}

enum verdict_kind v_fail(struct verdict *v, size_t col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
	va_end(ap);
	v->col = col;
	v->at_source = false;
	return V_FAIL;
}

enum verdict_kind v_fail_src(struct verdict *v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
	va_end(ap);
	v->col = 0;
	v->at_source = true;
	return V_FAIL;
}
