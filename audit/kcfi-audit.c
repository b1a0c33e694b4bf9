/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-audit: verify the KCFI protection of ELF files (doc/kcfi-audit.1).
 *
 * For each file: every indirect branch in executable sections is checked
 * (the arch's exact check sequence right before it, its trap listed where
 * the arch has a table) or exempt by a record of .debug_srcinfo; every
 * .kcfi_traps entry is at a trap; every address-taken function has a
 * preamble whose id agrees with its __kcfi_typeid_ symbol.  Exit status
 * (report.c audit_verdict): 0 nothing kcfi-as instrumented is unchecked
 * and nothing is malformed, branches outside instrumented code and
 * functions without a preamble counting only under --strict; 1 otherwise;
 * 2 a file could not be read or bad usage. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/exempt.h"
#include "audit/audit.h"
#include "audit/explain.h"
#include "audit/mismatches.h"
#include "audit/tables.h"
#include "audit/targets.h"
#include "audit/verify.h"
#include "audit/kcfi-audit-opts.h"

static const char usage_head[] =
	"Usage: kcfi-audit [OPTION]... FILE...\n"
	"  or:  kcfi-audit --explain LOG FILE...\n"
	"Verify the KCFI protection of ELF files (.o, .ko, vmlinux, executables,\n"
	"shared libraries) for x86_64, i386, aarch64, riscv64 and arm.\n"
	"\n";
static const char usage_tail[] =
	"\n"
	"Exit status: 0 if no branch in instrumented code is unchecked and nothing is\n"
	"malformed or disagrees (branches outside instrumented code and functions\n"
	"without a preamble are reported but count only with --strict), 1 otherwise,\n"
	"2 on errors.\n";

static void usage(FILE *f)
{
	fputs(usage_head, f);
	fputs(kcfi_audit_opts_help, f);
	fputs(usage_tail, f);
}

/* A count: digits only, no sign, no overflow (strtoul reads "abc" as 0,
 * "-1" as ULONG_MAX, and "5x" as 5). */
static bool parse_count(const char *opt, const char *s, unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno) {
		fprintf(stderr, "kcfi-audit: --%s: '%s' is not a number\n", opt, s);
		return false;
	}
	*out = v;
	return true;
}

_Static_assert((int)AUDIT_EXEMPT_PLT == (int)KCFI_EXEMPT_REASONS, "the audit's reasons follow kcfi-as's");

const char *audit_reason_name(unsigned r)
{
	if (r == AUDIT_EXEMPT_PLT)
		return "plt";
	const char *n = kcfi_exempt_reason_name(r);
	return n ? n : "?";
}

/* A preamble with another register than %eax was built with
 * -fsanitize-kcfi-arity; then (or asked) the preambles by arity, before the
 * summary, which stays the last line. */
static void arity_line(const struct audit_file *f)
{
	unsigned long other = 0;
	for (int a = 1; a < 8; a++)
		other += f->n.arity[a];
	if (!other && !audit_arity)
		return;
	printf("%s: %s: preambles by arity:", f->path, f->arch->name);
	for (int a = 0; a < 8; a++)
		printf(" %d: %lu%s", a, f->n.arity[a], a < 7 ? "," : "\n");
}

/* Checks without records are either another compiler's (Clang writes no
 * records) or kcfi-as's after strip --strip-debug, which takes the records
 * with the DWARF.  Either way the branches counted outside may include
 * calls kcfi-as exempted on purpose, so say why instead of leaving the
 * reader with "assembly source". */
static void no_records_note(const struct audit_file *f)
{
	if (f->has_records || !f->n.checked || !f->n.outside || audit_quiet)
		return;
	printf("%s: %s: KCFI checks but no %s records: built by another compiler, or stripped "
	       "of its debug sections (strip --strip-debug, INSTALL_MOD_STRIP=1); the %lu "
	       "branches outside instrumented code may include calls kcfi-as left unchecked "
	       "on purpose: audit the file as built\n", f->path, f->arch->name,
	       KCFI_EXEMPT_SECTION, f->n.outside);
}

static void summary(const struct audit_file *f)
{
	no_records_note(f);
	arity_line(f);
	audit_verdict_note(f);
	printf("%s: %s: %lu checked, %lu exempt (", f->path, f->arch->name, f->n.checked,
	       f->n.exempt_total);
	bool first = true;
	for (unsigned r = 1; r < MAX_REASON; r++)
		if (f->n.exempt[r]) {
			printf("%s%s %lu", first ? "" : ", ", audit_reason_name(r), f->n.exempt[r]);
			first = false;
		}
	printf("), %lu unchecked, %lu outside instrumented code, %lu instrumented functions, "
	       "%lu preambles, %lu traps, %lu findings\n", f->n.unchecked, f->n.outside,
	       f->n.instrumented, f->n.preambles, f->n.traps, f->n.findings);
}

static int audit_one(const char *path, bool targets, const struct targets_opts *to)
{
	struct audit_file f;
	int rc = 2;
	if (audit_open(&f, path) == 0 && tables_read(&f) == 0) {
		for (size_t i = 1; i < f.nsecs; i++)
			if (f.secs[i].exec && f.arch->scan(&f, i))
				goto out;
		verify_traps(&f);
		verify_preambles(&f);
		summary(&f);
		rc = audit_verdict(&f);
		if (targets && targets_report(&f, to))
			rc = 2;
	}
out:
	fflush(stdout);
	audit_close(&f);
	return rc;
}

int main(int argc, char **argv)
{
	struct targets_opts to = { .top = 10 };
	bool targets = false, mismatches = false, union_stores = false;
	const char *explain = NULL;
	int c;
	while ((c = getopt_long(argc, argv, KCFI_AUDIT_SHORTOPTS, kcfi_audit_longopts, NULL)) != -1) {
		switch (c) {
		case KCFI_AUDIT_OPT_TARGETS: targets = true; break;
		case KCFI_AUDIT_OPT_CSV: to.csv = optarg; break;
		case KCFI_AUDIT_OPT_JSON: to.json = optarg; break;
		case KCFI_AUDIT_OPT_PLOT: to.plot = optarg; break;
		case KCFI_AUDIT_OPT_TOP:
		{
			unsigned long top;
			if (!parse_count("top", optarg, &top))
				return 2;
			to.top = top;
			break;
		}
		case KCFI_AUDIT_OPT_NAMES_FROM: to.names_from = optarg; break;
		case KCFI_AUDIT_OPT_QUIET: audit_quiet = true; break;
		case KCFI_AUDIT_OPT_ARITY: audit_arity = true; break;
		case KCFI_AUDIT_OPT_EXPLAIN: explain = optarg; break;
		case KCFI_AUDIT_OPT_MISMATCHES: mismatches = true; break;
		case KCFI_AUDIT_OPT_UNION_STORES: union_stores = true; break;
		case KCFI_AUDIT_OPT_STRICT: audit_strict = true; break;
		case KCFI_AUDIT_OPT_HELP: usage(stdout); return 0;
		case KCFI_AUDIT_OPT_VERSION: printf("kcfi-audit (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind == argc) {
		usage(stderr);
		return 2;
	}
	if (explain && (targets || audit_arity || mismatches)) {
		fprintf(stderr, "kcfi-audit: --explain takes no other option\n");
		return 2;
	}
	if (explain) {
		elf_version(EV_CURRENT);
		return explain_main(explain, argv + optind, argc - optind);
	}
	if ((to.csv || to.json || to.plot || to.names_from) && !targets) {
		fprintf(stderr, "kcfi-audit: --csv, --json, --plot and --names-from need --targets\n");
		return 2;
	}
	if ((to.csv || to.json || to.plot) && argc - optind > 1) {
		fprintf(stderr, "kcfi-audit: --csv, --json and --plot take one FILE\n");
		return 2;
	}
	if (union_stores && !mismatches) {
		fprintf(stderr, "kcfi-audit: --union-stores needs --mismatches\n");
		return 2;
	}
	if (mismatches && (targets || audit_arity)) {
		fprintf(stderr, "kcfi-audit: --mismatches takes no --targets or --arity\n");
		return 2;
	}
	elf_version(EV_CURRENT);
	if (mismatches)
		return mismatches_report(argv + optind, argc - optind, union_stores);
	int worst = 0;
	for (int i = optind; i < argc; i++) {
		int rc = audit_one(argv[i], targets, &to);
		if (rc > worst)
			worst = rc;
	}
	return worst;
}
