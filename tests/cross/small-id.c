/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Prints "sN ID" for the first struct tag sN whose type void (struct sN *)
 * has an FNV-1a id with no upper 20 bits for lui (riscv: the id is in
 * [0, 0x7ff] or [0xfffff800, 0xffffffff]), computed independently of
 * kcfi-as.  Clang 22 builds such an id with "addi t2, t2, lo" from a stale
 * t2; the tests check that kcfi-as does not. */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char name[32], s[64];
	for (unsigned long i = 0;; i++) {
		unsigned h = 2166136261u;
		snprintf(name, sizeof(name), "s%lu", i);
		snprintf(s, sizeof(s), "_ZTSFvP%zu%sE", strlen(name), name);
		for (const char *p = s; *p; p++)
			h = (h ^ (unsigned char)*p) * 16777619u;
		if (!(((h + 0x800u) >> 12) & 0xfffffu)) {
			printf("%s %u\n", name, h);
			return 0;
		}
	}
}
