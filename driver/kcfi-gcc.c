/* SPDX-License-Identifier: GPL-2.0-or-later */
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
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver/finish-asm.h"
#include "driver/tool-witness.h"

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

/* Run ARGV and return all it writes to standard output, NUL-terminated
 * (*LEN: its length), or NULL if it did not exit with 0 or wrote nothing.
 * C_LOCALE: untranslated, for output we parse. */
static char *capture_argv(char *const argv[], bool c_locale, size_t *len)
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

/* Code-generation options kcfi-gcc must see before it runs GCC: some make
 * x86 assembly kcfi-as cannot instrument (x86_refuse), and -mcmodel decides,
 * on any target, whether -fsanitize-kcfi-extern-stubs can work.  The last
 * of each kind counts, as for GCC. */
struct codegen_opts {
	const char *masm;		/* -masm= value */
	const char *mode;		/* -m16, -m32, -mx32 or -m64 */
	const char *cmodel;		/* -mcmodel= value */
	const char *instrument_return;	/* -minstrument-return= value */
	const char *profile;		/* -pg or -p */
	const char *indirect_branch;	/* -mindirect-branch= value */
};

static void codegen_note(struct codegen_opts *o, const char *a)
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
	struct args search;	/* the user's options that move GCC's program search */
	struct args preprocessed;	/* inputs already preprocessed (.i, .ii, -x cpp-output) */
	struct codegen_opts codegen;
	const char *hash;	/* -fsanitize-kcfi-hash= value */
	bool enabled, normalize, cs_prefix, assembles, preprocess_only;
	bool generalize;	/* -fsanitize-cfi-icall-generalize-pointers */
	bool arity;		/* -fsanitize-kcfi-arity */
	bool plugin_arity;	/* ... and the plugin is to write arities */
	bool requested;		/* -fsanitize=kcfi appeared, even if later turned off */
	bool extern_stubs;	/* -fsanitize-kcfi-extern-stubs (doc/extern-stubs.md) */
	/* -Wkcfi-cast (GCC knows no such warning, so none of these reach it):
	 * warn_cast by -W[no-]kcfi-cast, cast_error by -W[no-]error=kcfi-cast,
	 * werror by a plain -Werror, which GCC gets as well. */
	bool warn_cast, cast_error, cast_no_error, werror;
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
	return x86_32_mode(d->triple, d->codegen.mode);
}

/* One line saying why, or 0 if kcfi-as can handle what GCC will print. */
static int x86_refuse(const struct driver *d)
{
	const struct codegen_opts *o = &d->codegen;
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
		   x86_32(d)) {
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

/* -fsanitize-kcfi-arity as Clang 22 takes it: for 64-bit Linux targets
 * only, and only x86_64's preamble has a place for the arity (aarch64 and
 * riscv64 accept the option and emit what they would without it). */
enum arity_policy { ARITY_REFUSED, ARITY_IGNORED, ARITY_WRITTEN };

/* What differs between families of targets, in one place rather than in
 * tests of the triple wherever an option is handled. */
struct target_policy {
	bool (*is)(const struct driver *d);	/* NULL: every target */
	/* Options after which GCC prints code kcfi-as cannot instrument:
	 * nonzero after one line saying why. */
	int (*refuse)(const struct driver *d);
	/* Linux rewrites checked retpoline calls for FineIBT assuming their
	 * target is in this register, so kcfi-as moves every other target
	 * there; the plugin lets the register allocator put it there first
	 * (prepass/call-reg.cc), as LLVM does: 3 bytes less a check. */
	const char *retpoline_call_reg;
	enum arity_policy arity;
	/* Typed stubs for library functions (doc/extern-stubs.md): why they
	 * cannot work for this target, if they cannot. */
	const char *no_extern_stubs;
	bool as_mode;		/* -m32/-m64 pick kcfi-as's backend, as gas's mode */
	const char *mode_option;	/* picks this family on another's compiler */
};

/* -mx32 and -m16 count here, where x86_refuse names them. */
static bool is_x86_64(const struct driver *d)
{
	return x86_triple(d->triple) && !x86_32(d);
}

static bool is_i386(const struct driver *d)
{
	return x86_32(d);
}

static bool is_aarch64(const struct driver *d)
{
	return !strncmp(d->triple, "aarch64", 7);
}

static bool is_riscv64(const struct driver *d)
{
	return !strncmp(d->triple, "riscv64", 7);
}

static const struct target_policy targets[] = {
	{ .is = is_x86_64, .refuse = x86_refuse, .retpoline_call_reg = "r11",
	  .arity = ARITY_WRITTEN, .as_mode = true },
	{ .is = is_i386, .refuse = x86_refuse, .arity = ARITY_REFUSED,
	  .no_extern_stubs = "not on i386 (-m32): a stub would need the GOT pointer in %ebx, "
			     "which nothing sets up on the way in from a function pointer",
	  .as_mode = true, .mode_option = "-m32" },
	{ .is = is_aarch64, .arity = ARITY_IGNORED },
	{ .is = is_riscv64, .arity = ARITY_IGNORED },
	/* arm, and targets kcfi-as has no backend for. */
	{ .is = NULL, .arity = ARITY_REFUSED },
};

static const struct target_policy *target_of(const struct driver *d)
{
	const struct target_policy *t = targets;
	while (t->is && !t->is(d))
		t++;
	return t;
}

/* The register the check reads a retpoline call's target from, if the
 * plugin is to load it there. */
static const char *retpoline_call_reg(const struct driver *d)
{
	const char *ib = d->codegen.indirect_branch;
	if (!ib || !strncmp(ib, "keep", 5))
		return NULL;
	return target_of(d)->retpoline_call_reg;
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
	else if (d->codegen.cmodel && !strcmp(d->codegen.cmodel, "kernel"))
		why = "kernel code calls no uninstrumented library, and a stub's "
		      "jump through the GOT is not kernel code";
	else if (d->codegen.cmodel && !strcmp(d->codegen.cmodel, "large"))
		why = "a stub reaches the GOT with a 32-bit displacement, "
		      "which -mcmodel=large does not promise";
	else
		why = target_of(d)->no_extern_stubs;
	if (!why)
		return true;
	fprintf(stderr, "kcfi-gcc: error: -fsanitize-kcfi-extern-stubs: %s\n", why);
	return false;
}

/* True if the plugin is to write arities (see enum arity_policy). */
static bool arity_wanted(const struct driver *d, bool *refused)
{
	*refused = false;
	if (!d->arity || !d->enabled)
		return false;
	const struct target_policy *t = target_of(d);
	if (t->arity != ARITY_REFUSED)
		return t->arity == ARITY_WRITTEN;
	fprintf(stderr, "kcfi-gcc: error: target '%s'%s%s is unsupported by "
		"-fsanitize-kcfi-arity (as with Clang: 64-bit Linux targets only)\n",
		d->triple, t->mode_option && d->codegen.mode ? " with " : "",
		t->mode_option && d->codegen.mode ? t->mode_option : "");
	*refused = true;
	return false;
}

/* Take our options off the command line; keep the rest for the compiler.
 * False (after a message) for an option value we cannot honour. */
static bool read_options(struct driver *d, int argc, char **argv)
{
	d->assembles = true;
	const char *lang = NULL;	/* the last -x */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool hit = false;
		if (!strcmp(a, "-x") && i + 1 < argc)
			lang = argv[i + 1];
		else if (!strncmp(a, "-x", 2) && a[2])
			lang = a + 2;
		else if (a[0] != '-' && strcmp(argv[i - 1], "-o") &&
			 strcmp(argv[i - 1], "-x")) {
			const char *dot = strrchr(a, '.');
			bool pre = lang && strcmp(lang, "none") ?
				   !strcmp(lang, "cpp-output") || !strcmp(lang, "c++-cpp-output") :
				   dot && (!strcmp(dot, ".i") || !strcmp(dot, ".ii"));
			if (pre)
				push(&d->preprocessed, a);
		}
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
		if (!strcmp(a, "-fsanitize-cfi-icall-generalize-pointers")) {
			d->generalize = true;
			continue;
		}
		if (!strcmp(a, "-fsanitize-kcfi-extern-stubs") ||
		    !strcmp(a, "-fno-sanitize-kcfi-extern-stubs")) {
			d->extern_stubs = a[2] != 'n';
			continue;
		}
		if (!strcmp(a, "-Wkcfi-cast") || !strcmp(a, "-Wno-kcfi-cast")) {
			d->warn_cast = a[2] != 'n';
			continue;
		}
		if (!strcmp(a, "-Werror=kcfi-cast")) {
			d->warn_cast = d->cast_error = true;	/* as GCC's -Werror=X */
			d->cast_no_error = false;
			continue;
		}
		if (!strcmp(a, "-Wno-error=kcfi-cast")) {
			d->cast_error = false;
			d->cast_no_error = true;
			continue;
		}
		if (!strcmp(a, "-Werror"))
			d->werror = true;
		if (!strcmp(a, "-Wno-error"))
			d->werror = false;
		if (!strcmp(a, "-fsanitize-kcfi-annotated-asm")) {
			d->annotated = true;
			continue;
		}
		if (!strcmp(a, "-fsanitize-kcfi-arity")) {
			d->arity = true;
			continue;
		}
		if (!strcmp(a, "-mindirect-branch-cs-prefix"))
			d->cs_prefix = true;
		if (!strncmp(a, "-B", 2) || !strncmp(a, "--prefix", 8) ||
		    !strcmp(a, "-no-canonical-prefixes")) {
			push(&d->search, a);
			if ((!strcmp(a, "-B") || !strcmp(a, "--prefix")) && i + 1 < argc)
				push(&d->search, argv[i + 1]);
		}
		codegen_note(&d->codegen, a);
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
	const char *env = getenv("KCFI_PLUGIN");
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
static void pass_real_as(const struct driver *d)
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

/* kcfi-as's option for -Wkcfi-cast, or NULL. */
static const char *warn_cast_option(const struct driver *d)
{
	if (!d->warn_cast)
		return NULL;
	return d->cast_error || (d->werror && !d->cast_no_error) ? "--kcfi-warn-cast=error"
								  : "--kcfi-warn-cast";
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
	/* The driver passes the mode to as, not to cc1. */
	const char *mode = !target_of(d)->as_mode || !d->codegen.mode ? "" :
			   !strcmp(d->codegen.mode, "-m32") ? ",--32" :
			   !strcmp(d->codegen.mode, "-m64") ? ",--64" : "";
	const char *warn = warn_cast_option(d);
	char *w = xstrdup_printf("%s,%s,--kcfi-as=%s/as%s%s%s%s%s%s%s%s%s,--", self,
				 FINISH_ASM_OPTION, d->asdir, mode, warn ? "," : "", warn ? warn : "",
				 d->hash && !strcmp(d->hash, "xxHash64") ? ",--kcfi-hash=xxhash64" : "",
				 d->normalize ? ",--kcfi-normalize-integers" : "",
				 d->generalize ? ",--kcfi-generalize-pointers" : "",
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
	if (d->generalize) {
		push(out, "-Wa,--kcfi-generalize-pointers");
		push(out, "-fplugin-arg-kcfi-generalize-pointers");
	}
	if (d->extern_stubs)
		push(out, "-fplugin-arg-kcfi-extern-stubs");
	if (d->plugin_arity)
		push(out, "-fplugin-arg-kcfi-arity");
	const char *call_reg = retpoline_call_reg(d);
	if (call_reg)
		push(out, xstrdup_printf("-fplugin-arg-kcfi-call-reg=%s", call_reg));
	if (d->cs_prefix)
		push(out, "-Wa,--kcfi-cs-prefix");
	if (warn_cast_option(d))
		push(out, xstrdup_printf("-Wa,%s", warn_cast_option(d)));
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
	       "  -fsanitize-kcfi-arity    x86_64: the preamble's register tells how many\n"
	       "                           argument registers the function has (Linux\n"
	       "                           FineIBT-BHI, cfi=fineibt,bhi)\n"
	       "  -fsanitize-cfi-icall-generalize-pointers\n"
	       "                           Clang 22's generalized ids: pointers in function\n"
	       "                           types count as void pointers\n"
	       "  -fsanitize-kcfi-extern-stubs\n"
	       "                           address-taken functions the unit only declares\n"
	       "                           (libc's) are reached through typed stubs\n"
	       "                           (doc/extern-stubs.md; -fno-...: off again)\n"
	       "  -fsanitize-kcfi-annotated-asm\n"
	       "                           -S writes the plugin's annotated assembly (what\n"
	       "                           kcfi-as reads) instead of the finished assembly\n"
	       "  -mindirect-branch-cs-prefix\n"
	       "                           also cs-prefixes the retpoline calls of the checks\n"
	       "  -Wkcfi-cast              warn where a function's address becomes a pointer\n"
	       "                           with another type id (-Wno-kcfi-cast: off again;\n"
	       "                           -Werror=kcfi-cast: an error)\n"
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
	if (d.enabled && target_of(&d)->refuse && target_of(&d)->refuse(&d))
		_exit(1);
	bool arity_refused;
	d.plugin_arity = arity_wanted(&d, &arity_refused);
	if (arity_refused)
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
	/* Preprocessed elsewhere (distcc): only with the same tools. */
	if (d.enabled && d.plugin && !d.preprocess_only)
		for (int i = 0; i < d.preprocessed.n; i++)
			if (witness_verify(d.preprocessed.v[i], d.plugin, d.asdir))
				_exit(1);
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
