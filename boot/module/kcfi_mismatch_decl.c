// SPDX-License-Identifier: GPL-2.0-only
/*
 * The other unit of the kcfi_mismatch module: defines kcfi_mm_decl_target
 * with one parameter, where kcfi_mismatch_calls.c declares it with two (the
 * decl kind: each unit compiles cleanly, the two disagree).  It reads no
 * argument as a pointer: a call with two arguments is harmless.
 */
#include <linux/compiler.h>

int kcfi_mm_decl_target(int *p);

int kcfi_mm_decl_target(int *p)	/* TARGET: decl */
{
	return p != NULL;
}
