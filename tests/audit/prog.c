/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-audit's test program: two checked calls (one a tail call), one
 * call of each exempt kind kcfi-as records, a table of address-taken
 * functions and one taken function defined in target.c. */
typedef int (*unary)(int);
typedef void (*thunk)(void);

int inc(int x) { return x + 1; }
int dbl(int x) { return x * 2; }
int neg(int x) { return -x; }
void nothing(void) {}
extern int ext_target(int);

unary table[] = { inc, dbl, neg, ext_target };
thunk hooks[] = { nothing };

int apply(unary f, int x)
{
	return f(x) + 3;
}

void run(thunk t)
{
	t();
}

__attribute__((no_sanitize("kcfi"))) int raw(unary f, int x)
{
	return f(x) + 1;
}

void via_asm(thunk t)
{
#if defined(__x86_64__) || defined(__i386__)
	asm volatile("call *%0" : : "r"(t) : "memory");
#elif defined(__aarch64__)
	asm volatile("blr %0" : : "r"(t) : "x30", "memory");
#elif defined(__riscv)
	asm volatile("jalr %0" : : "r"(t) : "ra", "memory");
#elif defined(__arm__)
	asm volatile("blx %0" : : "r"(t) : "lr", "memory");
#endif
}

int pick(int x, int y)
{
	switch (x) {
	case 0: return y;
	case 1: return y * 3;
	case 2: return y - 7;
	case 3: return y ^ 5;
	case 4: return y + 11;
	case 5: return y << 2;
	case 6: return y >> 1;
	case 7: return y | 9;
	case 8: return y & 6;
	case 9: return y % 13;
	case 10: return y / 3;
	case 11: return ~y;
	default: return 0;
	}
}
