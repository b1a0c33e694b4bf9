/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-gcc: the compiler it wraps (from its own name or $KCFI_CC), and the
 * plugin and kcfi-as's directory for that compiler. */
#include "config.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver/driver.h"

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

/* Run CMD ARG and return the first line of its standard output. */
static char *capture(const char *cmd, const char *arg)
{
	char *argv[] = { (char *)cmd, (char *)arg, NULL };
	char *out = capture_argv(argv, false, NULL);
	if (out)
		out[strcspn(out, "\n")] = '\0';
	return out;
}

/* The relative path from directory FROM to directory TO, with a trailing
 * slash ("../lib/kcfi-as/"); both absolute, as configure writes them. */
static char *updirs(const char *from, const char *to)
{
	size_t i = 0, c = 0;	/* c: end of the common whole components */
	while (from[i] && from[i] == to[i])
		if (from[i++] == '/')
			c = i - 1;
	if ((!from[i] || from[i] == '/') && (!to[i] || to[i] == '/'))
		c = i;
	unsigned ups = 0;
	for (const char *p = from + c; *p; p++)
		if (*p == '/' && p[1])
			ups++;
	const char *rest = to[c] == '/' ? to + c + 1 : to + c;
	char *s = calloc(1, 3 * ups + strlen(rest) + 2);
	if (!s)
		abort();
	for (unsigned u = 0; u < ups; u++)
		strcat(s, "../");
	if (*rest) {
		strcat(s, rest);
		strcat(s, "/");
	}
	return s;
}

/* <triple>-kcfi-gcc[-N] -> <triple>-gcc[-N]; the triple picks the plugin. */
void name_compiler(struct driver *d, const char *argv0)
{
	const char *base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	const char *k = strstr(base, "kcfi-");
	d->cc = env_value("KCFI_CC") ? strdup(env_value("KCFI_CC")) :
		k ? xstrdup_printf("%.*s%s", (int)(k - base), base, k + 5) : strdup("gcc");
	if (k && k > base && k[-1] == '-')
		d->triple = xstrdup_printf("%.*s", (int)(k - base - 1), base);
	else if (env_value("KCFI_CC"))
		d->triple = capture(d->cc, "-dumpmachine");
	if (!d->triple)
		d->triple = strdup(KCFI_NATIVE_TRIPLE);
	/* gcc-N (and <triple>-gcc-N) is GCC N; another $KCFI_CC says which
	 * it is; plain gcc is the one configure built the default plugin for. */
	const char *cb = strrchr(d->cc, '/');
	cb = cb ? cb + 1 : d->cc;
	const char *dash = strrchr(cb, '-');
	if (dash && dash[1] && strspn(dash + 1, "0123456789") == strlen(dash + 1))
		d->major = strdup(dash + 1);
	else if (env_value("KCFI_CC") && (d->major = capture(d->cc, "-dumpversion")))
		d->major[strcspn(d->major, ".")] = '\0';
	else
		d->major = strdup(KCFI_DEFAULT_GCC_MAJOR);
}

/* The GCC major a plugin was built for, by where it lies: .../gcc-N/kcfi.so
 * is GCC N's, .../TRIPLE/kcfi.so the default GCC's; elsewhere unknown. */
static const char *plugin_major(const char *plugin, const char *triple)
{
	static char buf[16];
	const char *end = strrchr(plugin, '/'), *dir;
	if (!end)
		return NULL;
	for (dir = end; dir > plugin && dir[-1] != '/'; dir--)
		;
	size_t n = (size_t)(end - dir);
	if (n > 4 && n - 4 < sizeof(buf) && !strncmp(dir, "gcc-", 4) &&
	    strspn(dir + 4, "0123456789") == n - 4) {
		memcpy(buf, dir + 4, n - 4);
		buf[n - 4] = '\0';
		return buf;
	}
	if (n == strlen(triple) && !strncmp(dir, triple, n))
		return KCFI_DEFAULT_GCC_MAJOR;
	return NULL;
}

/* The plugin and the `as` directory: next to us in the build tree, else at
 * the configured install paths taken relative to our own directory (a
 * DESTDIR or prefix= install runs where it lies), else the configured
 * paths themselves.  The plugin of the default GCC is TRIPLE/kcfi.so, that
 * of another major N is TRIPLE/gcc-N/kcfi.so.  $KCFI_PLUGIN overrides the
 * plugin; one under a gcc-N/ directory must still be for the compiler's N. */
bool locate_tools(struct driver *d, bool quiet)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0) {
		perror("kcfi-gcc: /proc/self/exe");
		return false;
	}
	self[n] = '\0';
	*strrchr(self, '/') = '\0';

	bool other = strcmp(d->major, KCFI_DEFAULT_GCC_MAJOR) != 0;
	char *sub = other ? xstrdup_printf("%s/gcc-%s", d->triple, d->major) :
			    strdup(d->triple);
	/* The trees we may run from, in order: the build tree, the installed
	 * one relative to us, the configured paths. */
	char *up_lib = updirs(KCFI_BINDIR, KCFI_PKGLIBDIR);
	char *up_exec = updirs(KCFI_BINDIR, KCFI_PKGLIBEXECDIR);
	char *plugins[3] = {
		xstrdup_printf("%s/prepass/plugins/%s/kcfi.so", self, sub),
		xstrdup_printf("%s/%s%s/kcfi.so", self, up_lib, sub),
		xstrdup_printf("%s/%s/kcfi.so", KCFI_PKGLIBDIR, sub),
	};
	char *asdirs[3] = {
		xstrdup_printf("%s/asmpass/bin", self),
		xstrdup_printf("%s/%sbin", self, up_exec),
		xstrdup_printf("%s/bin", KCFI_PKGLIBEXECDIR),
	};
	free(up_lib);
	free(up_exec);
	free(sub);
	/* The tree is the first with the plugin, or, when $KCFI_PLUGIN names
	 * the plugin, the first with our `as`: an installed kcfi-gcc given a
	 * plugin still runs its own kcfi-as, not the build tree's. */
	const char *env = env_value("KCFI_PLUGIN");
	int t = 0;
	for (; t < 2; t++) {
		char *as = env ? xstrdup_printf("%s/as", asdirs[t]) : NULL;
		bool here = exists(env ? as : plugins[t]);
		free(as);
		if (here)
			break;
	}
	d->plugin = env ? strdup(env) : plugins[t];
	d->asdir = asdirs[t];
	for (int i = 0; i < 3; i++) {
		if (i != t || env)
			free(plugins[i]);
		if (i != t)
			free(asdirs[i]);
	}
	if (!exists(d->plugin)) {
		if (quiet)
			return false;
		fprintf(stderr, "kcfi-gcc: no kcfi plugin for %s (GCC %s, %s) at %s "
			"(was kcfi-as built for this compiler? configure builds one "
			"for each gcc-N it finds with g++-N and gcc-N-plugin-dev)\n",
			d->cc, d->major, d->triple, d->plugin);
		return false;
	}
	/* A plugin of another GCC fails in cc1 with an undefined C++ symbol
	 * (KCFI_PLUGIN, or a gcc that is not the version its name says);
	 * where the path tells the plugin's version, say what is wrong. */
	const char *pm = plugin_major(d->plugin, d->triple);
	if (pm && strcmp(pm, d->major)) {
		fprintf(stderr, "kcfi-gcc: the kcfi plugin %s is for GCC %s, but %s "
			"is GCC %s\n", d->plugin, pm, d->cc, d->major);
		return false;
	}
	return true;
}
