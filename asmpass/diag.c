/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "asmpass/diag.h"

static void report(const struct diag_loc *at, const char *kind, const char *fmt, va_list ap)
{
	if (at && at->col)
		fprintf(stderr, "%s:%lu:%zu: %s: ", at->file, at->line, at->col, kind);
	else if (at)
		fprintf(stderr, "%s:%lu: %s: ", at->file, at->line, kind);
	else
		fprintf(stderr, "kcfi-as: %s: ", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void diag_error(const struct diag_loc *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(at, "error", fmt, ap);
	va_end(ap);
}

void diag_warning(const struct diag_loc *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(at, "warning", fmt, ap);
	va_end(ap);
}
