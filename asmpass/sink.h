/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Buffered output of the rewritten assembly.
 *
 * Everything kcfi-as produces goes through one sink: to the real assembler's
 * pipe, optionally teed into the --kcfi-save file.  A sink can be switched into
 * "hold" mode, in which output accumulates in memory until the core decides
 * where a function's preamble goes (between the function's alignment and its
 * label); the held bytes are then released in order.
 */
#ifndef KCFI_ASMPASS_SINK_H
#define KCFI_ASMPASS_SINK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "asmpass/stmt.h"

struct buf {
	char *data;
	size_t len, cap;
};

void buf_append(struct buf *b, const void *p, size_t n);
/* Formatted as sink_printf() formats. */
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
void buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_free(struct buf *b);

struct sink {
	int fd;			/* -1: discard (used by the benchmark) */
	int tee_fd;		/* -1: none */
	const char *tee_name;	/* for messages: the --kcfi-save file */
	struct buf out;		/* pending bytes for fd/tee_fd */
	bool holding;
	struct buf held;	/* bytes kept back while holding */
	bool broken;		/* a write failed (the assembler went away) */
};

void sink_init(struct sink *s, int fd, int tee_fd);
void sink_write(struct sink *s, const void *p, size_t n);
void sink_vprintf(struct sink *s, const char *fmt, va_list ap);
void sink_printf(struct sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Output goes to the assembler in chunks of about this size. */
enum { SINK_CHUNK = 256 * 1024 };
char *sink_extend_slow(struct sink *s, size_t n);
/* N more bytes at the end of the output, for the caller to fill before it
 * calls anything else on S.  Every line passes through here: inline for the
 * usual case, where they fit in the chunk being filled.  (">=": a buffer not
 * yet allocated, cap 0, never takes this path, even for N = 0.) */
static inline char *sink_extend(struct sink *s, size_t n)
{
	struct buf *b = &s->out;
	if (s->holding || b->len + n >= b->cap || b->len + n > SINK_CHUNK)
		return sink_extend_slow(s, n);
	char *p = b->data + b->len;
	b->len += n;
	return p;
}
/* Write the N slices of V one after the other.  For the lines kcfi-as writes
 * once per directive (type-id symbols, line markers): tens of thousands in a
 * large TU, and putting pieces together costs a fraction of formatting.
 * Inline, with its loops unrolled, so that a caller's array of literal pieces
 * is copied with stores rather than a memcpy call a piece. */
static inline void sink_join(struct sink *s, const struct slice *v, size_t n)
{
	size_t len = 0;
#pragma GCC unroll 16
	for (size_t i = 0; i < n; i++)
		len += v[i].n;
	char *o = sink_extend(s, len);
#pragma GCC unroll 16
	for (size_t i = 0; i < n; i++) {
		memcpy(o, v[i].p, v[i].n);
		o += v[i].n;
	}
}
/* V in decimal, written at the end of BUF (DECIMAL_MAX bytes): returns
 * the digits, a slice of BUF. */
enum { DECIMAL_MAX = 20 };
struct slice put_decimal(char *buf, unsigned long v);
/* Start holding; later writes go to the held buffer. */
void sink_hold(struct sink *s);
/* Offset the next write will have inside the held buffer. */
size_t sink_held_len(const struct sink *s);
/* Stop holding: emit held[0..at), then call INSERT (which writes normally),
 * then held[at..).  INSERT may be NULL. */
void sink_release(struct sink *s, size_t at,
		  void (*insert)(void *ctx), void *ctx);
/* Write out everything buffered; returns -1 if the output is broken. */
int sink_flush(struct sink *s);
void sink_free(struct sink *s);

#endif
