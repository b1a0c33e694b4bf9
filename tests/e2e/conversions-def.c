// SPDX-License-Identifier: GPL-2.0-or-later
/* The other unit of tests/e2e/conversions.sh: defines ext with another
 * type than conversions.c declares, and what the program needs. */
long ext(long a) { return a; }
void take(void (*f)(long)) { (void)f; }
int main(void) { return 0; }
