/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One checked indirect call, for -ffixed-REG / -fcall-saved-REG and
 * -DGLOBAL_REG='"REG"' (a global register variable that must survive the
 * call).  Prints 42 and exits 0 when everything kept its value.
 * Used natively (tests/e2e/regs.sh) and by the cross tests. */
#include <stdio.h>

#ifdef GLOBAL_REG
register long keep __asm__(GLOBAL_REG);
#endif

__attribute__((noinline)) static long twice(long x)
{
	return 2 * x;
}
long (*volatile fp)(long) = twice;

int main(void)
{
#ifdef GLOBAL_REG
	keep = 4242;
#endif
	long r = fp(21);
#ifdef GLOBAL_REG
	if (keep != 4242)
		return 2;
#endif
	printf("%ld\n", r);
	return r != 42;
}
