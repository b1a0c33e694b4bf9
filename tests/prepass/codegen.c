/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Functions without indirect calls: the plugin must not change a single
   instruction of them.  Direct calls, libcalls, tail calls, jump tables,
   loops, floating point, block copies, varargs.  */

#include <stdarg.h>
#include <string.h>

struct big { long v[16]; };
extern void consume (struct big *);
extern int ext_leaf (int);
static int ticks;

static __attribute__ ((noinline)) int
helper (int a, int b)
{
  return a * 31 + b;
}

int
tail_direct (int x)
{
  return ext_leaf (x + 1);
}

long
sum_varargs (int n, ...)
{
  va_list ap;
  long s = 0;
  va_start (ap, n);
  while (n--)
    s += va_arg (ap, long);
  va_end (ap);
  return s;
}

double
mix (double a, float b, long long c)
{
  return a / b + (double) c * 0.5;
}

__int128
wide_div (__int128 a, __int128 b)
{
  return a / b;		/* a libcall */
}

void
copy_big (struct big *dst, const struct big *src)
{
  struct big tmp;
  memcpy (&tmp, src, sizeof tmp);
  tmp.v[3] += helper (1, 2);
  *dst = tmp;
  consume (dst);
}

int
table (int k, int *acc)
{
  switch (k)
    {
    case 0: *acc += 3; break;
    case 1: *acc -= 5; break;
    case 2: *acc *= 7; break;
    case 3: *acc ^= 11; break;
    case 4: *acc |= 13; break;
    case 5: *acc &= 17; break;
    default: return -1;
    }
  return ext_leaf (*acc) + helper (k, ticks++);
}

int
loops (const int *a, int n)
{
  int best = 0;
  for (int i = 0; i < n; i++)
    for (int j = i; j < n; j++)
      if (a[i] + a[j] > best)
	best = ext_leaf (a[i] - a[j]);
  return best;
}
