/* ccache must not reuse an object after the plugin or kcfi-as changed.
 *
 * With CC="ccache kcfi-gcc", ccache knows only kcfi-gcc: it hashes its
 * size and mtime, the command line and the preprocessed source (or, in its
 * default direct mode, the source and every file the preprocessor reported).
 * The plugin and kcfi-as are added by kcfi-gcc itself, so ccache sees
 * neither.  For preprocessing runs (-E, which ccache does on every direct
 * mode miss and in preprocessor mode), kcfi-gcc therefore force-includes a
 * small header whose name carries a hash of both tools' bytes and whose
 * only lines are
 *
 *	#line 1 "/path/of/kcfi.so"
 *	#line 1 "/path/of/kcfi-as"
 *
 * The name changes the preprocessed output when a tool changes (preprocessor
 * mode), and the #line markers make ccache record both tools as include
 * files whose contents it checks before a direct mode hit.  Nothing reaches
 * the compiler proper: #line only renames lines, and there are none.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "asmpass/tool-witness.h"

/* FNV-1a 64 over a file's bytes (a naming hash, nothing secret). */
static int hash_file(const char *path, uint64_t *h)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	unsigned char buf[1 << 16];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			*h = (*h ^ buf[i]) * 0x100000001b3ull;
	close(fd);
	return n < 0 ? -1 : 0;
}

static void hash_text(const char *s, uint64_t *h)
{
	for (; *s; s++)
		*h = (*h ^ (unsigned char)*s) * 0x100000001b3ull;
}

/* A #line marker naming PATH, as a C string literal. */
static void put_line_marker(FILE *f, const char *path)
{
	fputs("#line 1 \"", f);
	for (const char *c = path; *c; c++) {
		if (*c == '"' || *c == '\\')
			fputc('\\', f);
		fputc(*c, f);
	}
	fputs("\"\n", f);
}

/* A private directory for the witnesses (and kcfi-gcc's other remembered
 * answers): the user's cache, else one in $TMPDIR that we own and nobody
 * else can write. */
char *kcfi_cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *dir = NULL;
	if (xdg && *xdg == '/') {
		if (asprintf(&dir, "%s/kcfi-gcc", xdg) < 0)
			return NULL;
		/* The base directory specification: create it if missing, 0700. */
		mkdir(xdg, 0700);
	} else if (home && *home == '/') {
		if (asprintf(&dir, "%s/.cache/kcfi-gcc", home) < 0)
			return NULL;
		char *parent = strndup(dir, strlen(dir) - strlen("/kcfi-gcc"));
		if (parent)
			mkdir(parent, 0700);
		free(parent);
	}
	struct stat st;
	if (dir && (mkdir(dir, 0700) == 0 || errno == EEXIST) &&
	    lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK) == 0)
		return dir;
	free(dir);
	const char *tmp = getenv("TMPDIR");
	if (asprintf(&dir, "%s/kcfi-gcc-%u", tmp && *tmp == '/' ? tmp : "/tmp",
		     (unsigned)getuid()) < 0)
		return NULL;
	if ((mkdir(dir, 0700) == 0 || errno == EEXIST) && lstat(dir, &st) == 0 &&
	    S_ISDIR(st.st_mode) && st.st_uid == getuid() && !(st.st_mode & 022))
		return dir;
	free(dir);
	return NULL;
}

char *tool_witness(const char *plugin, const char *asdir)
{
	char *as = NULL, *dir = NULL, *path = NULL, *tmp = NULL;
	char plugin_real[PATH_MAX], as_real[PATH_MAX];
	const char *why = "cannot read the tools";
	uint64_t h = 0xcbf29ce484222325ull;

	if (asprintf(&as, "%s/as", asdir) < 0)
		goto fail;
	if (!realpath(plugin, plugin_real) || !realpath(as, as_real) ||
	    hash_file(plugin_real, &h) || hash_file(as_real, &h))
		goto fail;
	hash_text(plugin_real, &h);
	hash_text(as_real, &h);

	why = "no private cache directory";
	dir = kcfi_cache_dir();
	if (!dir || asprintf(&path, "%s/tools-%016llx.h", dir, (unsigned long long)h) < 0)
		goto fail;
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		goto done;

	/* Written aside and renamed, so that a parallel build never reads
	 * half a witness. */
	why = "cannot write the witness header";
	if (asprintf(&tmp, "%s.%ld", path, (long)getpid()) < 0)
		goto fail;
	FILE *f = fopen(tmp, "wx");
	if (!f)
		goto fail;
	put_line_marker(f, plugin_real);
	put_line_marker(f, as_real);
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		unlink(tmp);
		goto fail;
	}
done:
	free(as);
	free(dir);
	free(tmp);
	return path;
fail:
	fprintf(stderr, "kcfi-gcc: warning: %s%s%s; ccache, if used, cannot see a "
		"change of the plugin or kcfi-as\n", why, dir ? " in " : "", dir ? dir : "");
	free(as);
	free(dir);
	free(path);
	free(tmp);
	return NULL;
}
