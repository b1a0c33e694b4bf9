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
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "asmpass/finish-asm.h"
#include "asmpass/tool-witness.h"

struct args {
	char **v;
	int n;
};

static void push(struct args *a, const char *s)
{
	a->v = realloc(a->v, (size_t)(a->n + 2) * sizeof(char *));
	if (!a->v)
		abort();
	a->v[a->n++] = (char *)s;
	a->v[a->n] = NULL;
}

static char *xstrdup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xstrdup_printf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	return s;
}

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

/* Run CMD ARG and return the first line of its standard output. */
static char *capture(const char *cmd, const char *arg)
{
	int p[2];
	if (pipe(p))
		return NULL;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execlp(cmd, cmd, arg, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	char buf[PATH_MAX];
	ssize_t n, len = 0;
	while ((n = read(p[0], buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
		len += n;
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || len <= 0)
		return NULL;
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return strdup(buf);
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

/* Filter a -f[no-]sanitize= list: drop "kcfi", report whether it (or "all"
 * for the negative form) was present, return what is left or NULL. */
static char *strip_kcfi(const char *list, bool negative, bool *hit)
{
	char *copy = strdup(list), *out = calloc(1, strlen(list) + 1), *save;
	if (!copy || !out)
		abort();
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (!strcmp(w, "kcfi") || (negative && !strcmp(w, "all")))
			*hit = true;
		if (!strcmp(w, "kcfi"))
			continue;
		if (*out)
			strcat(out, ",");
		strcat(out, w);
	}
	free(copy);
	if (!*out) {
		free(out);
		return NULL;
	}
	return out;
}

/* Options after which GCC prints x86 assembly kcfi-as cannot instrument;
 * the last of each kind counts, as for GCC. */
struct x86_opts {
	const char *masm;		/* -masm= value */
	const char *mode;		/* -m16, -m32, -mx32 or -m64 */
	const char *cmodel;		/* -mcmodel= value */
	const char *instrument_return;	/* -minstrument-return= value */
	const char *profile;		/* -pg or -p */
	const char *indirect_branch;	/* -mindirect-branch= value */
};

static void x86_note(struct x86_opts *o, const char *a)
{
	if (!strncmp(a, "-masm=", 6))
		o->masm = a + 6;
	else if (!strcmp(a, "-m16") || !strcmp(a, "-m32") || !strcmp(a, "-mx32") || !strcmp(a, "-m64"))
		o->mode = a;
	else if (!strncmp(a, "-mcmodel=", 9))
		o->cmodel = a + 9;
	else if (!strncmp(a, "-minstrument-return=", 20))
		o->instrument_return = a + 20;
	else if (!strcmp(a, "-pg") || !strcmp(a, "-p"))
		o->profile = a;
	else if (!strncmp(a, "-mindirect-branch=", 18))
		o->indirect_branch = a + 18;
}

static bool x86_32_mode(const char *triple, const char *mode);

/* One line saying why, or 0 if kcfi-as can handle what GCC will print
 * for TRIPLE. */
static int x86_refuse(const struct x86_opts *o, const char *triple)
{
	const char *why = NULL, *what = NULL;
	char both[64];
	if (o->masm && strcmp(o->masm, "att") != 0) {
		what = o->masm - 6;
		why = "kcfi-as reads AT&T syntax";
	} else if (o->mode && !strcmp(o->mode, "-mx32")) {
		what = o->mode;
		why = "kcfi-as has no backend for x32, 64-bit code with 32-bit pointers; "
		      "-m32 and -m64 have one";
	} else if (o->mode && !strcmp(o->mode, "-m16")) {
		what = o->mode;
		why = "kcfi-as has no backend for 16-bit code";
	} else if (o->profile && o->cmodel && !strcmp(o->cmodel, "large")) {
		snprintf(both, sizeof(both), "%s with -mcmodel=large", o->profile);
		what = both;
		why = "GCC calls the profiler through a register, unannotated";
	} else if (o->indirect_branch && !strcmp(o->indirect_branch, "thunk-inline") &&
		   x86_32_mode(triple, o->mode)) {
		what = o->indirect_branch - 18;
		why = "with -m32: kcfi-as reads GCC's inline retpoline in 64-bit code only; "
		      "-mindirect-branch=thunk and thunk-extern work";
	} else if (o->instrument_return && strcmp(o->instrument_return, "none") != 0) {
		what = o->instrument_return - 20;
		why = "GCC puts it between a check and the tail call the check guards";
	}
	if (!what)
		return 0;
	fprintf(stderr, "kcfi-gcc: error: %s is not supported with -fsanitize=kcfi (%s)\n",
		what, why);
	return 1;
}

static bool x86_triple(const char *t)
{
	return !strncmp(t, "x86_64", 6) || !strncmp(t, "amd64", 5) ||
	       (t[0] == 'i' && t[1] >= '3' && t[1] <= '7' && !strncmp(t + 2, "86", 2));
}

/* Does the compiler make 32-bit x86 code: -m32, or an i386 triple without
 * -m64 (or -mx32, refused in x86_refuse)? */
static bool x86_32_mode(const char *triple, const char *mode)
{
	if (!x86_triple(triple))
		return false;
	if (mode)
		return !strcmp(mode, "-m32");
	return triple[0] == 'i';
}

/* Everything one invocation needs, filled step by step by main(). */
struct driver {
	char *cc;		/* the compiler this wraps */
	char *triple;		/* its target: picks the plugin */
	char *major;		/* its GCC major version: picks the plugin too */
	struct args user;	/* the command line minus what is ours */
	struct x86_opts x86;
	const char *hash;	/* -fsanitize-kcfi-hash= value */
	bool enabled, normalize, cs_prefix, assembles, preprocess_only;
	bool requested;		/* -fsanitize=kcfi appeared, even if later turned off */
	bool extern_stubs;	/* -fsanitize-kcfi-extern-stubs (doc/extern-stubs.md) */
	bool help, version;
	bool asm_only;		/* -S */
	bool no_link;		/* -c, -S, -E, -fsyntax-only, -M, -MM */
	bool annotated;		/* -fsanitize-kcfi-annotated-asm: -S gives kcfi-as's input */
	bool user_wrapper;	/* -wrapper: theirs, so -S cannot use ours */
	const char *march;	/* the last -march=, which kcfi-as reads as gas would */
	char *plugin;		/* the plugin for cc */
	char *asdir;		/* the directory whose `as` is kcfi-as */
};

/* <triple>-kcfi-gcc[-N] -> <triple>-gcc[-N]; the triple picks the plugin. */
static void name_compiler(struct driver *d, const char *argv0)
{
	const char *base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	const char *k = strstr(base, "kcfi-");
	d->cc = getenv("KCFI_CC") ? strdup(getenv("KCFI_CC")) :
		k ? xstrdup_printf("%.*s%s", (int)(k - base), base, k + 5) : strdup("gcc");
	if (k && k > base && k[-1] == '-')
		d->triple = xstrdup_printf("%.*s", (int)(k - base - 1), base);
	else if (getenv("KCFI_CC"))
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
	else if (getenv("KCFI_CC") && (d->major = capture(d->cc, "-dumpversion")))
		d->major[strcspn(d->major, ".")] = '\0';
	else
		d->major = strdup(KCFI_DEFAULT_GCC_MAJOR);
}

static bool x86_32(const struct driver *d)
{
	return x86_32_mode(d->triple, d->x86.mode);
}

/* Typed stubs for library functions (doc/extern-stubs.md) serve programs
 * linked against uninstrumented libraries; where that cannot be what the
 * user means, say so rather than build something else. */
static bool extern_stubs_possible(const struct driver *d)
{
	const char *why = NULL;
	if (!d->extern_stubs)
		return true;
	/* A later -fno-sanitize=kcfi (or =all, as test suites append to build
	 * their probes plainly) turns the mode off with KCFI, like any other
	 * sub-option of a sanitizer; the mode alone is a mistake worth naming. */
	if (!d->requested)
		why = "it needs -fsanitize=kcfi";
	else if (!d->enabled)
		return true;
	else if (d->x86.cmodel && !strcmp(d->x86.cmodel, "kernel"))
		why = "kernel code calls no uninstrumented library, and a stub's "
		      "jump through the GOT is not kernel code";
	else if (d->x86.cmodel && !strcmp(d->x86.cmodel, "large"))
		why = "a stub reaches the GOT with a 32-bit displacement, "
		      "which -mcmodel=large does not promise";
	else if (x86_32(d))
		why = "not on i386 (-m32): a stub would need the GOT pointer in %ebx, "
		      "which nothing sets up on the way in from a function pointer";
	if (!why)
		return true;
	fprintf(stderr, "kcfi-gcc: error: -fsanitize-kcfi-extern-stubs: %s\n", why);
	return false;
}

/* Take our options off the command line; keep the rest for the compiler.
 * False (after a message) for an option value we cannot honour. */
static bool read_options(struct driver *d, int argc, char **argv)
{
	d->assembles = true;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool hit = false;
		if (!strncmp(a, "-fsanitize=", 11)) {
			char *rest = strip_kcfi(a + 11, false, &hit);
			if (hit)
				d->enabled = d->requested = true;
			if (rest)
				push(&d->user, xstrdup_printf("-fsanitize=%s", rest));
			continue;
		}
		if (!strncmp(a, "-fno-sanitize=", 14)) {
			char *rest = strip_kcfi(a + 14, true, &hit);
			if (hit)
				d->enabled = false;
			if (rest)
				push(&d->user, xstrdup_printf("-fno-sanitize=%s", rest));
			continue;
		}
		if (!strncmp(a, "-fsanitize-trap=", 16) || !strncmp(a, "-fsanitize-recover=", 19) ||
		    !strncmp(a, "-fno-sanitize-recover=", 22)) {
			/* KCFI always traps; keep what the list says about others. */
			const char *eq = strchr(a, '=') + 1;
			char *rest = strip_kcfi(eq, false, &hit);
			if (rest)
				push(&d->user, xstrdup_printf("%.*s%s", (int)(eq - a), a, rest));
			continue;
		}
		if (!strncmp(a, "-fsanitize-kcfi-hash=", 21)) {
			d->hash = a + 21;
			if (strcmp(d->hash, "FNV-1a") && strcmp(d->hash, "xxHash64")) {
				fprintf(stderr, "kcfi-gcc: unknown -fsanitize-kcfi-hash '%s' "
					"(FNV-1a or xxHash64)\n", d->hash);
				return false;
			}
			continue;
		}
		if (!strcmp(a, "-fsanitize-cfi-icall-experimental-normalize-integers")) {
			d->normalize = true;
			continue;
		}
		if (!strcmp(a, "-fsanitize-kcfi-extern-stubs") ||
		    !strcmp(a, "-fno-sanitize-kcfi-extern-stubs")) {
			d->extern_stubs = a[2] != 'n';
			continue;
		}
		if (!strcmp(a, "-fsanitize-kcfi-annotated-asm")) {
			d->annotated = true;
			continue;
		}
		if (!strcmp(a, "-fsanitize-kcfi-arity")) {
			fprintf(stderr, "kcfi-gcc: -fsanitize-kcfi-arity is not supported "
				"(Linux 6.12 decodes only the plain KCFI preamble)\n");
			return false;
		}
		if (!strcmp(a, "-mindirect-branch-cs-prefix"))
			d->cs_prefix = true;
		x86_note(&d->x86, a);
		if (!strcmp(a, "-E"))
			d->preprocess_only = true;
		if (!strcmp(a, "-E") || !strcmp(a, "-S") || !strcmp(a, "-fsyntax-only") ||
		    !strcmp(a, "-M") || !strcmp(a, "-MM"))
			d->assembles = false;
		if (!d->assembles || !strcmp(a, "-c"))
			d->no_link = true;
		if (!strcmp(a, "-S"))
			d->asm_only = true;
		if (!strcmp(a, "-wrapper"))
			d->user_wrapper = true;
		if (!strncmp(a, "-march=", 7))
			d->march = a;
		if (!strcmp(a, "--help"))
			d->help = true;
		if (!strcmp(a, "--version"))
			d->version = true;
		push(&d->user, a);
	}
	return extern_stubs_possible(d);
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
static bool locate_tools(struct driver *d, bool quiet)
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
	d->plugin = getenv("KCFI_PLUGIN") ? strdup(getenv("KCFI_PLUGIN")) :
		    xstrdup_printf("%s/prepass/plugins/%s/kcfi.so", self, sub);
	d->asdir = xstrdup_printf("%s/asmpass/bin", self);
	if (!getenv("KCFI_PLUGIN") && !exists(d->plugin)) {
		char *up = updirs(KCFI_BINDIR, KCFI_PKGLIBDIR);
		free(d->plugin);
		d->plugin = xstrdup_printf("%s/%s%s/kcfi.so", self, up, sub);
		free(up);
		up = updirs(KCFI_BINDIR, KCFI_PKGLIBEXECDIR);
		free(d->asdir);
		d->asdir = xstrdup_printf("%s/%sbin", self, up);
		free(up);
		if (!exists(d->plugin)) {
			free(d->plugin);
			d->plugin = xstrdup_printf("%s/%s/kcfi.so", KCFI_PKGLIBDIR, sub);
			free(d->asdir);
			d->asdir = xstrdup_printf("%s/bin", KCFI_PKGLIBEXECDIR);
		}
	}
	free(sub);
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

/* Tell kcfi-as which assembler this compiler would have run. */
static void pass_real_as(const struct driver *d)
{
	if (!d->assembles || getenv("KCFI_REAL_AS"))
		return;
	char *as = capture(d->cc, "-print-prog-name=as");
	if (as && (strchr(as, '/') || strcmp(as, "as") != 0))
		setenv("KCFI_REAL_AS", as, 1);
	free(as);
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
	/* kcfi-as picks the x86 backend by the assembler's mode as gas does;
	 * the driver passes that to as, not to cc1. */
	const char *mode = !x86_triple(d->triple) || !d->x86.mode ? "" :
			   !strcmp(d->x86.mode, "-m32") ? ",--32" :
			   !strcmp(d->x86.mode, "-m64") ? ",--64" : "";
	char *w = xstrdup_printf("%s,%s,--kcfi-as=%s/as%s%s%s%s%s%s,--", self, FINISH_ASM_OPTION,
				 d->asdir, mode,
				 d->hash && !strcmp(d->hash, "xxHash64") ? ",--kcfi-hash=xxhash64" : "",
				 d->normalize ? ",--kcfi-normalize-integers" : "",
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
	if (d->extern_stubs)
		push(out, "-fplugin-arg-kcfi-extern-stubs");
	if (d->cs_prefix)
		push(out, "-Wa,--kcfi-cs-prefix");
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
	       "kcfi options:\n"
	       "  -fsanitize=kcfi          instrument: type ids on functions, checks on\n"
	       "                           indirect calls (-fno-sanitize=kcfi: off again)\n"
	       "  -fsanitize-kcfi-hash=FNV-1a|xxHash64\n"
	       "                           type-id hash (default FNV-1a; xxHash64 = Clang <= 21,\n"
	       "                           rustc)\n"
	       "  -fsanitize-cfi-icall-experimental-normalize-integers\n"
	       "                           Clang's integer normalization (Rust-enabled kernels)\n"
	       "  -fsanitize-kcfi-extern-stubs\n"
	       "                           address-taken functions the unit only declares\n"
	       "                           (libc's) are reached through typed stubs\n"
	       "                           (doc/extern-stubs.md; -fno-...: off again)\n"
	       "  -fsanitize-kcfi-annotated-asm\n"
	       "                           -S writes the plugin's annotated assembly (what\n"
	       "                           kcfi-as reads) instead of the finished assembly\n"
	       "  -mindirect-branch-cs-prefix\n"
	       "                           also cs-prefixes the retpoline calls of the checks\n"
	       "Environment: KCFI_CC (the compiler), KCFI_PLUGIN (the plugin),\n"
	       "KCFI_REAL_AS (the assembler behind kcfi-as).\n\n"
	       "The options of %s follow.\n\n", d->cc, d->cc);
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
	if (d.enabled && x86_triple(d.triple) && x86_refuse(&d.x86, d.triple))
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
