/* targets.c: --targets. */
#ifndef KCFI_AUDIT_TARGETS_H
#define KCFI_AUDIT_TARGETS_H

#include "audit/audit.h"

struct targets_opts {
	const char *csv, *json, *plot;
	size_t top;			/* how many permissive ids to list */
};

int targets_report(struct audit_file *f, const struct targets_opts *o);

#endif
