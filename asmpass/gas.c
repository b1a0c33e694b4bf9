/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding and running the real assembler; see gas.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "asmpass/gas.h"

static bool is_self(const char *path)
{
	struct stat a, b;
	return stat(path, &a) == 0 && stat("/proc/self/exe", &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static bool executable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *gas_locate(const char *explicit_path, const char *name)
{
	const char *given = explicit_path ? explicit_path : getenv("KCFI_REAL_AS");
	if (given && *given) {
		char *p = NULL;
		if (strchr(given, '/')) {
			p = strdup(given);
		} else {
			p = gas_locate(NULL, given[0] ? given : name);
			if (!p)
				return NULL;
		}
		if (is_self(p)) {
			fprintf(stderr, "kcfi-as: the real assembler '%s' is kcfi-as itself\n", p);
			free(p);
			return NULL;
		}
		return p;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	size_t nlen = strlen(name);
	for (const char *d = path; *d;) {
		size_t dlen = strcspn(d, ":");
		char *cand = malloc(dlen + nlen + 3);
		if (!cand)
			abort();
		memcpy(cand, dlen ? d : ".", dlen ? dlen : 1);
		size_t off = dlen ? dlen : 1;
		cand[off] = '/';
		memcpy(cand + off + 1, name, nlen + 1);
		if (executable(cand) && !is_self(cand))
			return cand;
		free(cand);
		d += dlen;
		if (*d == ':')
			d++;
	}
	fprintf(stderr, "kcfi-as: cannot find the real assembler '%s' in $PATH "
		"(set KCFI_REAL_AS or use --kcfi-real-as=PATH)\n", name);
	return NULL;
}

/* Beyond this the rewrite streams through a pipe to a concurrent gas, so
 * that memory stays bounded however large the input (tests/asmpass's
 * 200 MB stream).  Below it, one process fewer: no fork, no pipe, no
 * wait, which is most of kcfi-as's fixed cost per unit (doc/performance.md). */
#define GAS_BUFFER_LIMIT (64ull << 20)

int gas_buffer(unsigned long long input_bytes)
{
	if (input_bytes > GAS_BUFFER_LIMIT)
		return -1;
	return memfd_create("kcfi-as", MFD_CLOEXEC);
}

int gas_become(const char *path, char *const argv[], int buffer)
{
	if (lseek(buffer, 0, SEEK_SET) < 0 || dup2(buffer, 0) < 0) {
		perror("kcfi-as: handing the rewritten text to the assembler");
		return 1;
	}
	execv(path, argv);
	fprintf(stderr, "kcfi-as: cannot run %s: %s\n", path, strerror(errno));
	return 127;
}

pid_t gas_spawn(const char *path, char *const argv[], int *to_gas)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC)) {
		perror("kcfi-as: pipe");
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("kcfi-as: fork");
		return -1;
	}
	if (pid == 0) {
		if (dup2(p[0], 0) < 0)
			_exit(127);
		execv(path, argv);
		fprintf(stderr, "kcfi-as: cannot run %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*to_gas = p[1];
	return pid;
}

int gas_wait(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "kcfi-as: the assembler died: %s\n", strsignal(WTERMSIG(st)));
		return 128 + WTERMSIG(st);
	}
	return 1;
}

void gas_kill(pid_t pid)
{
	int st;
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}
