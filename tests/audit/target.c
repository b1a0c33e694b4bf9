/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Defines the function prog.c takes the address of without defining it. */
int ext_target(int x) { return x - 1; }
