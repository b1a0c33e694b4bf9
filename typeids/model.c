/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Data models of the targets kcfi-as supports, keyed by triple.
 *
 * Only integer normalization looks at them (the width of long, the
 * signedness of plain char); every other mangling is the same on all five
 * targets: Clang writes `e` for long double whatever its format (80-bit on
 * x86, binary128 on aarch64 and riscv64, double on arm32), and types a
 * target lacks (__int128 on 32-bit targets, __float128 off x86) never reach
 * us from its compiler.
 */
#include "config.h"

#include <string.h>

#include "typeids/typeid.h"

static const struct {
	const char *prefix;	/* of the triple's architecture part */
	struct kcfi_model model;
} models[] = {
	{ "x86_64", { 64, 64, true } },
	{ "i386", { 32, 32, true } },
	{ "i486", { 32, 32, true } },
	{ "i586", { 32, 32, true } },
	{ "i686", { 32, 32, true } },
	{ "aarch64", { 64, 64, false } },
	{ "arm64", { 64, 64, false } },
	{ "riscv64", { 64, 64, false } },
	{ "arm", { 32, 32, false } },	/* arm, armv7l, armhf... (not arm64) */
};

int kcfi_model_for_triple(const char *triple, struct kcfi_model *model)
{
	size_t arch = strcspn(triple, "-");
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		size_t n = strlen(models[i].prefix);
		if (arch < n || memcmp(triple, models[i].prefix, n) != 0)
			continue;
		/* Whole words, except that "arm" takes any suffix (armv7l,
		 * armeb...); "arm64" matched its own entry first. */
		if (arch != n && strcmp(models[i].prefix, "arm") != 0)
			continue;
		*model = models[i].model;
		return 0;
	}
	return -1;
}
