/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Instruction forms for the decoders that compare words by hand
 * (audit/decode-aarch64.c, -riscv64.c, -arm.c): each named after the
 * instruction it is, so that a test reads as what it looks for. */
#ifndef KCFI_AUDIT_INSN_FORM_H
#define KCFI_AUDIT_INSN_FORM_H

#include <stdbool.h>
#include <stdint.h>

/* The instructions whose bits under MASK are BITS. */
struct form {
	uint32_t mask, bits;
};

static inline bool form_is(uint32_t w, struct form f)
{
	return (w & f.mask) == f.bits;
}

/* WIDTH bits of W from bit LO up: a register or immediate field. */
static inline unsigned field(uint32_t w, unsigned lo, unsigned width)
{
	return (unsigned)(w >> lo) & ((1u << width) - 1);
}

#endif
