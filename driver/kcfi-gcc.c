/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-gcc: run GCC with KCFI.
 *
 * GCC 12's driver rejects -fsanitize=kcfi, so this wrapper takes it (and
 * Clang's KCFI spellings) off the command line and puts in their place the
 * plugin built for that very compiler and a -B directory whose `as` is
 * kcfi-as.  It does so on compile *and* link lines, because with -flto the
 * code is generated at link time.  `<triple>-kcfi-gcc` wraps `<triple>-gcc`;
 * $KCFI_CC overrides the compiler.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver/driver.h"
#include "driver/finish-asm.h"
#include "driver/kcfi-gcc-opts.h"
#include "driver/tool-witness.h"

/* kcfi-as's option for -Wkcfi-cast, or NULL. */
static const char *warn_cast_option(const struct driver *d)
{
	if (!d->warn_cast)
		return NULL;
	return d->cast_error || (d->werror && !d->cast_no_error) ? "--kcfi-warn-cast=error"
								  : "--kcfi-warn-cast";
}

/* -S: cc1 runs under -wrapper kcfi-gcc --kcfi-finish-asm (finish-asm.c), so
 * that the file written is finished assembly which any `as` takes, as with
 * clang -S.  GCC splits the wrapper's words at commas. */
static void finish_asm_wrapper(const struct driver *d, struct args *out)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return;
	self[n] = '\0';
	if (d->user_wrapper || strchr(self, ',') || strchr(d->asdir, ',') ||
	    (d->march && strchr(d->march, ','))) {
		fprintf(stderr, "kcfi-gcc: warning: -S writes the annotated assembly (as with "
			"-fsanitize-kcfi-annotated-asm): %s\n", d->user_wrapper ?
			"-wrapper is taken" : "a comma in a path cannot pass through -wrapper");
		return;
	}
	/* The driver passes the mode to as, not to cc1. */
	const char *mode = !target_of(d)->as_mode || !d->codegen.mode ? "" :
			   !strcmp(d->codegen.mode, "-m32") ? ",--32" :
			   !strcmp(d->codegen.mode, "-m64") ? ",--64" : "";
	const char *warn = warn_cast_option(d);
	char *w = xstrdup_printf("%s,%s,--kcfi-as=%s/as%s%s%s%s%s%s%s%s%s,--", self,
				 FINISH_ASM_OPTION, d->asdir, mode, warn ? "," : "", warn ? warn : "",
				 d->hash && !strcmp(d->hash, "xxHash64") ? ",--kcfi-hash=xxhash64" : "",
				 d->normalize ? ",--kcfi-normalize-integers" : "",
				 d->generalize ? ",--kcfi-generalize-pointers" : "",
				 d->cs_prefix ? ",--kcfi-cs-prefix" : "",
				 d->march ? "," : "", d->march ? d->march : "");
	push(out, "-wrapper");
	push(out, w);
}

/* A link line without -fsanitize=kcfi: GCC generates the code of -flto
 * objects here, and what was compiled with KCFI gets it from the marks its
 * units left in the IR, as with Clang, while cc1 and all other code stay
 * plain (the plugin's follow-lto).  Without our plugin in lto1 such objects
 * would stop the link at their guard, so this is about working, never
 * about protection. */
static void add_follow_lto(const struct driver *d, struct args *out)
{
	push(out, xstrdup_printf("-fplugin=%s", d->plugin));
	push(out, "-fplugin-arg-kcfi-follow-lto");
	push(out, xstrdup_printf("-B%s/", d->asdir));
}

static void add_kcfi_options(const struct driver *d, struct args *out)
{
	push(out, xstrdup_printf("-fplugin=%s", d->plugin));
	push(out, xstrdup_printf("-B%s/", d->asdir));
	if (d->hash && !strcmp(d->hash, "xxHash64"))
		push(out, "-Wa,--kcfi-hash=xxhash64");
	if (d->normalize)
		push(out, "-Wa,--kcfi-normalize-integers");
	if (d->generalize) {
		push(out, "-Wa,--kcfi-generalize-pointers");
		push(out, "-fplugin-arg-kcfi-generalize-pointers");
	}
	if (d->extern_stubs)
		push(out, "-fplugin-arg-kcfi-extern-stubs");
	if (d->plugin_arity)
		push(out, "-fplugin-arg-kcfi-arity");
	const char *call_reg = retpoline_call_reg(d);
	if (call_reg)
		push(out, xstrdup_printf("-fplugin-arg-kcfi-call-reg=%s", call_reg));
	if (d->cs_prefix)
		push(out, "-Wa,--kcfi-cs-prefix");
	if (warn_cast_option(d))
		push(out, xstrdup_printf("-Wa,%s", warn_cast_option(d)));
	if (d->asm_only && !d->annotated)
		finish_asm_wrapper(d, out);
	char *witness = d->preprocess_only ? tool_witness(d->plugin, d->asdir) : NULL;
	if (witness) {
		push(out, "-include");
		push(out, witness);
	}
}

/* Run the compiler with OUT and wait: for --help and --version, where our
 * part follows the compiler's. */
static int run_and_wait(const struct args *out)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		execvp(out->v[0], out->v);
		fprintf(stderr, "kcfi-gcc: cannot run %s: %s\n", out->v[0], strerror(errno));
		_exit(127);
	}
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static int print_help(const struct driver *d, const struct args *out)
{
	printf("Usage: kcfi-gcc [options] file...\n"
	       "Runs %s; with -fsanitize=kcfi, adds Linux KCFI (as Clang's -fsanitize=kcfi)\n"
	       "through the kcfi plugin and kcfi-as.  See kcfi-gcc(1).\n\n"
	       "kcfi options:\n", d->cc);
	fputs(kcfi_gcc_opts_help, stdout);
	printf("Environment: KCFI_CC (the compiler), KCFI_PLUGIN (the plugin),\n"
	       "KCFI_REAL_AS (the assembler behind kcfi-as).\n\n"
	       "The options of %s follow.\n\n", d->cc);
	return run_and_wait(out);
}

static int print_version(const struct driver *d, const struct args *out)
{
	/* The compiler speaks first: the kernel records the first line of
	 * `$(CC) --version` as the compiler's name. */
	int rc = run_and_wait(out);
	printf("kcfi-gcc %s (kcfi-as): %s with KCFI through %s\n", PACKAGE_VERSION, d->cc,
	       d->plugin ? d->plugin : "no plugin (none built for this compiler)");
	return rc;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], FINISH_ASM_OPTION))
		return finish_asm_main(argc, argv);
	struct driver d = { 0 };
	name_compiler(&d, argv[0]);
	/* The argument vectors are dropped unfreed: _exit ends the process
	 * without the exit-time leak report of sanitizer builds. */
	if (!read_options(&d, argc, argv))
		_exit(1);
	if (d.enabled && target_of(&d)->refuse && target_of(&d)->refuse(&d))
		_exit(1);
	bool arity_refused;
	d.plugin_arity = arity_wanted(&d, &arity_refused);
	if (arity_refused)
		_exit(1);

	struct args out = { 0 };
	push(&out, d.cc);
	bool follow = !d.enabled && !d.no_link && !d.help && !d.version;
	if (d.enabled || d.version || follow) {
		if (!locate_tools(&d, !d.enabled)) {
			if (d.enabled)
				_exit(1);
			free(d.plugin);
			d.plugin = NULL;
		}
	}
	/* Preprocessed elsewhere (distcc): only with the same tools. */
	if (d.enabled && d.plugin && !d.preprocess_only)
		for (int i = 0; i < d.preprocessed.n; i++)
			if (witness_verify(d.preprocessed.v[i], d.plugin, d.asdir))
				_exit(1);
	if (d.enabled && d.plugin) {
		add_kcfi_options(&d, &out);
		pass_real_as(&d);
	} else if (follow && d.plugin) {
		add_follow_lto(&d, &out);
		pass_real_as(&d);
	}
	for (int i = 0; i < d.user.n; i++)
		push(&out, d.user.v[i]);
	/* _exit for the same reason as above: d and out stay allocated. */
	if (d.help || d.version) {
		int rc = d.help ? print_help(&d, &out) : print_version(&d, &out);
		fflush(stdout);
		_exit(rc);
	}

	execvp(d.cc, out.v);
	fprintf(stderr, "kcfi-gcc: cannot run %s: %s\n", d.cc, strerror(errno));
	return 127;
}
