/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpu-ms CMD [ARG...]: run CMD and print the CPU time (user + system) it
 * used, in milliseconds with microsecond resolution.  On a shared machine
 * CPU time is a steadier measure than wall time; standard input, output and
 * error are CMD's own. */
#include "config.h"

#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: cpu-ms CMD [ARG...]\n");
		return 2;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("cpu-ms: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror("cpu-ms: exec");
		_exit(127);
	}
	int st;
	struct rusage ru;
	if (wait4(pid, &st, 0, &ru) < 0) {
		perror("cpu-ms: wait4");
		return 2;
	}
	double ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
		    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	fprintf(stderr, "cpu-ms: %.3f\n", ms);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
