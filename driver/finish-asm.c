/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-gcc -S: the finished assembly, as clang -S gives it.
 *
 * With -S no assembler runs, so the plugin's annotated assembly would be
 * the result: text only kcfi-as reads, which a plain `as` rejects (it
 * knows no .kcfi_version), so build systems and test suites that assemble
 * a compiler's -S output themselves failed.  kcfi-gcc therefore runs the
 * compiler proper under GCC's -wrapper with this mode, which has cc1 write
 * to a temporary file, kcfi-as rewrite that into another, and writes the
 * result into the file -o names as cc1 would have.  Every other subprocess
 * (cc1 -E for .S files, anything else) runs untouched.
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
#include <sys/stat.h>
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

/* A private file in the temporary directory, as GCC's own temporaries:
 * $TMPDIR, else /tmp.  Returns its descriptor and sets *PATH (malloc'd). */
static int temp_file(char **path)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	size_t size = strlen(dir) + sizeof("/kcfi-gcc-S-XXXXXX.s");
	*path = malloc(size);
	if (!*path)
		abort();
	snprintf(*path, size, "%s/kcfi-gcc-S-XXXXXX.s", dir);
	int fd = mkstemps(*path, 2);
	if (fd < 0) {
		fprintf(stderr, "kcfi-gcc: fatal error: cannot create a temporary file in %s: %s\n",
			dir, strerror(errno));
		free(*path);
		*path = NULL;
	}
	return fd;
}

/* Copy FROM (read from its start) to TO, which is named NAME in messages. */
static int copy_out(int from, int to, const char *name)
{
	char buf[65536];
	ssize_t n;
	if (lseek(from, 0, SEEK_SET) != 0) {
		perror("kcfi-gcc: the finished assembly");
		return 1;
	}
	while ((n = read(from, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("kcfi-gcc: the finished assembly");
			return 1;
		}
		for (ssize_t done = 0, w; done < n; done += w) {
			w = write(to, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR) {
				w = 0;
			} else if (w <= 0) {
				fprintf(stderr, "kcfi-gcc: fatal error: error writing to %s: %s\n",
					name, strerror(w < 0 ? errno : ENOSPC));
				return 1;
			}
		}
	}
	return 0;
}

/* What GCC's driver does with the output of a failed step: remove it only
 * if it is an ordinary file (stat, so also a symlink to one), never a
 * device, a FIFO or a directory. */
static void delete_if_ordinary(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		unlink(path);
}

int finish_asm_main(int argc, char **argv)
{
	/* argv[1] is --kcfi-finish-asm; then kcfi-as and its options up to --. */
	const char *as = NULL;
	char **kcfi = calloc((size_t)argc + 7, sizeof(*kcfi));
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

	/* The user's output is opened first and as cc1 opens it, fopen's "w":
	 * through a symlink, into a device or a FIFO (waiting for its reader),
	 * truncating a regular file in place (its mode and links kept), or
	 * created with 0666 & ~umask; "-" is standard output.  It is written
	 * only from the finished text; nothing is read back from it, nothing
	 * renamed over it.  The compiler and kcfi-as work on files of ours in
	 * the temporary directory. */
	const char *final = prog[out];
	bool to_stdout = !strcmp(final, "-");
	int fd = to_stdout ? 1 : open(final, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		fprintf(stderr, "kcfi-gcc: fatal error: opening output file %s: %s\n", final,
			strerror(errno));
		free(kcfi);
		return 1;
	}
	char *annotated = NULL, *finished = NULL, *save = NULL;
	int annotated_fd = temp_file(&annotated), finished_fd = -1, rc = 1;
	if (annotated_fd < 0 || (finished_fd = temp_file(&finished)) < 0)
		goto out;
	close(annotated_fd);
	prog[out] = annotated;
	rc = run(prog);
	if (rc != 0)
		goto out;

	save = malloc(strlen(finished) + sizeof("--kcfi-save="));
	if (!save)
		abort();
	strcpy(save, "--kcfi-save=");
	strcat(save, finished);
	char *name = NULL;
	if (!to_stdout) {
		name = malloc(strlen(final) + sizeof("--kcfi-input-name="));
		if (!name)
			abort();
		strcpy(name, "--kcfi-input-name=");
		strcat(name, final);
	}
	kcfi[0] = (char *)as;
	kcfi[nk++] = "--kcfi-no-assemble";
	kcfi[nk++] = "--kcfi-no-line-markers";
	kcfi[nk++] = save;
	if (name)
		kcfi[nk++] = name;
	kcfi[nk++] = annotated;
	kcfi[nk] = NULL;
	fflush(stdout);
	rc = run(kcfi);
	free(name);
	if (rc == 0)
		rc = copy_out(finished_fd, fd, final);
out:
	if (!to_stdout && close(fd) != 0 && rc == 0) {
		fprintf(stderr, "kcfi-gcc: fatal error: error closing %s: %s\n", final,
			strerror(errno));
		rc = 1;
	}
	/* An error leaves no output, as when cc1 itself fails. */
	if (rc != 0 && !to_stdout)
		delete_if_ordinary(final);
	if (finished_fd >= 0)
		close(finished_fd);
	if (annotated)
		unlink(annotated);
	if (finished)
		unlink(finished);
	free(annotated);
	free(finished);
	free(save);
	free(kcfi);
	return rc;
}
