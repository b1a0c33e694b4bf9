/* SPDX-License-Identifier: GPL-2.0-or-later */
/* foo.c of README and doc/manual.md (tests/doc/commands.sh): main calls
 * bar.c's function through a pointer of its type, a checked call. */
int bar(int);
int (*volatile op)(int) = bar;
int main(void)
{
	return op(20) - 21;
}
