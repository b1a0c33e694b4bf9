/* SPDX-License-Identifier: GPL-2.0-or-later */
/* call.c of doc/manual.md: one checked call, through a pointer to twice. */
static int twice(int x) { return 2 * x; }
int (*volatile fp)(int) = twice;
int main(void) { return fp(21) - 42; }
