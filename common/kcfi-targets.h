/* What the plugin (prepass/, C++) and kcfi-as (C) must agree on, per
 * target and for the protocol between them: written once, here, so that the
 * two halves cannot drift apart.  Nothing but constants, valid C and C++. */
#ifndef KCFI_COMMON_TARGETS_H
#define KCFI_COMMON_TARGETS_H

/* The .kcfi_* protocol (doc/directives.md) the plugin writes and kcfi-as
 * reads; kcfi-as refuses any other. */
#define KCFI_PROTOCOL_VERSION 1

/* Statements one check takes where the assembler does not relax branches,
 * in the unit GCC sizes an asm statement by: each .kcfi_call reserves that
 * many by default (doc/directives.md 3.3), and kcfi-as refuses a call
 * site that reserved fewer, since the compiler's branch ranges would then
 * be wrong.  0: the assembler relaxes branches (x86), nothing to reserve. */
#define KCFI_CHECK_STATEMENTS_X86_64 0
#define KCFI_CHECK_STATEMENTS_AARCH64 6
#define KCFI_CHECK_STATEMENTS_RISCV64 5
#define KCFI_CHECK_STATEMENTS_ARM 10	/* up to ten 4-byte statements, either state */

/* Extern stubs (doc/extern-stubs.md): the plugin points a unit's uses of
 * NAME at this prefix + NAME, kcfi-as defines it. */
#define KCFI_STUB_PREFIX "__kcfi_stub_"

#endif
