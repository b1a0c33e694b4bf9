/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Buffered output; see sink.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asmpass/sink.h"

/* Make room for N more bytes in B. */
static void buf_room(struct buf *b, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n)
			cap *= 2;
		char *d = realloc(b->data, cap);
		if (!d) {
			fputs("kcfi-as: out of memory\n", stderr);
			exit(1);
		}
		b->data = d;
		b->cap = cap;
	}
}

void buf_append(struct buf *b, const void *p, size_t n)
{
	if (!n)
		return;
	buf_room(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void sink_init(struct sink *s, int fd, int tee_fd)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->tee_fd = tee_fd;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Write to the --kcfi-save file; after a failure (named once), no more. */
static void tee_write(struct sink *s, const void *p, size_t n)
{
	if (s->tee_fd >= 0 && write_all(s->tee_fd, p, n)) {
		fprintf(stderr, "kcfi-as: error writing to %s: %s\n",
			s->tee_name ? s->tee_name : "--kcfi-save", strerror(errno));
		s->tee_fd = -1;
		s->broken = true;
	}
}

int sink_flush(struct sink *s)
{
	if (s->out.len) {
		if (s->fd >= 0 && !s->broken && write_all(s->fd, s->out.data, s->out.len))
			s->broken = true;
		tee_write(s, s->out.data, s->out.len);
		s->out.len = 0;
	}
	return s->broken ? -1 : 0;
}

/* sink_extend() when the bytes go to the held buffer, or need a flush or a
 * larger buffer first. */
char *sink_extend_slow(struct sink *s, size_t n)
{
	struct buf *b = s->holding ? &s->held : &s->out;
	if (!s->holding && s->out.len + n > SINK_CHUNK)
		sink_flush(s);
	buf_room(b, n);
	char *p = b->data + b->len;
	b->len += n;
	return p;
}

void sink_write(struct sink *s, const void *p, size_t n)
{
	if (!s->holding && n > SINK_CHUNK) {
		/* A huge line: hand it over without another copy. */
		sink_flush(s);
		if (s->fd >= 0 && !s->broken && write_all(s->fd, p, n))
			s->broken = true;
		tee_write(s, p, n);
		return;
	}
	if (n)
		memcpy(sink_extend(s, n), p, n);
}

struct slice put_decimal(char *buf, unsigned long v)
{
	/* Two digits a step: half the divisions. */
	static const char pairs[] =
		"00010203040506070809"
		"10111213141516171819"
		"20212223242526272829"
		"30313233343536373839"
		"40414243444546474849"
		"50515253545556575859"
		"60616263646566676869"
		"70717273747576777879"
		"80818283848586878889"
		"90919293949596979899";
	char *p = buf + DECIMAL_MAX;
	for (; v >= 100; v /= 100) {
		p -= 2;
		memcpy(p, pairs + 2 * (v % 100), 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	return (struct slice){ p, (size_t)(buf + DECIMAL_MAX - p) };
}

/* V in decimal at D; returns the number of digits. */
static size_t put_number(char *d, unsigned long v)
{
	char buf[DECIMAL_MAX];
	struct slice digits = put_decimal(buf, v);
	memcpy(d, digits.p, digits.n);
	return digits.n;
}

/* The conversions kcfi-as's own lines use (%s %.*s %u %d %lu %%), formatted
 * without stdio: emitting a check is a dozen lines, on the per-line path.
 * Returns the length, or -1 if FMT needs more (or TMP is too small), in which
 * case the caller formats it with vsnprintf. */
static long fast_format(char *tmp, size_t cap, const char *fmt, va_list ap)
{
	size_t n = 0;
	for (const char *f = fmt; *f; f++) {
		if (n + 24 > cap)
			return -1;
		if (*f != '%') {
			tmp[n++] = *f;
			continue;
		}
		const char *str = NULL;
		size_t len = 0;
		switch (*++f) {
		case '%':
			tmp[n++] = '%';
			continue;
		case 'u':
			n += put_number(tmp + n, va_arg(ap, unsigned));
			continue;
		case 'd': {
			int v = va_arg(ap, int);
			if (v < 0)
				tmp[n++] = '-';
			n += put_number(tmp + n, v < 0 ? 0ul - (unsigned long)(long)v : (unsigned long)v);
			continue;
		}
		case 'l':
			if (f[1] != 'u')
				return -1;
			f++;
			n += put_number(tmp + n, va_arg(ap, unsigned long));
			continue;
		case 's':
			str = va_arg(ap, const char *);
			len = strlen(str);
			break;
		case '.':
			if (f[1] != '*' || f[2] != 's')
				return -1;
			f += 2;
			len = (size_t)va_arg(ap, int);
			str = va_arg(ap, const char *);
			break;
		default:
			return -1;
		}
		if (n + len + 24 > cap)
			return -1;
		memcpy(tmp + n, str, len);
		n += len;
	}
	return (long)n;
}

/* FMT with AP, handed to PUT(DST, bytes, n). */
static void vformat(void (*put)(void *, const void *, size_t), void *dst,
		    const char *fmt, va_list ap)
{
	char tmp[512];
	va_list aq;
	va_copy(aq, ap);
	long fast = fast_format(tmp, sizeof(tmp), fmt, aq);
	va_end(aq);
	if (fast >= 0) {
		put(dst, tmp, (size_t)fast);
		return;
	}
	va_copy(aq, ap);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		put(dst, tmp, (size_t)n);
		return;
	}
	/* Only symbol names can make a line this long; rare enough to allocate. */
	char *big = malloc((size_t)n + 1);
	if (!big) {
		fputs("kcfi-as: out of memory\n", stderr);
		exit(1);
	}
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	put(dst, big, (size_t)n);
	free(big);
}

static void put_sink(void *s, const void *p, size_t n)
{
	sink_write(s, p, n);
}

static void put_buf(void *b, const void *p, size_t n)
{
	buf_append(b, p, n);
}

void sink_vprintf(struct sink *s, const char *fmt, va_list ap)
{
	vformat(put_sink, s, fmt, ap);
}

void sink_printf(struct sink *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sink_vprintf(s, fmt, ap);
	va_end(ap);
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	vformat(put_buf, b, fmt, ap);
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void sink_hold(struct sink *s)
{
	s->holding = true;
	s->held.len = 0;
}

size_t sink_held_len(const struct sink *s)
{
	return s->held.len;
}

void sink_release(struct sink *s, size_t at, void (*insert)(void *ctx), void *ctx)
{
	s->holding = false;
	if (at > s->held.len)
		at = s->held.len;
	sink_write(s, s->held.data, at);
	if (insert)
		insert(ctx);
	sink_write(s, s->held.data + at, s->held.len - at);
	s->held.len = 0;
}

void sink_free(struct sink *s)
{
	buf_free(&s->out);
	buf_free(&s->held);
}
