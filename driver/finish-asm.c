/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-gcc -S: the finished assembly, as clang -S gives it.
 *
 * With -S no assembler runs, so the plugin's annotated assembly would be
 * the result: text only kcfi-as reads, which a plain `as` rejects (it
 * knows no .kcfi_version), so build systems and test suites that assemble
 * a compiler's -S output themselves failed.  kcfi-gcc therefore runs the
 * compiler proper under GCC's -wrapper with this mode, which lets cc1 write
 * its output and then has kcfi-as rewrite that file in place.  Every other
 * subprocess (cc1 -E for .S files, anything else) runs untouched.
 *
 * Usage (built by kcfi-gcc, not typed):
 *   kcfi-gcc --kcfi-finish-asm --kcfi-as=PATH [KCFI-AS OPTION...] -- PROGRAM ARGS...
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver/finish-asm.h"

static int run(char **argv)
{
	pid_t pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "kcfi-gcc: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) < 0) {
		perror("kcfi-gcc");
		return 1;
	}
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "kcfi-gcc: %s killed by signal %d\n", argv[0], WTERMSIG(st));
		return 1;
	}
	return WEXITSTATUS(st);
}

/* Only the compiler proper making assembly: not cc1 -E (a .S file's
 * preprocessing), not a dependency or syntax run. */
static bool makes_assembly(int argc, char **argv, int *out)
{
	const char *base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	if (strcmp(base, "cc1") && strcmp(base, "cc1plus") && strcmp(base, "cc1obj") &&
	    strcmp(base, "cc1objplus"))
		return false;
	*out = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-E") || !strcmp(a, "-fsyntax-only") || !strcmp(a, "-M") ||
		    !strcmp(a, "-MM"))
			return false;
		if (!strcmp(a, "-o") && i + 1 < argc)
			*out = ++i;
	}
	return *out > 0;
}

int finish_asm_main(int argc, char **argv)
{
	/* argv[1] is --kcfi-finish-asm; then kcfi-as and its options up to --. */
	const char *as = NULL;
	char **kcfi = calloc((size_t)argc + 6, sizeof(*kcfi));
	if (!kcfi)
		abort();
	int nk = 1, i = 2;
	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strncmp(argv[i], "--kcfi-as=", 10))
			as = argv[i] + 10;
		else
			kcfi[nk++] = argv[i];
	}
	if (!as || ++i >= argc) {
		fprintf(stderr, "kcfi-gcc: --kcfi-finish-asm: kcfi-gcc makes this command line, "
			"no one else\n");
		free(kcfi);
		return 2;
	}
	char **prog = argv + i;
	int nprog = argc - i, out;
	if (!makes_assembly(nprog, prog, &out)) {
		free(kcfi);
		execvp(prog[0], prog);
		fprintf(stderr, "kcfi-gcc: cannot run %s: %s\n", prog[0], strerror(errno));
		return 127;
	}

	/* "-o -": the compiler writes a file of ours, the result goes to stdout. */
	const char *final = prog[out];
	char tmp[] = "/tmp/kcfi-gcc-S-XXXXXX.s";
	bool to_stdout = !strcmp(final, "-");
	if (to_stdout) {
		int fd = mkstemps(tmp, 2);
		if (fd < 0) {
			perror("kcfi-gcc: a temporary file for -S -o -");
			return 1;
		}
		close(fd);
		prog[out] = tmp;
	}
	int rc = run(prog);
	if (rc != 0) {
		if (to_stdout)
			unlink(tmp);
		free(kcfi);
		return rc;
	}

	/* The rewritten text goes beside the annotated one and replaces it only
	 * when whole: an error leaves no output, as when cc1 itself fails. */
	size_t size = strlen(final) + sizeof("--kcfi-save=.kcfi-tmp");
	char *save = malloc(size);
	if (!save)
		abort();
	if (to_stdout)
		strcpy(save, "--kcfi-save=-");
	else
		snprintf(save, size, "--kcfi-save=%s.kcfi-tmp", final);
	kcfi[0] = (char *)as;
	kcfi[nk++] = "--kcfi-no-assemble";
	kcfi[nk++] = "--kcfi-no-line-markers";
	kcfi[nk++] = save;
	kcfi[nk++] = prog[out];
	kcfi[nk] = NULL;
	fflush(stdout);
	rc = run(kcfi);
	if (to_stdout) {
		unlink(tmp);
	} else if (rc == 0) {
		if (rename(save + 12, final) != 0) {
			fprintf(stderr, "kcfi-gcc: %s: %s\n", final, strerror(errno));
			rc = 1;
		}
	}
	if (rc != 0 && !to_stdout) {
		unlink(save + 12);
		unlink(final);
	}
	free(save);
	free(kcfi);
	return rc;
}
