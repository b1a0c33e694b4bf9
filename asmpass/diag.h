/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Diagnostics in the form editors and build logs understand:
 *	file:line[:col]: error: message */
#ifndef KCFI_ASMPASS_DIAG_H
#define KCFI_ASMPASS_DIAG_H

#include <stddef.h>

struct diag_loc {
	const char *file;
	unsigned long line;
	size_t col;		/* 0: no column */
};

void diag_error(const struct diag_loc *at, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void diag_warning(const struct diag_loc *at, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
