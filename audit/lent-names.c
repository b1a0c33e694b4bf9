/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Type names lent by another build (--names-from).
 *
 * Clang records no type names, and a kernel built without DWARF leaves
 * nothing to rebuild them from, so --targets can show only ids there.  A
 * build of the same code by kcfi-gcc carries kcfi-as's name records: each
 * is the exact string an id is the hash of.  Hashing every recorded name
 * again with each hash kcfi-as knows (and the target's ENDBR masking) gives
 * the id another compiler would emit for that type, and an id of the file
 * that equals one is named by it.  A name is only ever attached through its
 * own hash, so a type the donor lacks stays unnamed, never misnamed; two
 * names meeting on one id are reported as a collision as usual.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "audit/tables.h"
#include "typeids/typeid.h"

long lent_names(struct audit_file *f, const char *donor)
{
	struct audit_file d;
	if (audit_open(&d, donor) || tables_read(&d)) {
		audit_close(&d);
		return -1;
	}
	if (!d.nnames) {
		audit_error(donor, "has no kcfi-as type name records to lend (built by Clang, "
			    "by a kcfi-as before them, or stripped of them)");
		audit_close(&d);
		return -1;
	}
	size_t nids, nfound = 0;
	uint32_t *ids = tables_ids(f, true, &nids);
	struct type_name *found = malloc((2 * d.nnames + 1) * sizeof(*found));
	if (!ids || !found) {
		free(ids);
		free(found);
		audit_close(&d);
		audit_error(f->path, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < d.nnames; i++) {
		if (i && !strcmp(d.names[i - 1].name, d.names[i].name) &&
		    d.names[i - 1].id == d.names[i].id)
			continue;
		size_t len = strlen(d.names[i].name);
		for (int h = KCFI_HASH_FNV1A; h <= KCFI_HASH_XXHASH64; h++) {
			uint32_t id = audit_code_id(f, kcfi_hash_bytes((enum kcfi_hash)h,
								      d.names[i].name, len));
			if (!bsearch(&id, ids, nids, sizeof(*ids), tables_id_cmp))
				continue;
			char *name = strdup(d.names[i].name);
			if (!name)
				continue;
			found[nfound++] = (struct type_name){ id, name };
			f->name_hashes |= 1u << h;
		}
	}
	free(ids);
	audit_close(&d);
	return (long)tables_adopt_names(f, found, nfound);
}
