/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PCRE2 helpers shared by the arch backends: they describe instruction
 * operand shapes as patterns, compiled (and JIT-compiled) once per process. */
#ifndef KCFI_ASMPASS_PATTERN_H
#define KCFI_ASMPASS_PATTERN_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Compile PATTERN for backend ARCH; NULL (reported) if it does not compile. */
pcre2_code *pattern_compile(const char *arch, const char *pattern);
/* The number of the named group NAME of RE. */
uint32_t pattern_group_number(pcre2_code *re, const char *name);
/* Group G of the last match of S (ovector OV): true and *P, *N if it matched. */
bool pattern_group(const PCRE2_SIZE *ov, uint32_t g, const char *s, const char **p, size_t *n);

/* The same, copied to DST (SIZE bytes, NUL-terminated) in lower case; false
 * if it did not match or does not fit. */
bool pattern_group_lower(const PCRE2_SIZE *ov, uint32_t g, const char *s, char *dst, size_t size);

#endif
