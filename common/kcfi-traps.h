/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The immediates of the trap instructions that name the registers of a
 * failed check, where Linux finds a CFI failure by the trap alone (no
 * .kcfi_traps table): kcfi-as writes them (arches/) and kcfi-audit reads
 * them back (audit/decode-*.c), so both take them from here.  Nothing but
 * constants.
 */
#ifndef KCFI_COMMON_TRAPS_H
#define KCFI_COMMON_TRAPS_H

/* aarch64 "brk #imm" (Linux's asm/brk-imm.h, CFI_BRK_IMM_BASE and the
 * fields its arm64 KCFI handler decodes): the register that held the
 * expected id in bits 5-9, the target's in bits 0-4, bits 10-14 clear. */
#define KCFI_A64_BRK_BASE 0x8000u
#define KCFI_A64_BRK_REG_BITS 0x1fu
#define KCFI_A64_BRK_TYPE_SHIFT 5
#define KCFI_A64_BRK_FIXED_BITS 0xfc00u	/* what must equal KCFI_A64_BRK_BASE */

/* arm "bkpt #imm", ORed with the target register (bits 0-3), as LLVM's udf
 * immediates name it.  Thumb's BKPT has 8 bits; ARM's has 16, where the
 * aarch64 layout fits with expected-id register 31: none. */
#define KCFI_ARM_BKPT_REG_BITS 0xfu
#define KCFI_ARM_BKPT_THUMB 0x80u
#define KCFI_ARM_BKPT_ARM (KCFI_A64_BRK_BASE | KCFI_A64_BRK_REG_BITS << KCFI_A64_BRK_TYPE_SHIFT)

#endif
