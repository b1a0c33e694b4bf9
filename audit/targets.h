/* SPDX-License-Identifier: GPL-2.0-or-later */
/* targets.c: --targets. */
#ifndef KCFI_AUDIT_TARGETS_H
#define KCFI_AUDIT_TARGETS_H

#include "audit/audit.h"

struct targets_opts {
	const char *csv, *json, *plot;
	size_t top;			/* how many permissive ids to list */
	const char *names_from;		/* --names-from: a build that lends its names */
};

int targets_report(struct audit_file *f, const struct targets_opts *o);

#endif
