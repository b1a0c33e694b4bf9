/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding and running the real GNU assembler. */
#ifndef KCFI_ASMPASS_GAS_H
#define KCFI_ASMPASS_GAS_H

#include <stdbool.h>
#include <sys/types.h>

/* The real assembler: EXPLICIT (--kcfi-real-as), else $KCFI_REAL_AS, else
 * NAME searched in $PATH, skipping kcfi-as itself (it is installed as `as`
 * in a -B directory).  Returns a malloc'd path or NULL (reported). */
char *gas_locate(const char *explicit_path, const char *name);

/* Start ARGV[0]=PATH with its stdin connected to a pipe; *TO_GAS receives
 * the write end.  Returns the pid or -1 (reported). */
pid_t gas_spawn(const char *path, char *const argv[], int *to_gas);

/* Where the rewritten text goes when gas runs only after the rewrite is
 * done: an anonymous in-memory file, or -1 when the inputs are too large
 * to hold (INPUT_BYTES over the limit) or the kernel has no memfd_create.
 * gas_become() then replaces this process by gas reading that file. */
int gas_buffer(unsigned long long input_bytes);

/* Become ARGV[0]=PATH reading BUFFER (from gas_buffer) on stdin.  Returns
 * only on failure (reported), with an exit status. */
int gas_become(const char *path, char *const argv[], int buffer);

/* Wait for PID; returns an exit status in the shell's convention. */
int gas_wait(pid_t pid);

/* Stop PID now: our input was rejected, its output must not survive. */
void gas_kill(pid_t pid);

#endif
