/* SPDX-License-Identifier: GPL-2.0-or-later */
/* See pattern.h. */
#include "config.h"

#include <stdio.h>

#include "asmpass/pattern.h"
#include "asmpass/stmt.h"

pcre2_code *pattern_compile(const char *arch, const char *pattern)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
				       PCRE2_NO_UTF_CHECK, &err, &off, NULL);
	if (!re) {
		PCRE2_UCHAR msg[120];
		pcre2_get_error_message(err, msg, sizeof(msg));
		fprintf(stderr, "kcfi-as: %s pattern: %s at %zu\n", arch, (char *)msg, (size_t)off);
		return NULL;
	}
	/* The JIT is an optimisation; the interpreter gives the same answers. */
	(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	return re;
}

uint32_t pattern_group_number(pcre2_code *re, const char *name)
{
	return (uint32_t)pcre2_substring_number_from_name(re, (PCRE2_SPTR)name);
}

bool pattern_group(const PCRE2_SIZE *ov, uint32_t g, const char *s, const char **p, size_t *n)
{
	if (ov[2 * g] == PCRE2_UNSET)
		return false;
	*p = s + ov[2 * g];
	*n = ov[2 * g + 1] - ov[2 * g];
	return true;
}

bool pattern_group_lower(const PCRE2_SIZE *ov, uint32_t g, const char *s, char *dst, size_t size)
{
	const char *p;
	size_t n;
	if (!pattern_group(ov, g, s, &p, &n) || n >= size)
		return false;
	for (size_t i = 0; i < n; i++)
		dst[i] = ascii_lower(p[i]);
	dst[n] = '\0';
	return true;
}
