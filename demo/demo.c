/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kcfi-as demo: one indirect call whose pointer type matches its target,
 * and one whose target has a different prototype.  Built with
 * `kcfi-gcc -fsanitize=kcfi`, the first runs and the second stops at a KCFI
 * trap (SIGILL on x86_64) instead of calling a function of the wrong type. */
#include <stdio.h>

static int events;

__attribute__((noinline)) static void record(int *count)
{
	++*count;
}

__attribute__((noinline)) static int record_and_report(int *count)
{
	return ++*count;
}

/* All this function knows is that HANDLER takes an int * and returns nothing;
 * KCFI checks that the target was defined with exactly that prototype. */
__attribute__((noipa)) static void dispatch(void (*handler)(int *))
{
	handler(&events);
}

int main(void)
{
	dispatch(record);
	printf("matched call:    void (*)(int *) -> record(int *): ran, events = %d\n", events);
	fflush(stdout);

	/* The cast launders an int (int *) function into a void (int *) pointer. */
	dispatch((void (*)(int *))(void *)record_and_report);
	printf("mismatched call: NOT caught, events = %d\n", events);
	return 1;
}
