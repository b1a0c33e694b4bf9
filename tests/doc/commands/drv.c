/* SPDX-License-Identifier: GPL-2.0-or-later */
/* drv.c of doc/manual.md -Wkcfi-cast: y's address taken as another type. */
int y(long v) { return (int)v; }
void (*handler)(long) = (void (*)(long))y;
