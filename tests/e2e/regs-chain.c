/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A call through a checked pointer that passes a static chain
 * (__builtin_call_with_static_chain).  The target returns its static chain
 * register plus its argument: 0x1234 when the chain arrived intact.
 * -DNOSAN makes the call from a no_sanitize("kcfi") function (unchecked);
 * -DMISMATCH calls through a pointer of another type, which must trap.
 * Used natively (tests/e2e/regs.sh) and by the cross tests. */
#include <stdio.h>

#if defined(__x86_64__)
#define CHAIN "r10"
#elif defined(__aarch64__)
#define CHAIN "x18"
#elif defined(__riscv)
#define CHAIN "t2"
#elif defined(__arm__)
#define CHAIN "ip"
#endif

__attribute__((noinline)) long target(long x)
{
	register long chain __asm__(CHAIN);
	/* What the register holds on entry: nothing ran before this. */
	__asm__ volatile("" : "=r"(chain));
	return chain + x;
}

#ifdef MISMATCH
long (*volatile fp)(int) = (long (*)(int))target;
#else
long (*volatile fp)(long) = target;
#endif

#ifdef NOSAN
__attribute__((no_sanitize("kcfi")))
#endif
__attribute__((noinline)) long call(long chain)
{
	return __builtin_call_with_static_chain(fp(1), (void *)chain);
}

int main(void)
{
	long r = call(0x1233);
	printf("%#lx\n", (unsigned long)r);
	return r != 0x1234;
}
