/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-gcc: argument vectors and running a program for its output. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver/driver.h"

void push(struct args *a, const char *s)
{
	a->v = realloc(a->v, (size_t)(a->n + 2) * sizeof(char *));
	if (!a->v)
		abort();
	a->v[a->n++] = (char *)s;
	a->v[a->n] = NULL;
}

char *xstrdup_printf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	return s;
}

/* Run ARGV and return all it writes to standard output, NUL-terminated
 * (*LEN: its length), or NULL if it did not exit with 0 or wrote nothing.
 * C_LOCALE: untranslated, for output we parse. */
char *capture_argv(char *const argv[], bool c_locale, size_t *len)
{
	int p[2];
	if (pipe(p))
		return NULL;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		if (c_locale)
			setenv("LC_ALL", "C", 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	ssize_t r;
	while (buf && (r = read(p[0], buf + n, cap - 1 - n)) > 0) {
		n += (size_t)r;
		if (cap - 1 - n == 0 && !(buf = realloc(buf, cap *= 2)))
			abort();
	}
	close(p[0]);
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 ||
	    !n) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}
