/* typeid-tool: print the KCFI type id and mangled name of C types.
 *
 *   typeid-tool [options] [TYPE...]
 *
 * Each TYPE (or, without TYPE arguments, each non-blank line of standard
 * input) is a type in the prototype language of doc/directives.md section 4,
 * by default a function type or a pointer to one.  One output line per
 * type:  0x<id> <mangled>[ unprototyped]
 * A type that does not parse gets a message with a caret under the column;
 * the exit status is then 1.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "typeids/typeid.h"

static const char usage[] =
	"usage: %s [options] [TYPE...]\n"
	"Print \"0x<id> <mangled>\" for each TYPE, or each line of standard input.\n"
	"  --hash=fnv1a|xxhash64     hash algorithm (default fnv1a)\n"
	"  --normalize-integers      Clang's -fsanitize-cfi-icall-experimental-normalize-integers\n"
	"  --long=32|64              width of long (default 64)\n"
	"  --ptr=32|64               width of pointers (default 64)\n"
	"  --char=signed|unsigned    signedness of plain char (default signed)\n"
	"  --any-type                accept any type, not only functions\n";

static bool report(const char *prog, const char *where, const char *text, size_t len,
		   const struct kcfi_typeid_opts *opts, bool any_type)
{
	struct kcfi_typeid r;
	struct kcfi_type_error err;
	int rc = any_type ? kcfi_typeid_of_type(text, len, opts, &r, &err)
			  : kcfi_typeid_of_callee(text, len, opts, &r, &err);
	if (rc == 0) {
		printf("0x%08x %s%s\n", (unsigned)r.id, r.mangled,
		       r.unprototyped ? " unprototyped" : "");
		kcfi_typeid_release(&r);
		return true;
	}
	fflush(stdout);
	if (!err.column) {
		fprintf(stderr, "%s: %s: error: %s\n", prog, where, err.message);
		return false;
	}
	/* The text again with a caret under the column; control characters
	 * become spaces so that the caret lines up. */
	fprintf(stderr, "%s: %s:%u: error: %s\n  ", prog, where, err.column, err.message);
	for (size_t i = 0; i < len; i++)
		fputc((unsigned char)text[i] < ' ' ? ' ' : text[i], stderr);
	fprintf(stderr, "\n  %*s^\n", (int)err.column - 1, "");
	return false;
}

int main(int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	struct kcfi_typeid_opts opts = {
		.hash = KCFI_HASH_FNV1A,
		.model = { .ptr_bits = 64, .long_bits = 64, .char_signed = true },
	};
	bool any_type = false;
	int i = 1;
	for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "--hash=fnv1a")) {
			opts.hash = KCFI_HASH_FNV1A;
		} else if (!strcmp(a, "--hash=xxhash64")) {
			opts.hash = KCFI_HASH_XXHASH64;
		} else if (!strcmp(a, "--normalize-integers")) {
			opts.normalize_integers = true;
		} else if (!strcmp(a, "--long=32") || !strcmp(a, "--long=64")) {
			opts.model.long_bits = (unsigned char)atoi(a + 7);
		} else if (!strcmp(a, "--ptr=32") || !strcmp(a, "--ptr=64")) {
			opts.model.ptr_bits = (unsigned char)atoi(a + 6);
		} else if (!strcmp(a, "--char=signed") || !strcmp(a, "--char=unsigned")) {
			opts.model.char_signed = !strcmp(a, "--char=signed");
		} else if (!strcmp(a, "--any-type")) {
			any_type = true;
		} else if (!strcmp(a, "--help")) {
			printf(usage, prog);
			return 0;
		} else {
			fprintf(stderr, "%s: unknown option %s\n", prog, a);
			fprintf(stderr, usage, prog);
			return 2;
		}
	}

	bool ok = true;
	char where[64];
	if (i < argc) {
		for (int n = 1; i < argc; i++, n++) {
			snprintf(where, sizeof(where), "argument %d", n);
			ok &= report(prog, where, argv[i], strlen(argv[i]), &opts, any_type);
		}
		return ok ? 0 : 1;
	}

	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	for (unsigned lineno = 1; (n = getline(&line, &cap, stdin)) >= 0; lineno++) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		if (strspn(line, " \t") == (size_t)n)
			continue;
		snprintf(where, sizeof(where), "<stdin>:%u", lineno);
		ok &= report(prog, where, line, (size_t)n, &opts, any_type);
	}
	free(line);
	return ok ? 0 : 1;
}
