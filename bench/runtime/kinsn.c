/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A QEMU TCG plugin for bench/runtime.sh (x86_64 system emulation, one vCPU):
 * counts the instructions executed at kernel addresses (bit 63 set) and at
 * user addresses, and how often the instructions at the addresses listed in
 * the file sites=FILE (one hex address a line: the first instruction of
 * each KCFI check sequence) execute.  Whenever the guest executes the
 * marker, "nopl 0x4b434649(%rax)" at a user address, it appends to out=FILE
 * the line "mark SEQ kernel K user U checks C" with the counts so far,
 * followed by "site ADDRESS N" for every check site whose count N (since
 * the start) changed since the previous marker.
 * With funcs=FILE (lines "HEXADDRESS NAME" in ascending order: the text
 * symbols of the vmlinux, bench/runtime/funcs.sh), it also counts the
 * kernel instructions executed in each symbol's range (from its address to
 * the next symbol's) and logs "fn ADDRESS NAME N" for every symbol whose count
 * changed, the same way; addresses below the first symbol count as
 * "[below]" (module, BPF and vmalloc'd code).
 * Counting is inline (no callback per instruction), and exact per
 * instruction, not per translation block. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t kernel_insns, user_insns, checks, marks;
static uint64_t *sites, *site_count, *site_seen;
static size_t nsites;
static uint64_t *fn_start, *fn_count, *fn_seen;
static char **fn_name;
static size_t nfns;
static FILE *out;

/* nopl 0x4b434649(%rax): 0f 1f 80 and the displacement "IFCK" */
static const unsigned char marker[] = { 0x0f, 0x1f, 0x80, 0x49, 0x46, 0x43, 0x4b };

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* the index of va in sites, or -1 */
static long site_index(uint64_t va)
{
	size_t lo = 0, hi = nsites;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sites[mid] == va)
			return (long)mid;
		if (sites[mid] < va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* the index of the last symbol at or below va (0, "[below]", when none) */
static size_t fn_index(uint64_t va)
{
	size_t lo = 0, hi = nfns;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (fn_start[mid] <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
}

static void on_mark(unsigned int vcpu, void *udata)
{
	(void)vcpu, (void)udata;
	fprintf(out, "mark %" PRIu64 " kernel %" PRIu64 " user %" PRIu64 " checks %" PRIu64 "\n",
		++marks, kernel_insns, user_insns, checks);
	for (size_t i = 0; i < nsites; i++)
		if (site_count[i] != site_seen[i]) {
			fprintf(out, "site %" PRIx64 " %" PRIu64 "\n", sites[i], site_count[i]);
			site_seen[i] = site_count[i];
		}
	for (size_t i = 0; i < nfns; i++)
		if (fn_count[i] != fn_seen[i]) {
			fprintf(out, "fn %" PRIx64 " %s %" PRIu64 "\n", fn_start[i], fn_name[i], fn_count[i]);
			fn_seen[i] = fn_count[i];
		}
	fflush(out);
}

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);
		if (va >> 63) {
			long s = nsites ? site_index(va) : -1;
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   &kernel_insns, 1);
			if (nfns)
				qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
									   &fn_count[fn_index(va)], 1);
			if (s >= 0) {
				qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
									   &checks, 1);
				qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
									   &site_count[s], 1);
			}
		} else {
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   &user_insns, 1);
			if (qemu_plugin_insn_size(insn) == sizeof(marker) &&
			    !memcmp(qemu_plugin_insn_data(insn), marker, sizeof(marker)))
				qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS, NULL);
		}
	}
}

static void on_plugin_exit(qemu_plugin_id_t id, void *p)
{
	(void)id, (void)p;
	fprintf(out, "end kernel %" PRIu64 " user %" PRIu64 " checks %" PRIu64 "\n",
		kernel_insns, user_insns, checks);
	fclose(out);
}

static int load_sites(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[64];
	size_t cap = 0;
	if (!f) {
		fprintf(stderr, "kinsn: %s: cannot open\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *end;
		uint64_t a = strtoull(line, &end, 16);
		if (end == line)
			continue;
		if (nsites == cap) {
			cap = cap ? 2 * cap : 1024;
			sites = realloc(sites, cap * sizeof(*sites));
			if (!sites) {
				fclose(f);
				return -1;
			}
		}
		sites[nsites++] = a;
	}
	fclose(f);
	qsort(sites, nsites, sizeof(*sites), cmp_u64);
	site_count = calloc(nsites + 1, sizeof(*site_count));
	site_seen = calloc(nsites + 1, sizeof(*site_seen));
	return site_count && site_seen ? 0 : -1;
}

/* funcs=FILE; entry 0 is "[below]", at address 0 */
static int load_funcs(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], name[448];
	size_t cap = 0;
	if (!f) {
		fprintf(stderr, "kinsn: %s: cannot open\n", path);
		return -1;
	}
	for (int first = 1;; first = 0) {
		uint64_t a = 0;
		if (first)
			strcpy(name, "[below]");
		else if (!fgets(line, sizeof(line), f))
			break;
		else if (sscanf(line, "%" SCNx64 " %447s", &a, name) != 2)
			continue;
		if (nfns && a < fn_start[nfns - 1]) {
			fprintf(stderr, "kinsn: %s: %s is out of order\n", path, name);
			fclose(f);
			return -1;
		}
		if (nfns == cap) {
			cap = cap ? 2 * cap : 4096;
			fn_start = realloc(fn_start, cap * sizeof(*fn_start));
			fn_name = realloc(fn_name, cap * sizeof(*fn_name));
			if (!fn_start || !fn_name) {
				fclose(f);
				return -1;
			}
		}
		fn_start[nfns] = a;
		fn_name[nfns++] = strdup(name);
	}
	fclose(f);
	fn_count = calloc(nfns, sizeof(*fn_count));
	fn_seen = calloc(nfns, sizeof(*fn_seen));
	return fn_count && fn_seen ? 0 : -1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *outpath = NULL;
	int i;
	if (info->system_emulation == false || strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "kinsn: x86_64 system emulation only\n");
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			outpath = argv[i] + 4;
		else if (!strncmp(argv[i], "sites=", 6)) {
			if (load_sites(argv[i] + 6))
				return -1;
		} else if (!strncmp(argv[i], "funcs=", 6)) {
			if (load_funcs(argv[i] + 6))
				return -1;
		} else {
			fprintf(stderr, "kinsn: unknown argument %s\n", argv[i]);
			return -1;
		}
	}
	if (!outpath) {
		fprintf(stderr, "kinsn: needs out=FILE\n");
		return -1;
	}
	out = fopen(outpath, "w");
	if (!out) {
		fprintf(stderr, "kinsn: %s: cannot write\n", outpath);
		return -1;
	}
	fprintf(out, "sites %zu\n", nsites);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
	qemu_plugin_register_atexit_cb(id, on_plugin_exit, NULL);
	return 0;
}
