/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checked calls in functions that ask for indirect_branch("keep"), as
   Linux's __init code does under GCC with retpolines.  */
typedef int (*hook_t)(int);
extern hook_t hook;

__attribute__((indirect_branch("keep"), section(".init.text")))
int setup_call(int x)
{
	return hook(x) + 1;
}

__attribute__((indirect_branch("keep")))
int setup_tail(int x)
{
	return hook(x);
}

__attribute__((indirect_branch("keep"), no_sanitize("kcfi")))
int setup_unchecked(int x)
{
	return hook(x) + 3;
}

int ordinary_call(int x)
{
	return hook(x) + 2;
}
