/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-gcc -S: cc1 under GCC's -wrapper, its output rewritten by kcfi-as. */
#ifndef KCFI_FINISH_ASM_H
#define KCFI_FINISH_ASM_H

/* The first option of kcfi-gcc's command line that selects this mode. */
#define FINISH_ASM_OPTION "--kcfi-finish-asm"

/* kcfi-gcc --kcfi-finish-asm --kcfi-as=PATH [--kcfi-...] PROGRAM ARGS...:
 * runs PROGRAM; when it is the compiler proper writing assembly to -o FILE,
 * has kcfi-as rewrite FILE into finished assembly.  Returns the exit code. */
int finish_asm_main(int argc, char **argv);

#endif
