/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-typeid: the KCFI type id of a C type, as kcfi-as and Clang compute it.
 *
 * For kernel developers chasing a CFI failure ("which prototype has id
 * 0x1234abcd?"), for assembly that needs an id by hand, and for scripts.
 * The text of --help is the manual.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "typeids/typeid.h"
#include "tools/kcfi-typeid-opts.h"

static const char manual_head[] =
	"NAME\n"
	"    kcfi-typeid - print the KCFI type id of C types\n"
	"\n"
	"SYNOPSIS\n"
	"    kcfi-typeid [--target=TRIPLE] [--hash=fnv1a|xxhash64]\n"
	"                [--normalize-integers] [--generalize-pointers]\n"
	"                [--] ['TYPE'...]\n"
	"\n"
	"DESCRIPTION\n"
	"    For each TYPE argument, or without arguments for each non-blank line of\n"
	"    standard input, prints one line\n"
	"\n"
	"        0xID MANGLED\n"
	"\n"
	"    MANGLED is the Itanium-style type name that is hashed (\"_ZTSFvP7taskletE\")\n"
	"    and ID its 32-bit hash, as kcfi-as puts it in preambles and checks and as\n"
	"    Clang's -fsanitize=kcfi computes it.  On x86 an ID equal to an ENDBR\n"
	"    encoding is used plus one in code; the line then ends in \"(x86: 0xID+1)\".\n"
	"    An unprototyped function type (\"int ()\") ends in \"unprototyped\": calls\n"
	"    through it are not checked.\n"
	"\n"
	"    TYPE is a C type name as written in a cast: \"void (*)(struct tasklet *)\",\n"
	"    \"int (const char *, ...)\", \"struct foo\".  A function type, or a pointer\n"
	"    to one, gives the id an indirect call through such a pointer checks.  Any\n"
	"    other type gives what __builtin_linux_abi_kcfi_name/_hash return for it.\n"
	"    Typedef names are not known: write struct/union/enum tags, and a typedef\n"
	"    of an anonymous struct as \"struct TYPEDEF_NAME\".  The language is\n"
	"    doc/directives.md section 4.\n"
	"\n"
	"    Clang 22's cfi_salt goes after the parameter list it salts,\n"
	"    \"void (void) __attribute__((cfi_salt(\\\"kvm\\\")))\", and makes MANGLED\n"
	"    \"_ZTSFvvE.kvm\", the string hashed; bytes of a salt that are not\n"
	"    printable are shown as \\ooo.  x86 pointers into %gs and %fs are\n"
	"    \"__seg_gs int *\", \"__seg_fs int *\" (Clang's address spaces 256, 257;\n"
	"    others as \"__attribute__((address_space(N))) int *\").\n"
	"\n"
	"OPTIONS\n";

static const char manual_tail[] =
	"\n"
	"EXIT STATUS\n"
	"    0 when every TYPE was understood; 1 when one was not (the error names\n"
	"    the argument or input line and points at the column); 2 for bad options.\n"
	"\n"
	"EXAMPLES\n"
	"    $ kcfi-typeid 'void (*)(struct tasklet *)'\n"
	"    $ kcfi-typeid --hash=xxhash64 'int (int)'\n"
	"    0x00050794 _ZTSFiiE\n"
	"    $ echo 'void (char)' | kcfi-typeid --target=aarch64-linux-gnu --normalize-integers\n"
	"    0x... _ZTSFvu2u8E.normalized\n";

/* The ENDBR64/ENDBR32 encodings x86 code never uses as an id. */
static bool endbr_like(uint32_t h)
{
	return h == 0xfa1e0ff3u || h == 0u - 0xfa1e0ff3u || h == 0xfb1e0ff3u || h == 0u - 0xfb1e0ff3u;
}

/* One cache for all the types of a run: lines on stdin are often many
 * prototypes of one program. */
static struct kcfi_typeids *typeids;

/* The mangled name on one line: a salt may hold any byte but NUL, so
 * control bytes, DEL and the backslash are written as \ooo. */
static void put_name(const char *name)
{
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p < ' ' || *p == 0x7f || *p == '\\')
			printf("\\%03o", *p);
		else
			putchar(*p);
}

static bool report(const char *prog, const char *where, const char *text, size_t len,
		   const struct kcfi_typeid_opts *opts, bool x86)
{
	struct kcfi_typeid r;
	struct kcfi_type_error err;
	if (!typeids && !(typeids = kcfi_typeids_new())) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(2);
	}
	if (kcfi_typeids_typename(typeids, text, len, opts, &r, &err) == 0) {
		printf("0x%08x ", (unsigned)r.id);
		put_name(r.mangled);
		if (r.unprototyped)
			fputs(" unprototyped", stdout);
		if (x86 && endbr_like(r.id))
			printf(" (x86: 0x%08x)", (unsigned)r.id + 1);
		putchar('\n');
		kcfi_typeid_release(&r);
		return true;
	}
	fflush(stdout);
	if (!err.column) {
		fprintf(stderr, "%s: %s: error: %s\n", prog, where, err.message);
		return false;
	}
	/* The text again, with a caret under the column; control characters
	 * become spaces so that the caret lines up. */
	fprintf(stderr, "%s: %s:%u: error: %s\n    ", prog, where, err.column, err.message);
	for (size_t i = 0; i < len; i++)
		fputc((unsigned char)text[i] < ' ' ? ' ' : text[i], stderr);
	fprintf(stderr, "\n    %*s^\n", (int)err.column - 1, "");
	return false;
}

static int usage_error(const char *prog, const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	return 2;
}

int main(int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	struct kcfi_typeid_opts opts = { .hash = KCFI_HASH_FNV1A };
	const char *target = "x86_64-linux-gnu";
	int i = 1;
	for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		const char *v;
		const struct kcfi_opt *o = kcfi_opt_find(kcfi_typeid_opts, a, &v);
		switch (o ? o->id : 0) {
		case KCFI_TYPEID_OPT_TARGET:
			target = v;
			break;
		case KCFI_TYPEID_OPT_HASH:
			if (!strcmp(v, "fnv1a") || !strcmp(v, "FNV-1a"))
				opts.hash = KCFI_HASH_FNV1A;
			else if (!strcmp(v, "xxhash64") || !strcmp(v, "xxHash64"))
				opts.hash = KCFI_HASH_XXHASH64;
			else
				return usage_error(prog, "unknown hash '%s' (fnv1a or xxhash64)", v);
			break;
		case KCFI_TYPEID_OPT_NORMALIZE_INTEGERS:
			opts.normalize_integers = true;
			break;
		case KCFI_TYPEID_OPT_GENERALIZE_POINTERS:
			opts.generalize_pointers = true;
			break;
		case KCFI_TYPEID_OPT_HELP:
			fputs(manual_head, stdout);
			fputs(kcfi_typeid_opts_help, stdout);
			fputs(manual_tail, stdout);
			return 0;
		case KCFI_TYPEID_OPT_VERSION:
			printf("kcfi-typeid (kcfi-as) %s\n", PACKAGE_VERSION);
			return 0;
		default:
			return usage_error(prog, "unknown option '%s'", a);
		}
	}
	if (kcfi_model_for_triple(target, &opts.model))
		return usage_error(prog, "no data model for target '%s'", target);
	bool x86 = !strncmp(target, "x86_64", 6) || (target[0] == 'i' && !strncmp(target + 2, "86", 2));

	bool ok = true;
	char where[64];
	if (i < argc) {
		for (int n = 1; i < argc; i++, n++) {
			snprintf(where, sizeof(where), "argument %d", n);
			ok &= report(prog, where, argv[i], strlen(argv[i]), &opts, x86);
		}
		kcfi_typeids_free(typeids);
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
		ok &= report(prog, where, line, (size_t)n, &opts, x86);
	}
	free(line);
	kcfi_typeids_free(typeids);
	return ok ? 0 : 1;
}
