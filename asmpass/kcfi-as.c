/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-as: a drop-in `as` that turns the kcfi plugin's directives into KCFI
 * preambles, checks and type-id symbols, then runs the real GNU assembler.
 *
 * Input without .kcfi_version passes through untouched: when every input is
 * a named file without any ".kcfi_" text, the real assembler simply runs on
 * the original command line, so plain .S/.s files see no difference at all.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "asmpass/gas.h"
#include "asmpass/sink.h"
#include "asmpass/tu.h"
#include "common/kcfi-targets.h"

struct invocation {
	struct kcfi_options opts;
	const char *real_as;
	const char *save;		/* --kcfi-save=FILE ("-": stdout) */
	const char *input_name;		/* --kcfi-input-name=NAME */
	bool stats;
	bool no_assemble;		/* --kcfi-no-assemble: rewrite only */
	bool version, help;
	char **gas_argv;		/* argv for the real assembler, without inputs */
	int gas_argc;
	char **all_argv;		/* argv for the real assembler, with inputs */
	int all_argc;
	const char **inputs;		/* "-" is stdin */
	int ninputs;
	const char *output;		/* -o, for cleanup after an error */
};

static void usage(FILE *f)
{
	fputs("Usage: kcfi-as [kcfi options] [as options] [file...]\n"
	      "A drop-in GNU as that adds Linux KCFI (-fsanitize=kcfi) to the annotated\n"
	      "assembly written by GCC with the kcfi plugin (see kcfi-gcc).  Every option\n"
	      "it does not know goes to the real assembler unchanged.\n\n"
	      "kcfi options:\n"
	      "  --kcfi-real-as=PATH        the real assembler (default: $KCFI_REAL_AS, then\n"
	      "                             `as` in $PATH other than kcfi-as itself)\n"
	      "  --kcfi-save=FILE           also write the rewritten assembly to FILE (- = stdout)\n"
	      "  --kcfi-input-name=NAME     call the one input NAME in messages (kcfi-gcc -S:\n"
	      "                             the file -o names, not the temporary one read)\n"
	      "  --kcfi-no-assemble         only rewrite; do not run the real assembler\n"
	      "  --kcfi-no-line-markers     no \"# N file\" lines naming the input's lines\n"
	      "                             (kcfi-gcc -S: the rewritten file is the result)\n"
	      "  --kcfi-stats               print per-TU counts to stderr\n"
	      "  --kcfi-hash=fnv1a|xxhash64 type-id hash (default fnv1a; xxhash64 = Clang <= 21, rustc)\n"
	      "  --kcfi-normalize-integers  Clang's integer normalization (Rust-enabled kernels)\n"
	      "  --kcfi-generalize-pointers Clang 22's pointer generalization: pointers in\n"
	      "                             function types hash as void pointers\n"
	      "  --kcfi-cs-prefix           x86: cs-prefix retpoline thunk calls\n"
	      "                             (kcfi-gcc adds it for -mindirect-branch-cs-prefix)\n"
	      "  --kcfi-warn-cast           warn where a function's address becomes a pointer\n"
	      "                             with another type id (kcfi-gcc: -Wkcfi-cast)\n"
	      "  --kcfi-warn-cast=error     the same as errors: no object (-Werror=kcfi-cast)\n"
	      "  --version, --help\n", f);
}

static char **argv_grow(char **v, int n)
{
	char **r = realloc(v, (size_t)(n + 2) * sizeof(*r));
	if (!r)
		abort();
	return r;
}

static void gas_arg(struct invocation *inv, char *a, bool input)
{
	if (!input) {
		inv->gas_argv = argv_grow(inv->gas_argv, inv->gas_argc);
		inv->gas_argv[inv->gas_argc++] = a;
	}
	inv->all_argv = argv_grow(inv->all_argv, inv->all_argc);
	inv->all_argv[inv->all_argc++] = a;
}

/* GNU as options (common and of our targets) whose value may be the next
 * word; everything else with a dash is self-contained. */
static bool takes_separate_value(const char *a)
{
	static const char *const opts[] = {
		"-o", "-I", "--defsym", "--MD", "--debug-prefix-map",
		"--gdwarf-cie-version", "--hash-size", "--listing-lhs-width",
		"--listing-lhs-width2", "--listing-rhs-width", "--listing-cont-lines",
		"--size-check", "--elf-stt-common", "--generate-missing-build-notes",
		"--multibyte-handling",
	};
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (!strcmp(a, opts[i]))
			return true;
	return false;
}

static int kcfi_option(struct invocation *inv, const char *a)
{
	const char *v;
	if ((v = strchr(a, '=')) != NULL)
		v++;
	if (!strncmp(a, "--kcfi-real-as=", 15))
		inv->real_as = v;
	else if (!strncmp(a, "--kcfi-save=", 12))
		inv->save = v;
	else if (!strncmp(a, "--kcfi-input-name=", 18))
		inv->input_name = v;
	else if (!strcmp(a, "--kcfi-stats"))
		inv->stats = true;
	else if (!strcmp(a, "--kcfi-no-assemble"))
		inv->no_assemble = true;
	else if (!strcmp(a, "--kcfi-no-line-markers"))
		inv->opts.no_line_markers = true;
	else if (!strcmp(a, "--kcfi-normalize-integers"))
		inv->opts.normalize_integers = true;
	else if (!strcmp(a, "--kcfi-generalize-pointers"))
		inv->opts.generalize_pointers = true;
	else if (!strcmp(a, "--kcfi-cs-prefix"))
		inv->opts.cs_prefix = true;
	else if (!strcmp(a, "--kcfi-warn-cast"))
		inv->opts.warn_cast = 1;
	else if (!strcmp(a, "--kcfi-warn-cast=error"))
		inv->opts.warn_cast = 2;
	else if (!strncmp(a, "--kcfi-hash=", 12)) {
		if (!strcmp(v, "fnv1a") || !strcmp(v, "FNV-1a"))
			inv->opts.hash = KCFI_HASH_FNV1A;
		else if (!strcmp(v, "xxhash64") || !strcmp(v, "xxHash64"))
			inv->opts.hash = KCFI_HASH_XXHASH64;
		else {
			fprintf(stderr, "kcfi-as: unknown hash '%s' (fnv1a or xxhash64)\n", v);
			return -1;
		}
	} else {
		fprintf(stderr, "kcfi-as: unknown option '%s' (see --help)\n", a);
		return -1;
	}
	return 0;
}

static int parse_args(struct invocation *inv, int argc, char **argv);

/* @FILE: arguments read from a file, as GCC and GNU as accept them
 * (white space separates, quotes and backslashes protect). */
static int expand_response_file(struct invocation *inv, const char *path, int depth)
{
	if (depth > 8) {
		fprintf(stderr, "kcfi-as: @%s: response files nest too deeply\n", path);
		return -1;
	}
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "kcfi-as: @%s: %s\n", path, strerror(errno));
		return -1;
	}
	char **words = NULL;
	int n = 0;
	char *w = NULL;
	size_t len = 0, cap = 0;
	int c, quote = 0;
	bool inword = false;
	for (;;) {
		c = fgetc(f);
		if (c == EOF || (!quote && (c == ' ' || c == '\t' || c == '\n' || c == '\r'))) {
			if (inword) {
				if (len + 1 > cap && !(w = realloc(w, cap = cap * 2 + 16)))
					abort();
				w[len] = '\0';
				words = argv_grow(words, n);
				words[n++] = w;
				w = NULL;
				len = cap = 0;
				inword = false;
			}
			if (c == EOF)
				break;
			continue;
		}
		if (c == '\\') {
			c = fgetc(f);
			if (c == EOF)
				break;
		} else if (quote && c == quote) {
			quote = 0;
			continue;
		} else if (!quote && (c == '\'' || c == '"')) {
			quote = c;
			inword = true;
			continue;
		}
		if (len + 2 > cap && !(w = realloc(w, cap = cap * 2 + 16)))
			abort();
		w[len++] = (char)c;
		inword = true;
	}
	fclose(f);
	if (words)
		words[n] = NULL;
	/* The words are kept for the life of the process: argv points into them.
	 * The array holding them is not. */
	int rc = parse_args(inv, n, words);
	free(words);
	(void)depth;
	return rc;
}

static int parse_args(struct invocation *inv, int argc, char **argv)
{
	bool only_inputs = false;
	for (int i = 0; i < argc; i++) {
		char *a = argv[i];
		if (only_inputs || !strcmp(a, "-") || a[0] != '-') {
			if (!only_inputs && a[0] == '@' && a[1]) {
				if (expand_response_file(inv, a + 1, 1))
					return -1;
				continue;
			}
			inv->inputs = realloc(inv->inputs, (size_t)(inv->ninputs + 1) * sizeof(char *));
			if (!inv->inputs)
				abort();
			inv->inputs[inv->ninputs++] = a;
			gas_arg(inv, a, true);
			continue;
		}
		if (!strcmp(a, "--")) {
			only_inputs = true;
			gas_arg(inv, a, false);
			continue;
		}
		if (!strncmp(a, "--kcfi-", 7)) {
			if (kcfi_option(inv, a))
				return -1;
			continue;
		}
		if (!strcmp(a, "--version")) {
			inv->version = true;
		} else if (!strcmp(a, "--help")) {
			inv->help = true;
		} else if (!strncmp(a, "-o", 2)) {
			inv->output = a[2] ? a + 2 : (i + 1 < argc ? argv[i + 1] : NULL);
		} else if (!strncmp(a, "-march=", 7)) {
			inv->opts.march = a + 7;	/* the last one counts, as in gas */
		} else if (!strcmp(a, "--32") || !strcmp(a, "--64") || !strcmp(a, "--x32")) {
			inv->opts.x86_mode = a;		/* x86 only; the last one counts */
		}
		gas_arg(inv, a, false);
		if (takes_separate_value(a) && i + 1 < argc)
			gas_arg(inv, argv[++i], false);
	}
	return 0;
}

/* Might this file carry directives?  A plain substring scan: cheap, and a
 * false positive only costs the rewriting pass. */
static int mentions_kcfi(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	int found = 0;
	if (fstat(fd, &st) == 0 && st.st_size > 0 && S_ISREG(st.st_mode)) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			found = 1;	/* cannot tell: take the careful path */
		} else {
			found = memmem(m, (size_t)st.st_size, KCFI_DIRECTIVE_PREFIX,
				       KCFI_DIRECTIVE_PREFIX_LEN) != NULL;
			munmap(m, (size_t)st.st_size);
		}
	} else if (!S_ISREG(st.st_mode)) {
		found = 1;	/* a FIFO or device: read it through the pass */
	}
	close(fd);
	return found;
}

/* The name kcfi-as searches for: `<triple>-as` when installed as
 * `<triple>-as` or `<triple>-kcfi-as`, plain `as` otherwise. */
static const char *real_as_name(const char *argv0, char *buf, size_t cap)
{
	const char *base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	size_t n = strlen(base);
	const char *k = strstr(base, "-kcfi-as");
	if (k && k[8] == '\0') {
		snprintf(buf, cap, "%.*s-as", (int)(k - base), base);
		return buf;
	}
	if (n > 3 && !strcmp(base + n - 3, "-as") && strcmp(base, "kcfi-as") != 0) {
		snprintf(buf, cap, "%s", base);
		return buf;
	}
	return "as";
}

static void print_stats(const char *name, const struct tu_stats *s)
{
	fprintf(stderr,
		"kcfi-as: %s: checks=%u unchecked=%u (no_sanitize=%u unprototyped=%u) "
		"direct=%u nocall=%u preambles=%u padded=%u typeids=%u trampoline=%u "
		"types_assembled=%lu params_reused=%lu stubs=%u exempt=%u\n",
		name, s->checks, s->unchecked_nosan + s->unchecked_noproto, s->unchecked_nosan,
		s->unchecked_noproto, s->direct, s->nocall, s->preambles, s->padded, s->typeids,
		s->trampoline, s->types_assembled, s->params_reused, s->stubs, s->exempt_records);
}

static int open_save(const char *save)
{
	if (!save)
		return -1;
	if (!strcmp(save, "-"))
		return 1;
	/* As GCC and GNU as open their outputs (fopen "w"): through a
	 * symlink, into a device or FIFO, a regular file truncated in place,
	 * a new one 0666 & ~umask. */
	int fd = open(save, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		fprintf(stderr, "kcfi-as: --kcfi-save=%s: %s\n", save, strerror(errno));
	return fd;
}

/* The bytes the inputs hold, as far as known: a pipe or terminal on stdin
 * counts as unbounded. */
static unsigned long long input_bytes(const struct invocation *inv)
{
	unsigned long long total = 0;
	struct stat st;
	for (int i = 0; i < inv->ninputs || (i == 0 && !inv->ninputs); i++) {
		bool in_stdin = !inv->ninputs || !strcmp(inv->inputs[i], "-");
		if ((in_stdin ? fstat(0, &st) : stat(inv->inputs[i], &st)) || !S_ISREG(st.st_mode))
			return ~0ull;
		total += (unsigned long long)st.st_size;
	}
	return total;
}

/* Remove what the assembler may have begun to write, as GNU as does
 * (libiberty's unlink_if_ordinary): a regular file or a symlink, never the
 * file it points to.  `-o /dev/null` (configure-style probes) must survive a
 * refusal, and so must a FIFO or any other special file.  GNU as opens its
 * output before it reads a line, so a reader waiting on a FIFO gets end of
 * file from it; the real assembler may not have run here, so the FIFO is
 * opened and closed if a reader is there (never waiting for one). */
static void remove_output(const char *path)
{
	struct stat st;
	if (lstat(path, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))) {
		unlink(path);
	} else if (S_ISFIFO(st.st_mode)) {
		int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
	}
}

int main(int argc, char **argv)
{
	/* Static: the argument vectors live as long as the process, and LeakSanitizer
	 * (--enable-sanitizers) sees them reachable. */
	static struct invocation inv = { .opts = { .hash = KCFI_HASH_FNV1A } };
	char namebuf[256];

	gas_arg(&inv, NULL, false);	/* argv[0], filled below */
	if (parse_args(&inv, argc - 1, argv + 1))
		return 1;
	inv.gas_argv[inv.gas_argc] = NULL;
	inv.all_argv[inv.all_argc] = NULL;

	if (inv.help) {
		usage(stdout);
		fflush(stdout);
	}
	if (inv.no_assemble && inv.version) {
		printf("kcfi-as %s\n", PACKAGE_VERSION);
		return 0;
	}

	char *real = NULL;
	if (!inv.no_assemble) {
		real = gas_locate(inv.real_as, real_as_name(argv[0], namebuf, sizeof(namebuf)));
		if (!real)
			return 1;
		inv.gas_argv[0] = inv.all_argv[0] = real;
	}

	if (inv.version || inv.help) {
		/* The real assembler speaks first: the kernel's as-version.sh reads
		 * the first line of `as --version`. */
		pid_t pid = fork();
		if (pid == 0) {
			execv(real, inv.all_argv);
			_exit(127);
		}
		int rc = pid > 0 ? gas_wait(pid) : 1;
		if (inv.version)
			printf("kcfi-as %s (KCFI assembler pass in front of %s)\n", PACKAGE_VERSION, real);
		return rc;
	}

	/* Nothing to rewrite: hand the original command line over. */
	bool rewrite = inv.ninputs == 0 || inv.save || inv.stats || inv.no_assemble;
	for (int i = 0; !rewrite && i < inv.ninputs; i++)
		rewrite = !strcmp(inv.inputs[i], "-") || mentions_kcfi(inv.inputs[i]) != 0;
	if (!rewrite) {
		execv(real, inv.all_argv);
		fprintf(stderr, "kcfi-as: cannot run %s: %s\n", real, strerror(errno));
		return 127;
	}

	signal(SIGPIPE, SIG_IGN);
	int save_fd = open_save(inv.save);
	if (inv.save && save_fd < 0)
		return 1;
	int to_gas = -1, buffer = -1;
	pid_t pid = -1;
	if (!inv.no_assemble) {
		buffer = gas_buffer(input_bytes(&inv));
		if (buffer >= 0)
			to_gas = buffer;
		else if ((pid = gas_spawn(real, inv.gas_argv, &to_gas)) < 0)
			return 1;
	}

	struct sink out;
	sink_init(&out, to_gas, save_fd);
	out.tee_name = inv.save;
	struct tu *tu = tu_new(&inv.opts, &out);
	int rc = 0;
	const char *stdin_only[] = { "-" };
	const char **inputs = inv.ninputs ? inv.inputs : stdin_only;
	int ninputs = inv.ninputs ? inv.ninputs : 1;
	const char *shown = "{standard input}";
	for (int i = 0; i < ninputs && !rc; i++) {
		bool in_stdin = !strcmp(inputs[i], "-");
		int fd = in_stdin ? 0 : open(inputs[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "kcfi-as: %s: %s\n", inputs[i], strerror(errno));
			rc = 1;
			break;
		}
		shown = inv.input_name && ninputs == 1 ? inv.input_name :
			in_stdin ? "{standard input}" : inputs[i];
		if (tu_feed(tu, fd, shown))
			rc = 1;
		if (!in_stdin)
			close(fd);
	}
	if (!rc && tu_finish(tu))
		rc = 1;
	if (!rc && inv.stats)
		print_stats(ninputs == 1 ? shown : "(several inputs)", tu_stats(tu));
	if (sink_flush(&out) && !rc && inv.save && out.tee_fd < 0)
		rc = 1;
	if (save_fd > 1 && close(save_fd) != 0 && out.tee_fd >= 0) {
		fprintf(stderr, "kcfi-as: error closing %s: %s\n", inv.save, strerror(errno));
		out.tee_fd = -1;
		rc = 1;
	}
	/* A --kcfi-save file cut short by a write error goes, as GCC removes
	 * an output it failed to write: only an ordinary file. */
	struct stat sst;
	if (inv.save && save_fd > 1 && out.tee_fd < 0 && stat(inv.save, &sst) == 0 &&
	    S_ISREG(sst.st_mode))
		unlink(inv.save);
	tu_free(tu);
	sink_free(&out);

	if (pid < 0 && buffer < 0)
		return rc;
	if (rc) {
		/* Refuse: no object may come out of rejected input. */
		if (pid >= 0)
			gas_kill(pid);
		remove_output(inv.output ? inv.output : "a.out");
		return rc;
	}
	if (buffer >= 0)
		return gas_become(real, inv.gas_argv, buffer);
	close(to_gas);
	return gas_wait(pid);
}
