/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-gcc: the command line read into struct driver. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"

/* Filter a -f[no-]sanitize= list: drop "kcfi", report whether it (or "all"
 * for the negative form) was present, return what is left or NULL. */
static char *strip_kcfi(const char *list, bool negative, bool *hit)
{
	char *copy = strdup(list), *out = calloc(1, strlen(list) + 1), *save;
	if (!copy || !out)
		abort();
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (!strcmp(w, "kcfi") || (negative && !strcmp(w, "all")))
			*hit = true;
		if (!strcmp(w, "kcfi"))
			continue;
		if (*out)
			strcat(out, ",");
		strcat(out, w);
	}
	free(copy);
	if (!*out) {
		free(out);
		return NULL;
	}
	return out;
}

static void codegen_note(struct codegen_opts *o, const char *a)
{
	if (!strncmp(a, "-masm=", 6))
		o->masm = a + 6;
	else if (!strcmp(a, "-m16") || !strcmp(a, "-m32") || !strcmp(a, "-mx32") || !strcmp(a, "-m64"))
		o->mode = a;
	else if (!strncmp(a, "-mcmodel=", 9))
		o->cmodel = a + 9;
	else if (!strncmp(a, "-minstrument-return=", 20))
		o->instrument_return = a + 20;
	else if (!strcmp(a, "-pg") || !strcmp(a, "-p"))
		o->profile = a;
	else if (!strncmp(a, "-mindirect-branch=", 18))
		o->indirect_branch = a + 18;
}

/* Take our options off the command line; keep the rest for the compiler.
 * False (after a message) for an option value we cannot honour. */
bool read_options(struct driver *d, int argc, char **argv)
{
	d->assembles = true;
	const char *lang = NULL;	/* the last -x */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool hit = false;
		if (!strcmp(a, "-x") && i + 1 < argc)
			lang = argv[i + 1];
		else if (!strncmp(a, "-x", 2) && a[2])
			lang = a + 2;
		else if (a[0] != '-' && strcmp(argv[i - 1], "-o") &&
			 strcmp(argv[i - 1], "-x")) {
			const char *dot = strrchr(a, '.');
			bool pre = lang && strcmp(lang, "none") ?
				   !strcmp(lang, "cpp-output") || !strcmp(lang, "c++-cpp-output") :
				   dot && (!strcmp(dot, ".i") || !strcmp(dot, ".ii"));
			if (pre)
				push(&d->preprocessed, a);
		}
		if (!strncmp(a, "-fsanitize=", 11)) {
			char *rest = strip_kcfi(a + 11, false, &hit);
			if (hit)
				d->enabled = d->requested = true;
			if (rest)
				push(&d->user, xstrdup_printf("-fsanitize=%s", rest));
			continue;
		}
		if (!strncmp(a, "-fno-sanitize=", 14)) {
			char *rest = strip_kcfi(a + 14, true, &hit);
			if (hit)
				d->enabled = false;
			if (rest)
				push(&d->user, xstrdup_printf("-fno-sanitize=%s", rest));
			continue;
		}
		if (!strncmp(a, "-fsanitize-trap=", 16) || !strncmp(a, "-fsanitize-recover=", 19) ||
		    !strncmp(a, "-fno-sanitize-recover=", 22)) {
			/* KCFI always traps; keep what the list says about others. */
			const char *eq = strchr(a, '=') + 1;
			char *rest = strip_kcfi(eq, false, &hit);
			if (rest)
				push(&d->user, xstrdup_printf("%.*s%s", (int)(eq - a), a, rest));
			continue;
		}
		if (!strncmp(a, "-fsanitize-kcfi-hash=", 21)) {
			d->hash = a + 21;
			if (strcmp(d->hash, "FNV-1a") && strcmp(d->hash, "xxHash64")) {
				fprintf(stderr, "kcfi-gcc: unknown -fsanitize-kcfi-hash '%s' "
					"(FNV-1a or xxHash64)\n", d->hash);
				return false;
			}
			continue;
		}
		if (!strcmp(a, "-fsanitize-cfi-icall-experimental-normalize-integers")) {
			d->normalize = true;
			continue;
		}
		if (!strcmp(a, "-fsanitize-cfi-icall-generalize-pointers")) {
			d->generalize = true;
			continue;
		}
		if (!strcmp(a, "-fsanitize-kcfi-extern-stubs") ||
		    !strcmp(a, "-fno-sanitize-kcfi-extern-stubs")) {
			d->extern_stubs = a[2] != 'n';
			continue;
		}
		if (!strcmp(a, "-Wkcfi-cast") || !strcmp(a, "-Wno-kcfi-cast")) {
			d->warn_cast = a[2] != 'n';
			continue;
		}
		if (!strcmp(a, "-Werror=kcfi-cast")) {
			d->warn_cast = d->cast_error = true;	/* as GCC's -Werror=X */
			d->cast_no_error = false;
			continue;
		}
		if (!strcmp(a, "-Wno-error=kcfi-cast")) {
			d->cast_error = false;
			d->cast_no_error = true;
			continue;
		}
		if (!strcmp(a, "-Werror"))
			d->werror = true;
		if (!strcmp(a, "-Wno-error"))
			d->werror = false;
		if (!strcmp(a, "-fsanitize-kcfi-annotated-asm")) {
			d->annotated = true;
			continue;
		}
		if (!strcmp(a, "-fsanitize-kcfi-arity")) {
			d->arity = true;
			continue;
		}
		if (!strcmp(a, "-mindirect-branch-cs-prefix"))
			d->cs_prefix = true;
		if (!strncmp(a, "-B", 2) || !strncmp(a, "--prefix", 8) ||
		    !strcmp(a, "-no-canonical-prefixes")) {
			push(&d->search, a);
			if ((!strcmp(a, "-B") || !strcmp(a, "--prefix")) && i + 1 < argc)
				push(&d->search, argv[i + 1]);
		}
		codegen_note(&d->codegen, a);
		if (!strcmp(a, "-E"))
			d->preprocess_only = true;
		if (!strcmp(a, "-E") || !strcmp(a, "-S") || !strcmp(a, "-fsyntax-only") ||
		    !strcmp(a, "-M") || !strcmp(a, "-MM"))
			d->assembles = false;
		if (!d->assembles || !strcmp(a, "-c"))
			d->no_link = true;
		if (!strcmp(a, "-S"))
			d->asm_only = true;
		if (!strcmp(a, "-wrapper"))
			d->user_wrapper = true;
		if (!strncmp(a, "-march=", 7))
			d->march = a;
		if (!strcmp(a, "--help"))
			d->help = true;
		if (!strcmp(a, "--version"))
			d->version = true;
		push(&d->user, a);
	}
	return extern_stubs_possible(d);
}
