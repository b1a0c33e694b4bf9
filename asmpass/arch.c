/* The list of backends.  Adding an architecture: one file in arches/ and one
 * line here. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "asmpass/arch.h"

static const struct kcfi_arch *const backends[] = {
	&arch_x86_64,
	&arch_aarch64,
	&arch_riscv64,
	&arch_arm,
};

const struct kcfi_arch *arch_for_triple(const char *triple, unsigned ptr_bits)
{
	size_t len = strcspn(triple, "-");
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		const struct kcfi_arch *a = backends[i];
		if (!a->serves(triple, len, ptr_bits))
			continue;
		/* Patterns are compiled once per process, on first use. */
		static const struct kcfi_arch *ready[sizeof(backends) / sizeof(backends[0])];
		if (!ready[i]) {
			if (a->init && a->init())
				return NULL;
			ready[i] = a;
		}
		return a;
	}
	return NULL;
}

const struct kcfi_arch *arch_nth(size_t i)
{
	return i < sizeof(backends) / sizeof(backends[0]) ? backends[i] : NULL;
}
