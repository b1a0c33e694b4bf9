/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-gcc: the command line read into struct driver.  Every option read
 * here is declared in driver/kcfi-gcc.opt (kcfi_gcc_opts): ours, which GCC
 * never sees or sees translated, and GCC's that we read on the way; all
 * others go to GCC untouched. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"
#include "driver/kcfi-gcc-opts.h"

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

/* Our spellings: one of these that the table lacks is a mistake of ours or
 * the user's, not an option for GCC. */
static bool kcfi_spelling(const char *a)
{
	return !strncmp(a, "--kcfi-", 7) || !strncmp(a, "-fsanitize-kcfi-", 16) ||
	       !strncmp(a, "-fno-sanitize-kcfi-", 19);
}

bool read_options(struct driver *d, int argc, char **argv)
{
	d->assembles = true;
	const char *lang = NULL;	/* the last -x */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		const struct kcfi_opt *o = kcfi_opt_find(kcfi_gcc_opts, a, &v);
		bool hit = false;
		if (!o && kcfi_spelling(a)) {
			fprintf(stderr, "kcfi-gcc: error: unknown option '%s' (see kcfi-gcc --help)\n",
				a);
			return false;
		}
		if (o && o->id == KCFI_GCC_OPT_X && (v || i + 1 < argc))
			lang = v ? v : argv[i + 1];
		else if (a[0] != '-' && strcmp(argv[i - 1], "-o") &&
			 strcmp(argv[i - 1], "-x")) {
			const char *dot = strrchr(a, '.');
			bool pre = lang && strcmp(lang, "none") ?
				   !strcmp(lang, "cpp-output") || !strcmp(lang, "c++-cpp-output") :
				   dot && (!strcmp(dot, ".i") || !strcmp(dot, ".ii"));
			if (pre)
				push(&d->preprocessed, a);
		}
		switch (o ? o->id : 0) {
		/* Ours: GCC gets what they mean, or nothing. */
		case KCFI_GCC_OPT_FSANITIZE: {
			char *rest = strip_kcfi(v, false, &hit);
			if (hit)
				d->enabled = d->requested = true;
			if (rest)
				push(&d->user, xstrdup_printf("-fsanitize=%s", rest));
			continue;
		}
		case KCFI_GCC_OPT_FNO_SANITIZE: {
			char *rest = strip_kcfi(v, true, &hit);
			if (hit)
				d->enabled = false;
			if (rest)
				push(&d->user, xstrdup_printf("-fno-sanitize=%s", rest));
			continue;
		}
		case KCFI_GCC_OPT_FSANITIZE_TRAP:
		case KCFI_GCC_OPT_FSANITIZE_RECOVER:
		case KCFI_GCC_OPT_FNO_SANITIZE_RECOVER: {
			/* KCFI always traps; keep what the list says about others. */
			char *rest = strip_kcfi(v, false, &hit);
			if (rest)
				push(&d->user, xstrdup_printf("%.*s%s", (int)(v - a), a, rest));
			continue;
		}
		case KCFI_GCC_OPT_FSANITIZE_KCFI_HASH:
			d->hash = v;
			if (strcmp(d->hash, "FNV-1a") && strcmp(d->hash, "xxHash64")) {
				fprintf(stderr, "kcfi-gcc: unknown -fsanitize-kcfi-hash '%s' "
					"(FNV-1a or xxHash64)\n", d->hash);
				return false;
			}
			continue;
		case KCFI_GCC_OPT_FSANITIZE_CFI_ICALL_EXPERIMENTAL_NORMALIZE_INTEGERS:
			d->normalize = true;
			continue;
		case KCFI_GCC_OPT_FSANITIZE_CFI_ICALL_GENERALIZE_POINTERS:
			d->generalize = true;
			continue;
		case KCFI_GCC_OPT_FSANITIZE_KCFI_EXTERN_STUBS:
		case KCFI_GCC_OPT_FNO_SANITIZE_KCFI_EXTERN_STUBS:
			d->extern_stubs = o->id == KCFI_GCC_OPT_FSANITIZE_KCFI_EXTERN_STUBS;
			continue;
		case KCFI_GCC_OPT_WKCFI_CAST:
		case KCFI_GCC_OPT_WNO_KCFI_CAST:
			d->warn_cast = o->id == KCFI_GCC_OPT_WKCFI_CAST;
			continue;
		case KCFI_GCC_OPT_WERROR_KCFI_CAST:
			d->warn_cast = d->cast_error = true;	/* as GCC's -Werror=X */
			d->cast_no_error = false;
			continue;
		case KCFI_GCC_OPT_WNO_ERROR_KCFI_CAST:
			d->cast_error = false;
			d->cast_no_error = true;
			continue;
		case KCFI_GCC_OPT_FSANITIZE_KCFI_ANNOTATED_ASM:
			d->annotated = true;
			continue;
		case KCFI_GCC_OPT_FSANITIZE_KCFI_ARITY:
			d->arity = true;
			continue;
		case KCFI_GCC_OPT_KCFI_FINISH_ASM:
		case KCFI_GCC_OPT_KCFI_AS:
			fprintf(stderr, "kcfi-gcc: error: %s is kcfi-gcc's own, for -S's -wrapper\n",
				a);
			return false;

		/* GCC's, read on their way to it. */
		case KCFI_GCC_OPT_WERROR:
			d->werror = true;
			break;
		case KCFI_GCC_OPT_WNO_ERROR:
			d->werror = false;
			break;
		case KCFI_GCC_OPT_MINDIRECT_BRANCH_CS_PREFIX:
			d->cs_prefix = true;
			break;
		case KCFI_GCC_OPT_B:
		case KCFI_GCC_OPT_PREFIX:
		case KCFI_GCC_OPT_NO_CANONICAL_PREFIXES:
			push(&d->search, a);
			if (o->kind == KCFI_OPT_JOINED_OR_SEPARATE && !v && i + 1 < argc)
				push(&d->search, argv[i + 1]);
			break;
		/* Code generation options kcfi-gcc must see before it runs GCC
		 * (targets.c); the last of each kind counts, as for GCC. */
		case KCFI_GCC_OPT_MASM:
			d->codegen.masm = v;
			break;
		case KCFI_GCC_OPT_M16:
		case KCFI_GCC_OPT_M32:
		case KCFI_GCC_OPT_MX32:
		case KCFI_GCC_OPT_M64:
			d->codegen.mode = a;
			break;
		case KCFI_GCC_OPT_MCMODEL:
			d->codegen.cmodel = v;
			break;
		case KCFI_GCC_OPT_MINSTRUMENT_RETURN:
			d->codegen.instrument_return = v;
			break;
		case KCFI_GCC_OPT_PG:
		case KCFI_GCC_OPT_P:
			d->codegen.profile = a;
			break;
		case KCFI_GCC_OPT_MINDIRECT_BRANCH:
			d->codegen.indirect_branch = v;
			break;
		case KCFI_GCC_OPT_E:
			d->preprocess_only = true;
			d->assembles = false;
			break;
		case KCFI_GCC_OPT_S:
			d->asm_only = true;
			d->assembles = false;
			break;
		case KCFI_GCC_OPT_FSYNTAX_ONLY:
		case KCFI_GCC_OPT_M:
		case KCFI_GCC_OPT_MM:
			d->assembles = false;
			break;
		case KCFI_GCC_OPT_C:
			d->no_link = true;
			break;
		case KCFI_GCC_OPT_WRAPPER:
			d->user_wrapper = true;
			break;
		case KCFI_GCC_OPT_MARCH:
			d->march = a;
			break;
		case KCFI_GCC_OPT_HELP:
			d->help = true;
			break;
		case KCFI_GCC_OPT_VERSION:
			d->version = true;
			break;
		}
		if (!d->assembles)
			d->no_link = true;
		push(&d->user, a);
	}
	return extern_stubs_possible(d);
}
