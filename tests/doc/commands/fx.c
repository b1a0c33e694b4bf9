/* SPDX-License-Identifier: GPL-2.0-or-later */
void call(void (*f)(void)) { f(); }
