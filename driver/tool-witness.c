/* SPDX-License-Identifier: GPL-2.0-or-later */
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
 *
 * distcc compiles the preprocessed output on another machine, with the
 * kcfi-gcc, plugin and kcfi-as installed there; different ones could give
 * other type ids or miss checks the local ones make.  The name is therefore
 * tools-C-P.h, C a hash of the bytes of the plugin, kcfi-as and kcfi-gcc
 * alone (the same tools installed elsewhere give the same C), P one of C
 * and the paths (the lines above).  Compiling preprocessed input that
 * names a witness, kcfi-gcc compares C with its own tools' and refuses on
 * a difference (witness_verify), which distcc answers with a local compile.
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

#include "driver/tool-witness.h"

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

/* C (see above) into *H, and the real paths of the plugin and kcfi-as. */
static int hash_tools(const char *plugin, const char *asdir, uint64_t *h,
		      char plugin_real[PATH_MAX], char as_real[PATH_MAX])
{
	char *as = NULL, self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	*h = 0xcbf29ce484222325ull;
	int rc = n < 0 || asprintf(&as, "%s/as", asdir) < 0 ? -1 : 0;
	if (rc == 0) {
		self[n] = '\0';
		rc = !realpath(plugin, plugin_real) || !realpath(as, as_real) ||
		     hash_file(plugin_real, h) || hash_file(as_real, h) || hash_file(self, h) ? -1 : 0;
	}
	free(as);
	return rc;
}

char *tool_witness(const char *plugin, const char *asdir)
{
	char *dir = NULL, *path = NULL, *tmp = NULL;
	char plugin_real[PATH_MAX], as_real[PATH_MAX];
	const char *why = "cannot read the tools";
	uint64_t c, h;

	if (hash_tools(plugin, asdir, &c, plugin_real, as_real))
		goto fail;
	h = c;
	hash_text(plugin_real, &h);
	hash_text(as_real, &h);

	why = "no private cache directory";
	dir = kcfi_cache_dir();
	if (!dir || asprintf(&path, "%s/tools-%016llx-%016llx.h", dir, (unsigned long long)c,
			     (unsigned long long)h) < 0)
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
	free(dir);
	free(tmp);
	return path;
fail:
	fprintf(stderr, "kcfi-gcc: warning: %s%s%s; ccache, if used, cannot see a "
		"change of the plugin or kcfi-as, nor a distcc host another version of them\n",
		why, dir ? " in " : "", dir ? dir : "");
	free(dir);
	free(path);
	free(tmp);
	return NULL;
}

/* The witness named by the leading line markers of preprocessed FILE:
 * 2 with its C in *C, 1 for one of the older name without C, 0 if none. */
static int find_witness(const char *file, uint64_t *c)
{
	FILE *f = fopen(file, "r");
	if (!f)
		return 0;
	char line[PATH_MAX + 64];
	int found = 0;
	/* Our -include comes before every other, so its markers are among the
	 * first lines, before any line of code. */
	for (int i = 0; i < 64 && !found && fgets(line, sizeof(line), f); i++) {
		if (line[0] == '\n')
			continue;
		if (line[0] != '#')
			break;
		char *q = strchr(line, '"'), *e = q ? strchr(q + 1, '"') : NULL;
		if (!e)
			continue;
		*e = '\0';
		char *base = strrchr(q + 1, '/');
		base = base ? base + 1 : q + 1;
		unsigned long long cc, pp;
		int len = 0;
		if (sscanf(base, "tools-%16llx-%16llx.h%n", &cc, &pp, &len) == 2 &&
		    len == 6 + 16 + 1 + 16 + 2 && !base[len]) {
			*c = cc;
			found = 2;
		} else if (sscanf(base, "tools-%16llx.h%n", &cc, &len) == 1 &&
			   len == 6 + 16 + 2 && !base[len]) {
			found = 1;
		}
	}
	fclose(f);
	return found;
}

int witness_verify(const char *file, const char *plugin, const char *asdir)
{
	uint64_t theirs = 0, ours;
	char plugin_real[PATH_MAX], as_real[PATH_MAX];
	int w = find_witness(file, &theirs);
	if (!w)
		return 0;
	if (hash_tools(plugin, asdir, &ours, plugin_real, as_real)) {
		fprintf(stderr, "kcfi-gcc: error: %s was preprocessed by kcfi-gcc, "
			"whose tools cannot be compared with these: cannot read %s or %s/as\n",
			file, plugin, asdir);
		return 1;
	}
	if (w == 2 && theirs == ours)
		return 0;
	char buf[32] = "an older version";
	if (w == 2)
		snprintf(buf, sizeof(buf), "%016llx", (unsigned long long)theirs);
	fprintf(stderr, "kcfi-gcc: error: %s was preprocessed by a kcfi-gcc with other tools "
		"(%s) than this one's %s, %s and kcfi-gcc (%016llx): their type ids and "
		"checks could differ; compile it where it was preprocessed "
		"(with distcc: the same kcfi-as on every host)\n",
		file, buf, plugin_real, as_real, (unsigned long long)ours);
	return 1;
}
