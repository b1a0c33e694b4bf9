/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer harness for the assembler pass (kcfi-as without gas), built with
 * -fsanitize=fuzzer,address,undefined by `make fuzz-asm`.
 *
 * Input: one mode byte, then assembly text.
 *   bits 0-1, 6  backend: the ((bit 6 << 2 | bits 0-1) % count)-th entry of
 *             the registry in asmpass/arch.c, so that up to eight backends
 *             registered there are fuzzed without touching this file
 *   bits 2-3  prefix= of the .kcfi_version line: 0, 1, 4 or 11 NOPs
 *   bit 4     --kcfi-hash=xxhash64      bit 5  --kcfi-normalize-integers
 *   bit 6     also --kcfi-cs-prefix (which only x86_64 reads)
 *   bit 7     raw: no .kcfi_version line is prepended, the text is fed as is
 * Otherwise the harness puts "\t.kcfi_version 1, "<backend>-linux-gnu", ..."
 * in front, with the pointer width the backend serves, so that mutations
 * reach the instrumented paths at once.
 *
 * Beyond what the sanitizers catch, two properties of kcfi-as are checked on
 * every accepted input (a violation aborts, which libFuzzer reports):
 *  - without .kcfi_version the output is the input, byte for byte;
 *  - with it, no .kcfi_ directive survives into the assembler's input.
 */
#define _GNU_SOURCE
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "asmpass/arch.h"
#include "asmpass/sink.h"
#include "asmpass/tu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static int out_fd = -1;		/* memfd: what gas would have read */
static char *input;		/* header + text, reused */
static size_t input_cap;
static char *output;
static size_t output_cap;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	out_fd = memfd_create("kcfi-as-fuzz-out", MFD_CLOEXEC);
	if (out_fd < 0) {
		perror("memfd_create");
		abort();
	}
	return 0;
}

static size_t backend_count(void)
{
	size_t n = 0;
	while (arch_nth(n))
		n++;
	return n;
}

static void grow(char **p, size_t *cap, size_t need)
{
	if (need <= *cap)
		return;
	*p = realloc(*p, need);
	if (!*p)
		abort();
	*cap = need;
}

/* Everything written to OUT_FD since the last reset; sets *LEN. */
static const char *read_output(size_t *len)
{
	off_t n = lseek(out_fd, 0, SEEK_END);
	if (n < 0)
		abort();
	grow(&output, &output_cap, (size_t)n + 1);
	if (pread(out_fd, output, (size_t)n, 0) != n)
		abort();
	*len = (size_t)n;
	return output;
}

static bool has_kcfi_line(const char *p, size_t n)
{
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(p + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - p) : n;
		size_t j = i;
		while (j < end && (p[j] == ' ' || p[j] == '\t'))
			j++;
		if (end - j >= 6 && !memcmp(p + j, ".kcfi_", 6))
			return true;
		i = end + 1;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned mode = data[0];
	const char *text = (const char *)data + 1;
	size_t len = size - 1;

	static const unsigned prefixes[] = { 0, 1, 4, 11 };
	size_t nb = backend_count();
	const struct kcfi_arch *a = arch_nth(((mode & 3) | (mode >> 4 & 4)) % nb);
	unsigned bits = a->serves(a->name, strlen(a->name), 64) ? 64 : 32;
	char header[160];
	int hn = 0;
	if (!(mode & 0x80))
		hn = snprintf(header, sizeof(header),
			      "\t.kcfi_version 1, \"%s-linux-gnu\", ptr=%u, long=%u, "
			      "char=signed, prefix=%u\n", a->name, bits, bits, prefixes[(mode >> 2) & 3]);
	grow(&input, &input_cap, (size_t)hn + len + 1);
	memcpy(input, header, (size_t)hn);
	memcpy(input + hn, text, len);
	size_t n = (size_t)hn + len;

	struct kcfi_options opts = {
		.hash = (mode & 0x10) ? KCFI_HASH_XXHASH64 : KCFI_HASH_FNV1A,
		.normalize_integers = (mode & 0x20) != 0,
		.cs_prefix = (mode & 0x40) != 0,
	};
	if (ftruncate(out_fd, 0) || lseek(out_fd, 0, SEEK_SET) < 0)
		abort();
	struct sink out;
	sink_init(&out, out_fd, -1);
	struct tu *t = tu_new(&opts, &out);
	int rc = tu_feed_mem(t, input, n, "fuzz.s");
	if (!rc)
		rc = tu_finish(t);
	bool instrumented = tu_instrumented(t);
	if (sink_flush(&out))
		abort();
	tu_free(t);
	sink_free(&out);

	if (!rc) {
		size_t olen;
		const char *o = read_output(&olen);
		if (!instrumented && (olen != n || memcmp(o, input, n))) {
			fprintf(stderr, "asm-fuzz: uninstrumented input was changed\n");
			abort();
		}
		if (instrumented && has_kcfi_line(o, olen)) {
			fprintf(stderr, "asm-fuzz: a .kcfi_ directive reached the assembler\n");
			abort();
		}
	}
	return 0;
}
