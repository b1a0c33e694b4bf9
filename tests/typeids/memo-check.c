/* SPDX-License-Identifier: GPL-2.0-or-later */
/* memo-check: the TU-wide cache (struct kcfi_typeids) against fresh parses.
 *
 *   memo-check [--min-assembled=N] [--min-reused=N] [--limit=BYTES] < PROTOTYPES
 *
 * Reads one prototype per line (a TAB ends it, as in gen-protos output; '#'
 * lines are skipped) and feeds them in order to one kcfi_typeids, so that
 * each line meets the memos the earlier ones filled, and to
 * kcfi_typeid_of_function.  Every answer must be the same: mangled name, id
 * and unprototyped flag, or the error message and column.  Then the cache's
 * counters must show that it was used at least as much as asked (a memo that
 * is never consulted would pass the comparison trivially).  Both hashes are
 * checked: FNV-1a with the LP64 model, xxHash64 with integer normalization.
 * --limit makes the cache start over whenever it holds more than BYTES, and
 * then it must have done so at least once.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "typeids/typeid.h"

static unsigned long lines, errors, mismatches;

static void compare(struct kcfi_typeids *cx, const char *text, size_t len,
		    const struct kcfi_typeid_opts *o)
{
	struct kcfi_typeid fresh, cached;
	struct kcfi_type_error fresh_err, cached_err;
	int rc = kcfi_typeid_of_function(text, len, o, &fresh, &fresh_err);
	int rcc = kcfi_typeids_function(cx, text, len, o, &cached, &cached_err);
	bool same = rc == rcc;
	if (same && rc)
		same = fresh_err.column == cached_err.column &&
		       !strcmp(fresh_err.message, cached_err.message);
	else if (same)
		same = fresh.id == cached.id && !strcmp(fresh.mangled, cached.mangled) &&
		       fresh.unprototyped == cached.unprototyped;
	if (!same && mismatches++ < 10)
		printf("memo-check: line %lu differs: %.*s\n  fresh:  %s (column %u)\n"
		       "  cached: %s (column %u)\n", lines, (int)len, text,
		       rc ? fresh_err.message : fresh.mangled, rc ? fresh_err.column : 0,
		       rcc ? cached_err.message : cached.mangled, rcc ? cached_err.column : 0);
	errors += rc != 0;
	kcfi_typeid_release(&fresh);
	kcfi_typeid_release(&cached);
}

int main(int argc, char **argv)
{
	unsigned long min_assembled = 0, min_reused = 0, limit = 0;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--min-assembled=", 16))
			min_assembled = strtoul(argv[i] + 16, NULL, 10);
		else if (!strncmp(argv[i], "--min-reused=", 13))
			min_reused = strtoul(argv[i] + 13, NULL, 10);
		else if (!strncmp(argv[i], "--limit=", 8))
			limit = strtoul(argv[i] + 8, NULL, 10);
		else {
			fprintf(stderr, "usage: memo-check [--min-assembled=N] [--min-reused=N] "
				"[--limit=BYTES] < FILE\n");
			return 2;
		}
	}
	const struct kcfi_typeid_opts opts[] = {
		{ .hash = KCFI_HASH_FNV1A, .model = { 64, 64, true } },
		{ .hash = KCFI_HASH_XXHASH64, .normalize_integers = true, .model = { 64, 64, true } },
	};
	struct kcfi_typeids *cx[2] = { kcfi_typeids_new(), kcfi_typeids_new() };
	if (!cx[0] || !cx[1])
		return 2;
	for (int k = 0; limit && k < 2; k++)
		kcfi_typeids_set_limit(cx[k], limit);
	static char line[1 << 17];
	while (fgets(line, sizeof(line), stdin)) {
		lines++;
		if (line[0] == '#')
			continue;
		size_t len = strcspn(line, "\t\n");
		for (int k = 0; k < 2; k++)
			compare(cx[k], line, len, &opts[k]);
	}
	struct kcfi_typeids_stats st;
	kcfi_typeids_stats(cx[0], &st);
	printf("memo-check: %lu lines (%lu rejected), %lu assembled, %lu known parameters "
	       "reused in parses; %lu parameters and %lu return types known; %lu restarts\n",
	       lines, errors / 2, st.assembled, st.params_reused, st.params_known,
	       st.returns_known, st.restarts);
	kcfi_typeids_free(cx[0]);
	kcfi_typeids_free(cx[1]);
	if (mismatches) {
		printf("memo-check: FAIL: %lu answers differ from a fresh parse\n", mismatches);
		return 1;
	}
	if (limit && !st.restarts) {
		printf("memo-check: FAIL: the cache never reached its limit of %lu bytes\n", limit);
		return 1;
	}
	if (st.assembled < min_assembled || st.params_reused < min_reused) {
		printf("memo-check: FAIL: the cache was used less than expected "
		       "(assembled >= %lu, reused >= %lu)\n", min_assembled, min_reused);
		return 1;
	}
	return 0;
}
