/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text of the records of common/exempt.h; see records.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "common/exempt.h"
#include "asmpass/records.h"

/* Every record goes in through this: the section, 8-byte aligned. */
#define RECORDS_OPEN "\t.pushsection\t" KCFI_EXEMPT_SECTION ",\"\",%%progbits\n\t.balign\t8\n"

void record_label(struct buf *out, unsigned n)
{
	buf_printf(out, ".Lkcfi_exempt%u:\n", n);
}

/* A 32-bit target has no 64-bit absolute relocation (arm: .quad of a symbol
 * does not assemble), so there each word is the 32-bit value and a zero
 * upper half. */
void record_range(struct buf *out, unsigned ptr_bits, struct slice start, unsigned end,
		  unsigned r)
{
	const char *w = ptr_bits == 32 ? "long" : "quad";
	const char *hi = ptr_bits == 32 ? ", 0" : "";
	buf_printf(out, RECORDS_OPEN "\t.%s\t%.*s%s, .Lkcfi_exempt%u%s, %u%s\n\t.popsection\n",
		   w, (int)start.n, start.p, hi, end, hi, r, hi);
}

void record_exempt(struct buf *out, unsigned ptr_bits, unsigned start, unsigned end,
		   unsigned r)
{
	char label[32];
	int n = snprintf(label, sizeof(label), ".Lkcfi_exempt%u", start);
	record_range(out, ptr_bits, (struct slice){ label, (size_t)n }, end, r);
}

void record_branch(struct buf *out, unsigned ptr_bits, unsigned n, unsigned r)
{
	record_label(out, n);
	record_exempt(out, ptr_bits, n, n, r);
}

void record_pad(struct buf *out)
{
	buf_printf(out, RECORDS_OPEN "\t.zero\t%d\n\t.popsection\n", KCFI_EXEMPT_RECORD_SIZE);
}

/* LEN bytes of S for .ascii: mangled names and symbols go as they are,
 * anything else (a file name's quote, a byte above 0x7e) as an escape. */
static void put_ascii(struct buf *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char u = (unsigned char)s[i];
		if (u >= 0x20 && u < 0x7f && u != '"' && u != '\\')
			buf_append(out, s + i, 1);
		else
			buf_printf(out, "\\%03o", u);
	}
}

void record_conversion(struct buf *out, uint32_t fn_id, uint32_t ptr_id,
		       const char *const strs[7])
{
	size_t len = 0;
	for (int i = 0; i < 7; i++)
		len += strlen(strs[i]) + 1;
	size_t recs = (len + KCFI_EXEMPT_RECORD_SIZE - 1) / KCFI_EXEMPT_RECORD_SIZE;
	buf_printf(out, RECORDS_OPEN "\t.quad\t%llu, %zu, %u\n\t.ascii\t\"",
		   (unsigned long long)ptr_id << 32 | fn_id, recs, (unsigned)KCFI_CONVERSION);
	for (int i = 0; i < 7; i++) {
		put_ascii(out, strs[i], strlen(strs[i]));
		buf_printf(out, "\\000");
	}
	buf_printf(out, "\"\n");
	if (recs * KCFI_EXEMPT_RECORD_SIZE > len)
		buf_printf(out, "\t.zero\t%zu\n", recs * KCFI_EXEMPT_RECORD_SIZE - len);
	buf_printf(out, "\t.popsection\n");
}

void record_type_names_begin(struct sink *out)
{
	sink_printf(out, RECORDS_OPEN);
}

void record_type_name(struct sink *out, uint32_t id, const char *name)
{
	size_t len = strlen(name), recs = KCFI_TYPE_NAME_RECORDS(len);
	sink_printf(out, "\t.quad\t%u, %zu, %u\n\t.ascii\t\"", (unsigned)id, recs,
		    (unsigned)KCFI_TYPE_NAME);
	/* Mangled names are [A-Za-z0-9_.]; anything else is escaped rather
	 * than trusted to the assembler's string syntax. */
	for (const char *c = name; *c; c++) {
		unsigned char u = (unsigned char)*c;
		if (u >= 0x20 && u < 0x7f && u != '"' && u != '\\')
			sink_printf(out, "%c", u);
		else
			sink_printf(out, "\\%03o", u);
	}
	sink_printf(out, "\"\n\t.zero\t%zu\n", recs * KCFI_EXEMPT_RECORD_SIZE - len);
}

void record_type_names_end(struct sink *out)
{
	sink_printf(out, "\t.popsection\n");
}
