/* The two tables the checks are judged against: .debug_srcinfo (what
 * kcfi-as left unchecked on purpose, common/exempt.h) and .kcfi_traps
 * (the traps Linux recognises, doc/abi.md).  Both hold places in code: in
 * a relocatable object as relocations, in a linked file as values. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "common/exempt.h"
#include "audit/audit.h"
#include "audit/tables.h"
#include "typeids/typeid.h"

static int loc_cmp(const void *a, const void *b)
{
	const struct loc *x = a, *y = b;
	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int exempt_cmp(const void *a, const void *b)
{
	return loc_cmp(&((const struct exempt *)a)->start, &((const struct exempt *)b)->start);
}

/* A relocation at OFF of section SHNDX that names the place (riscv pairs
 * an ADD with a SUB at the same offset: the SUB names the table entry). */
static const struct reloc *place_reloc(const struct audit_file *f, size_t shndx, uint64_t off)
{
	const struct section *s = &f->secs[shndx];
	const struct reloc *r = audit_reloc_at(f, shndx, off);
	for (; r && r < s->relocs + s->nrelocs && r->off == off; r++)
		if (!(f->eh.e_machine == EM_RISCV && r->type == R_RISCV_SUB32))
			return r;
	return NULL;
}

/* The 64-bit place at OFF of the .debug_srcinfo section SHNDX; an END may
 * be the end of its section. */
static bool exempt_place(const struct audit_file *f, size_t shndx, uint64_t off, bool end,
			 struct loc *out)
{
	const struct section *s = &f->secs[shndx];
	if (f->rel) {
		const struct reloc *r = place_reloc(f, shndx, off);
		return r && audit_reloc_loc(f, r, 0, out);
	}
	uint64_t addr = le64(s->data + off);
	if (!addr)
		return false;		/* a discarded COMDAT */
	if (end && audit_addr_loc(f, addr - 1, out)) {
		out->off++;
		return true;
	}
	return audit_addr_loc(f, addr, out);
}

static int name_cmp(const void *a, const void *b)
{
	const struct type_name *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* F's names by id, then name, each once: objects of a link bring their own
 * copies, and names made here may repeat recorded ones. */
static void names_sort_unique(struct audit_file *f)
{
	if (f->nnames > 1)
		qsort(f->names, f->nnames, sizeof(*f->names), name_cmp);
	size_t k = 0;
	for (size_t j = 0; j < f->nnames; j++)
		if (!k || name_cmp(&f->names[k - 1], &f->names[j]))
			f->names[k++] = f->names[j];
	f->nnames = k;
}

int tables_id_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

uint32_t *tables_ids(const struct audit_file *f, bool unnamed_only, size_t *n)
{
	uint32_t *ids = malloc((f->npre + f->nsites + 1) * sizeof(*ids));
	size_t k;
	*n = 0;
	if (!ids)
		return NULL;
	for (size_t i = 0; i < f->npre + f->nsites; i++) {
		uint32_t id = i < f->npre ? f->pre[i].id : f->sites[i - f->npre].id;
		if (!unnamed_only || (tables_type_names(f, id, &k), !k))
			ids[(*n)++] = id;
	}
	if (*n > 1)
		qsort(ids, *n, sizeof(*ids), tables_id_cmp);
	return ids;
}

size_t tables_adopt_names(struct audit_file *f, struct type_name *found, size_t n)
{
	if (!n) {		/* FOUND may be NULL: memcpy's source may not */
		free(found);
		return 0;
	}
	/* Ownership first, so that no string leaks whatever fails below. */
	struct type_name *own = realloc(f->made_names, (f->nmade_names + n + 1) * sizeof(*own));
	if (!own) {
		for (size_t i = 0; i < n; i++)
			free((char *)found[i].name);
		free(found);
		return 0;
	}
	memcpy(own + f->nmade_names, found, n * sizeof(*found));
	f->made_names = own;
	f->nmade_names += n;
	free(found);

	struct type_name *all = realloc(f->names, (f->nnames + n + 1) * sizeof(*all));
	if (!all)
		return 0;
	f->names = all;
	size_t before = f->nnames;
	memcpy(f->names + f->nnames, own + f->nmade_names - n, n * sizeof(*own));
	f->nnames += n;
	names_sort_unique(f);
	return f->nnames - before;
}

/* The KCFI_TYPE_NAME record at OFF of section S (index SHNDX): its name
 * into F->names, and the number of records it takes, itself included; 0
 * after a finding (a malformed one leaves no way to find the next record). */
static uint64_t type_name_record(struct audit_file *f, size_t shndx, uint64_t off)
{
	const struct section *s = &f->secs[shndx];
	uint64_t id = le64(s->data + off), n = le64(s->data + off + 8);
	uint64_t left = (s->size - off) / KCFI_EXEMPT_RECORD_SIZE - 1;
	const char *name = (const char *)s->data + off + KCFI_EXEMPT_RECORD_SIZE;
	if (id > UINT32_MAX || n == 0 || n > left ||
	    !memchr(name, 0, n * KCFI_EXEMPT_RECORD_SIZE) || !name[0]) {
		audit_finding(f, (struct loc){ shndx, off }, "malformed type name record in %s",
			      s->name);
		return 0;
	}
	/* The id must be the hash of the name, by one of the two hashes KCFI
	 * knows, as the code holds it: a record that says otherwise would
	 * name the wrong type. */
	size_t len = strlen(name);
	uint32_t fnv = audit_code_id(f, kcfi_hash_bytes(KCFI_HASH_FNV1A, name, len));
	uint32_t xxh = audit_code_id(f, kcfi_hash_bytes(KCFI_HASH_XXHASH64, name, len));
	if (id != fnv && id != xxh) {
		audit_finding(f, (struct loc){ shndx, off }, "type name record: 0x%08x is not "
			      "the id of %s (FNV-1a 0x%08x, xxHash64 0x%08x)", (unsigned)id, name,
			      fnv, xxh);
		return n + 1;
	}
	f->name_hashes |= 1u << (id == fnv ? KCFI_HASH_FNV1A : KCFI_HASH_XXHASH64);
	f->names[f->nnames++] = (struct type_name){ (uint32_t)id, name };
	return n + 1;
}

/* The KCFI_CONVERSION record at OFF of section SHNDX into F->convs; the
 * number of records it takes, itself included, 0 after a finding. */
static uint64_t conversion_record(struct audit_file *f, size_t shndx, uint64_t off)
{
	const struct section *s = &f->secs[shndx];
	uint64_t ids = le64(s->data + off), n = le64(s->data + off + 8);
	uint64_t left = (s->size - off) / KCFI_EXEMPT_RECORD_SIZE - 1;
	const char *p = (const char *)s->data + off + KCFI_EXEMPT_RECORD_SIZE;
	const char *strs[7];
	size_t room = n <= left ? n * KCFI_EXEMPT_RECORD_SIZE : 0;
	int i;
	for (i = 0; i < 7 && room; i++) {
		const char *nul = memchr(p, 0, room);
		if (!nul)
			break;
		strs[i] = p;
		room -= (size_t)(nul + 1 - p);
		p = nul + 1;
	}
	if (n == 0 || n > left || i < 7 || !strs[0][0] || !strs[1][0] || !strs[2][0]) {
		audit_finding(f, (struct loc){ shndx, off }, "malformed conversion record in %s",
			      s->name);
		return 0;
	}
	f->convs[f->nconvs++] = (struct conversion){
		(uint32_t)ids, (uint32_t)(ids >> 32), strs[0], strs[1], strs[2], strs[3],
		strs[4], strs[5], strs[6] };
	return n + 1;
}

/* .kcfi_traps in objects; Linux's linker script calls it __kcfi_traps. */
static bool trap_table(const char *name)
{
	return !strcmp(name, ".kcfi_traps") || !strcmp(name, "__kcfi_traps");
}

int tables_read(struct audit_file *f)
{
	size_t nex = 0, ntr = 0;
	for (size_t i = 1; i < f->nsecs; i++) {
		const struct section *s = &f->secs[i];
		if (!s->data)
			continue;
		if (kcfi_exempt_section_name(s->name))
			nex += s->size / KCFI_EXEMPT_RECORD_SIZE;
		else if (trap_table(s->name))
			ntr += s->size / 4;
	}
	f->exempts = calloc(nex + 1, sizeof(*f->exempts));
	f->ranges = calloc(nex + 1, sizeof(*f->ranges));
	f->names = calloc(nex + 1, sizeof(*f->names));
	f->traps = calloc(ntr + 1, sizeof(*f->traps));
	f->convs = calloc(nex / 2 + 1, sizeof(*f->convs));
	if (!f->exempts || !f->ranges || !f->names || !f->traps || !f->convs) {
		audit_error(f->path, "out of memory");
		return -1;
	}
	for (size_t i = 1; i < f->nsecs; i++) {
		const struct section *s = &f->secs[i];
		if (!s->data)
			continue;
		if (kcfi_exempt_section_name(s->name)) {
			f->has_records = true;
			if (s->size % KCFI_EXEMPT_RECORD_SIZE)
				audit_finding(f, (struct loc){ i, 0 }, "%s is %zu bytes, not a whole "
					      "number of %d-byte records", s->name, s->size,
					      KCFI_EXEMPT_RECORD_SIZE);
			for (uint64_t o = 0; o + KCFI_EXEMPT_RECORD_SIZE <= s->size;
			     o += KCFI_EXEMPT_RECORD_SIZE) {
				struct exempt e;
				uint64_t reason = le64(s->data + o + 16);
				if (reason == KCFI_TYPE_NAME) {
					uint64_t n = type_name_record(f, i, o);
					if (!n)
						break;
					o += (n - 1) * KCFI_EXEMPT_RECORD_SIZE;
					continue;
				}
				if (reason == KCFI_CONVERSION) {
					uint64_t n = conversion_record(f, i, o);
					if (!n)
						break;
					o += (n - 1) * KCFI_EXEMPT_RECORD_SIZE;
					continue;
				}
				e.reason = (unsigned)reason;
				if (!exempt_place(f, i, o, false, &e.start) ||
				    !exempt_place(f, i, o + 8, true, &e.end))
					continue;
				if (e.reason == KCFI_RANGE_INSTRUMENTED) {
					if (e.end.shndx == e.start.shndx && e.end.off >= e.start.off)
						f->ranges[f->nranges++] = e;
					continue;
				}
				if (!kcfi_exempt_reason_name(e.reason) || e.reason >= MAX_REASON) {
					audit_finding(f, e.start, "%s record with unknown reason %u",
						      s->name, e.reason);
					continue;
				}
				if (e.end.shndx != e.start.shndx || e.end.off < e.start.off)
					continue;	/* a range across sections covers nothing */
				f->exempts[f->nexempts++] = e;
			}
		} else if (trap_table(s->name)) {
			for (uint64_t o = 0; o + 4 <= s->size; o += 4) {
				struct loc at;
				bool ok;
				if (f->rel) {
					const struct reloc *r = place_reloc(f, i, o);
					ok = r && audit_reloc_loc(f, r, 0, &at);
				} else {
					int32_t d = (int32_t)le32(s->data + o);
					ok = audit_addr_loc(f, s->sh.sh_addr + o + (uint64_t)(int64_t)d, &at);
				}
				if (!ok) {
					audit_finding(f, (struct loc){ i, o }, ".kcfi_traps entry points "
						      "outside every section");
					continue;
				}
				f->traps[f->ntraps++] = at;
			}
		}
	}
	qsort(f->exempts, f->nexempts, sizeof(*f->exempts), exempt_cmp);
	qsort(f->ranges, f->nranges, sizeof(*f->ranges), exempt_cmp);
	f->n.instrumented = f->nranges;
	qsort(f->traps, f->ntraps, sizeof(*f->traps), loc_cmp);
	names_sort_unique(f);
	return 0;
}

const struct type_name *tables_type_names(const struct audit_file *f, uint32_t id, size_t *n)
{
	size_t lo = 0, hi = f->nnames;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->names[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*n = 0;
	while (lo + *n < f->nnames && f->names[lo + *n].id == id)
		++*n;
	return f->names + lo;
}

bool tables_trap_listed(const struct audit_file *f, struct loc at)
{
	return bsearch(&at, f->traps, f->ntraps, sizeof(*f->traps), loc_cmp) != NULL;
}

unsigned tables_exempt(const struct audit_file *f, struct loc at, unsigned len)
{
	/* The last record starting at or before the branch's last byte. */
	size_t lo = 0, hi = f->nexempts;
	struct loc last = { at.shndx, at.off + (len ? len - 1 : 0) };
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (loc_cmp(&f->exempts[mid].start, &last) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* A few back: records for one branch and a block may start together. */
	for (size_t k = lo; k-- > 0 && lo - k <= 4;) {
		const struct exempt *e = &f->exempts[k];
		if (e->start.shndx != at.shndx)
			break;
		bool one = e->end.off == e->start.off;
		if (one ? e->start.off >= at.off && e->start.off <= last.off
			: e->start.off <= at.off && at.off < e->end.off)
			return e->reason;
	}
	return 0;
}

bool tables_instrumented(const struct audit_file *f, struct loc at)
{
	size_t lo = 0, hi = f->nranges;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (loc_cmp(&f->ranges[mid].start, &at) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Functions do not overlap, but a .cold part's range may start inside
	 * nothing else: look at the last two. */
	for (size_t k = lo; k-- > 0 && lo - k <= 2;) {
		const struct exempt *r = &f->ranges[k];
		if (r->start.shndx == at.shndx && r->start.off <= at.off && at.off < r->end.off)
			return true;
	}
	return false;
}
