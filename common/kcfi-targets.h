/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the plugin (prepass/, C++) and kcfi-as (C) must agree on, per
 * target and for the protocol between them: written once, here, so that the
 * two halves cannot drift apart.  Nothing but constants, valid C and C++. */
#ifndef KCFI_COMMON_TARGETS_H
#define KCFI_COMMON_TARGETS_H

/* The .kcfi_* protocol (doc/directives.md) the plugin writes and kcfi-as
 * reads; kcfi-as refuses any other. */
#define KCFI_PROTOCOL_VERSION 1

/* The directives of that protocol, by name.  Every one starts with
 * KCFI_DIRECTIVE_PREFIX: kcfi-as looks for it (and nothing else) to tell
 * a protocol line from any other (grammar/asmline.l's flex pattern spells
 * it out too, as flex patterns cannot use macros). */
#define KCFI_DIRECTIVE_PREFIX ".kcfi_"
#define KCFI_DIRECTIVE_PREFIX_LEN (sizeof(KCFI_DIRECTIVE_PREFIX) - 1)
#define KCFI_DIR_VERSION ".kcfi_version"
#define KCFI_DIR_TYPE ".kcfi_type"
#define KCFI_DIR_FUNC ".kcfi_func"
#define KCFI_DIR_EXTERN ".kcfi_extern"
#define KCFI_DIR_CALL ".kcfi_call"
#define KCFI_DIR_CALL_UNCHECKED ".kcfi_call_unchecked"
#define KCFI_DIR_CALL_DIRECT ".kcfi_call_direct"
#define KCFI_DIR_BRANCH_NOCALL ".kcfi_branch_nocall"
#define KCFI_DIR_REQUIRE_PLUGIN ".kcfi_require_plugin"
#define KCFI_DIR_TYPEINFO ".kcfi_typeinfo"
#define KCFI_DIR_RESERVED ".kcfi_reserved"
#define KCFI_DIR_STUB_ALIAS ".kcfi_stub_alias"
#define KCFI_DIR_CONVERSION ".kcfi_conversion"

/* .kcfi_func NAME, ID, arity=N: N general registers carry the function's
 * arguments, KCFI_ARITY_STACK when some arrive on the stack (x86_64's
 * preamble says which, for FineIBT-BHI; doc/abi.md 1). */
#define KCFI_KEY_ARITY "arity"
#define KCFI_ARITY_STACK 7

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
