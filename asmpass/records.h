/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text of the records of common/exempt.h: what kcfi-as writes
 * so that kcfi-audit can tell branches left unchecked on purpose, inline
 * assembly and instrumented functions from a lost check. */
#ifndef KCFI_ASMPASS_RECORDS_H
#define KCFI_ASMPASS_RECORDS_H

#include <stdint.h>

#include "asmpass/sink.h"
#include "asmpass/stmt.h"

/* ".Lkcfi_exemptN:", the label records point at. */
void record_label(struct buf *out, unsigned n);
/* One record: START (a label or symbol) to .Lkcfi_exemptEND, reason R, with
 * words of PTR_BITS. */
void record_range(struct buf *out, unsigned ptr_bits, struct slice start, unsigned end,
		  unsigned r);
/* The same from .Lkcfi_exemptSTART. */
void record_exempt(struct buf *out, unsigned ptr_bits, unsigned start, unsigned end,
		   unsigned r);
/* Label N and its record, in front of a branch left unchecked on purpose,
 * for reason R. */
void record_branch(struct buf *out, unsigned ptr_bits, unsigned n, unsigned r);

/* A record of zeros, a unit's first: BFD's DWARF 1 reader, which takes the
 * section for DWARF 1, stops at its zero length (common/exempt.h). */
void record_pad(struct buf *out);

/* The KCFI_TYPE_NAME records, which name the type behind an id for
 * kcfi-audit: BEGIN, one record_type_name() per distinct id and name, END. */
void record_type_names_begin(struct sink *out);
void record_type_name(struct sink *out, uint32_t id, const char *name);
void record_type_names_end(struct sink *out);

/* A KCFI_CONVERSION record: the function's id as the code holds it in the
 * low half of START, the pointer's in the high half, then the seven strings
 * STRS (common/exempt.h) in the records that follow. */
void record_conversion(struct buf *out, uint32_t fn_id, uint32_t ptr_id,
		       const char *const strs[7]);

#endif
