/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Type names from DWARF, for files without kcfi-as's KCFI_TYPE_NAME
 * records (built by Clang, or by a kcfi-as before them).
 *
 * Every function definition and every function type in the DWARF
 * (DW_TAG_subprogram, DW_TAG_subroutine_type) is written back as a C
 * prototype ("long (struct obj *, unsigned int)") and given to typeids/,
 * the library kcfi-as mangles and hashes with.  A prototype names an id only
 * if its FNV-1a or xxHash64, as the code holds it, is an id the file's
 * preambles or checks use: a type written back wrongly (an anonymous
 * struct, a C construct the printer does not know) gives another id and
 * names nothing, so what is shown is always a name whose hash is the id.
 * Only a chance 32-bit collision between a wrong prototype and an id
 * could mislead.
 */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "audit/tables.h"
#include "typeids/typeid.h"

enum { TEXT_MAX = 2048, DEPTH_MAX = 24 };

/* A string under construction; ok turns false once anything did not fit
 * or could not be written. */
struct text {
	char s[TEXT_MAX];
	bool ok;
};

static void tprintf(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tprintf(struct text *t, const char *fmt, ...)
{
	char tmp[TEXT_MAX];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(tmp))
		t->ok = false;
	else
		memcpy(t->s, tmp, (size_t)n + 1);
}

/* snprintf that says whether all of it fit. */
static bool fmt(char *buf, size_t size, const char *f, ...) __attribute__((format(printf, 3, 4)));
static bool fmt(char *buf, size_t size, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	int n = vsnprintf(buf, size, f, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < size;
}

static bool type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;
	return dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, out);
}

/* DIE with typedefs (and, if CV, qualifiers) taken off; false for void. */
static bool strip(Dwarf_Die *die, Dwarf_Die *out, bool cv)
{
	*out = *die;
	for (int i = 0; i < DEPTH_MAX; i++) {
		int tag = dwarf_tag(out);
		if (tag != DW_TAG_typedef && !(cv && (tag == DW_TAG_const_type ||
						     tag == DW_TAG_volatile_type)))
			return true;
		Dwarf_Die next;
		if (!type_of(out, &next))
			return false;
		*out = next;
	}
	return false;
}

static void params(Dwarf_Die *fn, struct text *t, int depth);

/* The declaration of INNER with type DIE (NULL: void) into T, C syntax. */
static void decl(Dwarf_Die *die, const char *inner, struct text *t, int depth)
{
	const char *sep = inner[0] ? " " : "";
	Dwarf_Die d, sub;
	if (depth > DEPTH_MAX) {
		t->ok = false;
		return;
	}
	if (!die || !strip(die, &d, false)) {
		tprintf(t, "void%s%s", sep, inner);
		return;
	}
	const char *name = dwarf_diename(&d);
	switch (dwarf_tag(&d)) {
	case DW_TAG_base_type:
		if (!name)
			break;
		tprintf(t, "%s%s%s", name, sep, inner);
		return;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type: {
		/* Anonymous ones are mangled by rules this does not follow. */
		if (!name)
			break;
		int tag = dwarf_tag(&d);
		tprintf(t, "%s %s%s%s", tag == DW_TAG_structure_type ? "struct" :
			tag == DW_TAG_union_type ? "union" : "enum", name, sep, inner);
		return;
	}
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type: {
		const char *q = dwarf_tag(&d) == DW_TAG_const_type ? "const" :
			dwarf_tag(&d) == DW_TAG_volatile_type ? "volatile" : "restrict";
		bool has = type_of(&d, &sub);
		Dwarf_Die under;
		if (has && strip(&sub, &under, false) && dwarf_tag(&under) == DW_TAG_pointer_type) {
			/* A qualified pointer: "* const p". */
			char in[TEXT_MAX];
			if (!fmt(in, sizeof(in), "%s%s%s", q, sep, inner))
				break;
			decl(&sub, in, t, depth + 1);
			return;
		}
		struct text u = { .ok = true };
		decl(has ? &sub : NULL, inner, &u, depth + 1);
		if (!u.ok)
			break;
		tprintf(t, "%s %s", q, u.s);
		return;
	}
	case DW_TAG_pointer_type: {
		char in[TEXT_MAX];
		Dwarf_Die to, under;
		bool has = type_of(&d, &to);
		bool paren = has && strip(&to, &under, true) &&
			(dwarf_tag(&under) == DW_TAG_subroutine_type ||
			 dwarf_tag(&under) == DW_TAG_array_type);
		if (!fmt(in, sizeof(in), paren ? "(*%s)" : "*%s", inner))
			break;
		decl(has ? &to : NULL, in, t, depth + 1);
		return;
	}
	case DW_TAG_subroutine_type: {
		struct text p = { .ok = true };
		params(&d, &p, depth);
		if (!p.ok)
			break;
		char in[TEXT_MAX];
		if (!fmt(in, sizeof(in), "%s(%s)", inner, p.s))
			break;
		decl(type_of(&d, &sub) ? &sub : NULL, in, t, depth + 1);
		return;
	}
	case DW_TAG_array_type: {
		Dwarf_Die r;
		Dwarf_Word n = 0;
		Dwarf_Attribute a;
		bool known = false;
		if (dwarf_child(&d, &r) == 0 && dwarf_tag(&r) == DW_TAG_subrange_type) {
			if (dwarf_attr(&r, DW_AT_count, &a) && dwarf_formudata(&a, &n) == 0)
				known = true;
			else if (dwarf_attr(&r, DW_AT_upper_bound, &a) && dwarf_formudata(&a, &n) == 0)
				known = true, n++;
		}
		char in[TEXT_MAX];
		if (known ? !fmt(in, sizeof(in), "%s[%llu]", inner, (unsigned long long)n)
			  : !fmt(in, sizeof(in), "%s[]", inner))
			break;
		decl(type_of(&d, &sub) ? &sub : NULL, in, t, depth + 1);
		return;
	}
	default:
		break;
	}
	t->ok = false;
}

/* "int, char *" / "void" / "const char *, ..." of function DIE FN into T;
 * not ok for an unprototyped one. */
static void params(Dwarf_Die *fn, struct text *t, int depth)
{
	Dwarf_Attribute a;
	bool proto = false;
	if (dwarf_attr_integrate(fn, DW_AT_prototyped, &a))
		dwarf_formflag(&a, &proto);
	if (!proto) {
		t->ok = false;
		return;
	}
	t->s[0] = 0;
	Dwarf_Die c;
	size_t n = 0;
	if (dwarf_child(fn, &c) == 0) {
		do {
			int tag = dwarf_tag(&c);
			char one[TEXT_MAX];
			if (tag == DW_TAG_formal_parameter) {
				/* A parameter's own qualifiers are no part of the function type. */
				Dwarf_Die ty, bare;
				struct text p = { .ok = true };
				if (!type_of(&c, &ty)) {
					t->ok = false;
					return;
				}
				decl(strip(&ty, &bare, true) ? &bare : NULL, "", &p, depth + 1);
				if (!p.ok) {
					t->ok = false;
					return;
				}
				memcpy(one, p.s, sizeof(one));
			} else if (tag == DW_TAG_unspecified_parameters) {
				strcpy(one, "...");
			} else {
				continue;
			}
			char prev[TEXT_MAX];
			memcpy(prev, t->s, sizeof(prev));
			tprintf(t, "%s%s%s", prev, n++ ? ", " : "", one);
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	if (!n)
		tprintf(t, "void");
}

struct want {
	struct audit_file *f;
	uint32_t *ids;			/* the ids to name, sorted */
	size_t nids;
	struct kcfi_typeid_opts opts;
	struct type_name *found;	/* names made here (strings malloc'd) */
	size_t nfound, cap;
};

/* A function type DIE: its prototype, and a name if its id is wanted. */
static void candidate(struct want *w, Dwarf_Die *fn)
{
	struct text p = { .ok = true }, t = { .ok = true };
	params(fn, &p, 0);
	if (!p.ok)
		return;
	char in[TEXT_MAX];
	if (!fmt(in, sizeof(in), "(%s)", p.s))
		return;
	Dwarf_Die ret;
	decl(type_of(fn, &ret) ? &ret : NULL, in, &t, 0);
	if (!t.ok)
		return;
	for (int h = KCFI_HASH_FNV1A; h <= KCFI_HASH_XXHASH64; h++) {
		struct kcfi_typeid r;
		w->opts.hash = (enum kcfi_hash)h;
		if (kcfi_typeid_of_function(t.s, strlen(t.s), &w->opts, &r, NULL))
			return;		/* the printer wrote something typeids does not read */
		uint32_t id = audit_code_id(w->f, r.id);
		if (!r.unprototyped && bsearch(&id, w->ids, w->nids, sizeof(*w->ids), tables_id_cmp)) {
			if (w->nfound == w->cap) {
				size_t cap = w->cap ? 2 * w->cap : 64;
				struct type_name *v = realloc(w->found, cap * sizeof(*v));
				if (!v) {
					kcfi_typeid_release(&r);
					return;
				}
				w->found = v;
				w->cap = cap;
			}
			w->found[w->nfound++] = (struct type_name){ id, r.mangled };
			w->f->name_hashes |= 1u << h;
			r.mangled = NULL;
		}
		kcfi_typeid_release(&r);
	}
}

static void walk(struct want *w, Dwarf_Die *die, int depth)
{
	Dwarf_Die c;
	if (depth > 64 || dwarf_child(die, &c) != 0)
		return;
	do {
		int tag = dwarf_tag(&c);
		if (tag == DW_TAG_subprogram || tag == DW_TAG_subroutine_type)
			candidate(w, &c);
		walk(w, &c, depth + 1);
	} while (dwarf_siblingof(&c, &c) == 0);
}

size_t dwarf_names(struct audit_file *f)
{
	Dwfl_Module *m = audit_dwarf_module(f);
	Dwarf_Addr bias;
	Dwarf *dw = m ? dwfl_module_getdwarf(m, &bias) : NULL;
	if (!dw)
		return 0;
	struct want w = { .f = f };
	if (!(w.ids = tables_ids(f, false, &w.nids)))
		return 0;
	static const struct { uint16_t machine; const char *triple; } triples[] = {
		{ EM_X86_64, "x86_64-linux-gnu" }, { EM_AARCH64, "aarch64-linux-gnu" },
		{ EM_RISCV, "riscv64-linux-gnu" }, { EM_386, "i686-linux-gnu" },
		{ EM_ARM, "arm-linux-gnueabihf" },
	};
	for (size_t i = 0; i < sizeof(triples) / sizeof(triples[0]); i++)
		if (triples[i].machine == f->eh.e_machine)
			kcfi_model_for_triple(triples[i].triple, &w.opts.model);
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		if (dwarf_offdie(dw, off + hsize, &cu))
			walk(&w, &cu, 0);
		off = next;
	}
	free(w.ids);
	return tables_adopt_names(f, w.found, w.nfound);
}
