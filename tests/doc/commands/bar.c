/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bar.c: the other unit of "kcfi-gcc -o prog foo.o bar.o". */
int bar(int x)
{
	return x + 1;
}
