/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The called unit. */
#include "units.h"

int ticks;

int add_one(int v) { return v + 1; }
int sum(int a, int b) { return a + b; }
int scale(SCALE_ARG v) { return (int)v * 3; }
int load(int *const p) { return *p; }
unsigned long measure(const char *s, struct span *sp)
{
	unsigned long n = 0;
	while (s[n])
		n++;
	sp->text = s;
	sp->len = n;
	return n;
}
void tick(void) { ticks++; }
int load_int(int *p) { return *p; }
int load_uint(unsigned *p) { return (int)*p; }
int load_ulong(unsigned long *p) { return (int)*p; }
