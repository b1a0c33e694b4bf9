/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-gcc: which `as` the compiler would run, remembered. */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver/driver.h"
#include "driver/tool-witness.h"

/* ---- which `as` the compiler would run ---------------------------------
 *
 * Asking the compiler (`gcc -print-prog-name=as`) costs a process, 7-8 ms,
 * on every compile, a third of what kcfi-gcc adds to a small unit
 * (doc/performance.md), so the answer is remembered in the per-user cache
 * directory.  An entry is used only while everything that decides the
 * answer is unchanged:
 *   - the key: the compiler as named, the file that name runs and that
 *     file's identity (dev, inode, size, mtime), GCC_EXEC_PREFIX,
 *     COMPILER_PATH, PATH, the user's -B/--prefix/-no-canonical-prefixes
 *     options, and the working directory when any of these is relative.
 *     These decide the directories the compiler searches for programs;
 *   - those directories (`-print-search-dirs`) are stored with the answer,
 *     and each use repeats GCC's search over them (find_a_program: the
 *     first DIR/as that is an executable non-directory, else plain "as"):
 *     an `as` that appeared, went or lost its x bit gives another answer
 *     than the stored one, and the entry is not used.
 * Anything else (a missing, foreign or corrupt entry) means asking the
 * compiler again and rewriting the entry. */

struct buf {
	char *p;
	size_t n, cap;
};

static void buf_add(struct buf *b, const void *p, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static void buf_str(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* A NUL-terminated field of the key: TAG=VALUE. */
static void key_field(struct buf *k, const char *tag, const char *value)
{
	buf_str(k, tag);
	buf_add(k, "=", 1);
	if (value)
		buf_add(k, value, strlen(value) + 1);
	else
		buf_add(k, "\0(unset)", 9);
}

/* The file execvp would run for CMD (NULL if none). */
static char *resolve_command(const char *cmd)
{
	if (strchr(cmd, '/'))
		return strdup(cmd);
	const char *path = getenv("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	for (const char *p = path;; p++) {
		size_t n = strcspn(p, ":");
		char *cand = xstrdup_printf("%.*s%s%s", (int)n, n ? p : ".", "/", cmd);
		struct stat st;
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
			return cand;
		free(cand);
		p += n;
		if (!*p)
			return NULL;
	}
}

/* A colon-separated list with an empty or relative entry (read against the
 * working directory). */
static bool list_relative(const char *list)
{
	if (!list)
		return false;
	for (const char *p = list;; p++) {
		if (*p != '/')
			return true;
		p += strcspn(p, ":");
		if (!*p)
			return false;
	}
}

/* The key of this compiler's answer, or false if it cannot be made. */
static bool as_cache_key(const struct driver *d, struct buf *k)
{
	char *file = resolve_command(d->cc), real[PATH_MAX];
	struct stat st;
	/* `-print-search-dirs` joins the directories with colons: one in a
	 * directory would hide a place GCC searches, so such setups ask. */
	bool colon = !file || strchr(file, ':') || (getenv("GCC_EXEC_PREFIX") &&
						    strchr(getenv("GCC_EXEC_PREFIX"), ':'));
	for (int i = 0; i < d->search.n; i++)
		colon |= strchr(d->search.v[i], ':') != NULL;
	if (colon || !realpath(file, real) || strchr(real, ':') || stat(real, &st) != 0) {
		free(file);
		return false;
	}
	char id[128];
	snprintf(id, sizeof(id), "%llu:%llu:%lld:%lld.%09ld", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino, (long long)st.st_size,
		 (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
	key_field(k, "version", "1");
	key_field(k, "cc", d->cc);
	key_field(k, "file", file);
	key_field(k, "real", real);
	key_field(k, "id", id);
	bool relative = file[0] != '/';
	free(file);
	static const char *const env[] = { "GCC_EXEC_PREFIX", "COMPILER_PATH", "PATH" };
	for (size_t i = 0; i < sizeof(env) / sizeof(env[0]); i++) {
		key_field(k, env[i], getenv(env[i]));
		relative |= list_relative(getenv(env[i]));
	}
	for (int i = 0; i < d->search.n; i++) {
		const char *a = d->search.v[i];
		key_field(k, "arg", a);
		const char *dir = !strncmp(a, "-B", 2) ? a + 2 :
				  !strncmp(a, "--prefix=", 9) ? a + 9 : NULL;
		if ((dir && *dir && *dir != '/') ||
		    (i > 0 && (!strcmp(d->search.v[i - 1], "-B") ||
			       !strcmp(d->search.v[i - 1], "--prefix")) && *a != '/'))
			relative = true;
	}
	if (relative) {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd)))
			return false;
		key_field(k, "cwd", cwd);
	}
	return true;
}

/* What GCC's find_a_program answers for `as` over the directories DIRS (one
 * per line, searched in order). */
static bool search_gives(const char *dirs, const char *end, const char *answer)
{
	for (const char *p = dirs; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return false;
		char *cand = xstrdup_printf("%.*sas", (int)(nl - p), p);
		struct stat st;
		bool found = stat(cand, &st) == 0 && !S_ISDIR(st.st_mode) && access(cand, X_OK) == 0;
		bool same = found && !strcmp(cand, answer);
		free(cand);
		if (found)
			return same;
		p = nl + 1;
	}
	return !strcmp(answer, "as");
}

/* The compiler's argv with the user's search options, then LAST. */
static char **ask_argv(const struct driver *d, const char *last)
{
	struct args a = { 0 };
	push(&a, d->cc);
	for (int i = 0; i < d->search.n; i++)
		push(&a, d->search.v[i]);
	push(&a, last);
	return a.v;
}

/* The answer ENTRY remembers for KEY, if it still holds (a copy). */
static char *as_cache_read(const char *entry, const struct buf *key)
{
	int fd = open(entry, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return NULL;
	struct stat st;
	char *text = NULL, *answer = NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != getuid() ||
	    st.st_size <= 0 || st.st_size > 1 << 20 || !(text = malloc((size_t)st.st_size + 1)))
		goto out;
	size_t n = 0;
	ssize_t r;
	while (n < (size_t)st.st_size && (r = read(fd, text + n, (size_t)st.st_size - n)) > 0)
		n += (size_t)r;
	if (n != (size_t)st.st_size)
		goto out;
	text[n] = '\0';

	/* "kcfi-gcc as 1\n" LEN "\n" KEY "\n" ANSWER "\n" then DIR "\n"... */
	static const char magic[] = "kcfi-gcc as 1\n";
	char *p = text, *end = text + n, *nl;
	if (strncmp(p, magic, sizeof(magic) - 1))
		goto out;
	p += sizeof(magic) - 1;
	char *num_end;
	unsigned long long klen = strtoull(p, &num_end, 10);
	if (num_end == p || *num_end != '\n' || klen != key->n ||
	    (size_t)(end - num_end - 1) < klen + 1 || memcmp(num_end + 1, key->p, klen) ||
	    num_end[1 + klen] != '\n')
		goto out;
	p = num_end + 2 + klen;
	if (!(nl = memchr(p, '\n', (size_t)(end - p))) || nl == p)
		goto out;
	*nl = '\0';
	const char *got = p;
	if (!search_gives(nl + 1, end, got))
		goto out;
	answer = strdup(got);
out:
	free(text);
	close(fd);
	return answer;
}

/* Ask the compiler, and remember the answer under ENTRY (when given). */
static char *as_ask(const struct driver *d, const char *entry, const struct buf *key)
{
	char **argv = NULL, *dirs = NULL;
	struct buf e = { 0 };
	if (entry) {
		argv = ask_argv(d, "-print-search-dirs");
		dirs = capture_argv(argv, true, NULL);
		free(argv);
		char num[32];
		snprintf(num, sizeof(num), "%zu\n", key->n);
		buf_str(&e, "kcfi-gcc as 1\n");
		buf_str(&e, num);
		buf_add(&e, key->p, key->n);
		buf_add(&e, "\n", 1);
	}
	struct buf list = { 0 };
	const char *line = dirs ? strstr(dirs, "\nprograms: ") : NULL;
	bool cacheable = line != NULL;
	if (line) {
		line += strlen("\nprograms: ");
		if (*line == '=')
			line++;
		size_t len = strcspn(line, "\n");
		for (const char *p = line; p < line + len;) {
			size_t n = strcspn(p, ":\n");
			buf_add(&list, p, n);
			buf_add(&list, "\n", 1);
			p += n;
			if (*p == ':')
				p++;
		}
	}
	argv = ask_argv(d, "-print-prog-name=as");
	char *as = capture_argv(argv, false, NULL);
	free(argv);
	if (as)
		as[strcspn(as, "\n")] = '\0';
	/* A newline in a path would break the lines of the entry. */
	if (as && *as && cacheable && !strchr(as, '\n') && !memchr(key->p, '\n', key->n)) {
		buf_str(&e, as);
		buf_add(&e, "\n", 1);
		if (list.n)
			buf_add(&e, list.p, list.n);
		/* Written aside and renamed: a parallel compile reads the old
		 * entry or the new one, never half of one. */
		char *tmp = xstrdup_printf("%s.%ld", entry, (long)getpid());
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0) {
			bool ok = write(fd, e.p, e.n) == (ssize_t)e.n;
			if (close(fd) != 0 || !ok || rename(tmp, entry) != 0)
				unlink(tmp);
		}
		free(tmp);
	}
	free(e.p);
	free(list.p);
	free(dirs);
	return as;
}

/* Tell kcfi-as which assembler this compiler would have run. */
void pass_real_as(const struct driver *d)
{
	if (!d->assembles || getenv("KCFI_REAL_AS"))
		return;
	struct buf key = { 0 };
	char *dir = NULL, *entry = NULL, *as = NULL;
	if (as_cache_key(d, &key) && (dir = kcfi_cache_dir())) {
		uint64_t h = 0xcbf29ce484222325ull;
		for (size_t i = 0; i < key.n; i++)
			h = (h ^ (unsigned char)key.p[i]) * 0x100000001b3ull;
		entry = xstrdup_printf("%s/as-%016llx", dir, (unsigned long long)h);
		as = as_cache_read(entry, &key);
	}
	if (!as)
		as = as_ask(d, entry, &key);
	/* Our own -B directory, given again by the user, would name kcfi-as:
	 * kcfi-as then finds the real one in PATH, as before. */
	char *ours = xstrdup_printf("%s/as", d->asdir);
	struct stat a, b;
	bool self = as && strchr(as, '/') && stat(as, &a) == 0 && stat(ours, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	if (as && !self && (strchr(as, '/') || strcmp(as, "as") != 0))
		setenv("KCFI_REAL_AS", as, 1);
	free(ours);
	free(as);
	free(entry);
	free(dir);
	free(key.p);
}
