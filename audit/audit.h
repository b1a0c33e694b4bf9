/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-audit: what one ELF file holds, as the checks need it.
 *
 * Every place in code is a struct loc (section index, offset in it), in
 * relocatable objects and linked files alike: addresses read from a
 * linked file are mapped back to their section once, so the checks never
 * care which kind of file they look at.
 */
#ifndef KCFI_AUDIT_AUDIT_H
#define KCFI_AUDIT_AUDIT_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct loc {
	size_t shndx;
	uint64_t off;
};

struct reloc {
	uint64_t off;		/* in the section it applies to */
	uint32_t type;
	size_t sym;		/* index in .symtab */
	int64_t addend;
};

struct section {
	const char *name;
	GElf_Shdr sh;
	const unsigned char *data;	/* NULL for SHT_NOBITS and empty sections */
	size_t size;
	bool exec;
	struct reloc *relocs;		/* sorted by offset */
	size_t nrelocs;
	size_t *funcs;			/* function symbols in it, by offset */
	size_t nfuncs;
	/* Mapping symbols ($a, $t, $d, $x): which stretches are arm code,
	 * Thumb code or data (literal pools, arm preambles), by offset. */
	struct mapsym { uint64_t off; char kind; } *maps;
	size_t nmaps;
};

struct symbol {
	const char *name;
	size_t shndx;		/* SHN_ABS etc. kept as they are */
	uint64_t value;		/* section offset, also in linked files */
	uint64_t size;
	unsigned char type, bind;
	bool thumb;		/* arm: a Thumb function (bit 0 of its value, cleared) */
};

/* What sits right before an indirect branch. */
struct check {
	bool present;		/* the arch's check sequence, well formed */
	uint32_t id;		/* the id it compares with */
	struct loc trap;	/* its trap instruction */
	const char *problem;	/* present but wrong (e.g. another register) */
};

struct site {			/* a checked branch, for --targets and --explain */
	struct loc at;
	uint32_t id;
	struct loc trap;		/* its check's trap instruction */
};

struct preamble {
	size_t func;		/* symbol index */
	uint32_t id;
};

struct exempt {
	struct loc start, end;	/* end == start: one branch */
	unsigned reason;
};

/* A KCFI_TYPE_NAME record of .debug_srcinfo: which type an id stands for. */
struct type_name {
	uint32_t id;		/* as the code holds it */
	const char *name;	/* "_ZTSFvPiE", in the section's data */
};

/* A KCFI_CONVERSION record: a function's address converted to a pointer
 * of another type id (common/exempt.h); the strings are in the section. */
struct conversion {
	uint32_t fn_id, ptr_id;		/* as the code holds them */
	const char *sym, *fn_type, *ptr_type, *file, *line, *context, *kind;
};

/* Reasons beyond kcfi-as's (common/exempt.h): classifications of the
 * audit itself, documented in doc/kcfi-audit.md. */
enum { AUDIT_EXEMPT_PLT = 8, MAX_REASON = 16 };
const char *audit_reason_name(unsigned r);

struct counts {
	unsigned long checked, unchecked, exempt[MAX_REASON], exempt_total;
	unsigned long outside;		/* branches in code no instrumented unit made */
	/* Of the findings, outside and nopreamble are not counted in the
	 * exit status unless --strict (report.c audit_verdict). */
	unsigned long instrumented;	/* functions kcfi-as instrumented */
	unsigned long preambles, traps, traps_listed, findings;
	unsigned long nopreamble;	/* address-taken functions without a preamble */
	unsigned long arity[8];		/* x86_64 preambles by arity (b8+N) */
};

struct audit_file {
	const char *path;
	int fd;
	Elf *elf;
	GElf_Ehdr eh;
	bool rel;			/* ET_REL: places come from relocations */
	bool has_relocs;		/* relocations of alloc sections exist */
	unsigned word;			/* bytes of a pointer: 4 in ELF32, 8 in ELF64 */
	struct section *secs;
	size_t nsecs;
	struct symbol *syms;
	size_t nsyms;
	const struct audit_arch *arch;

	struct exempt *exempts;		/* sorted by start */
	size_t nexempts;
	struct exempt *ranges;		/* instrumented functions, sorted */
	size_t nranges;
	bool has_records;		/* a record section is present, even empty */
	struct type_name *names;	/* sorted by id, then name; no two equal */
	size_t nnames;
	struct conversion *convs;	/* KCFI_CONVERSION records, in file order */
	size_t nconvs;
	unsigned name_hashes;		/* 1 << enum kcfi_hash of each the names use */
	struct type_name *made_names;	/* names made here, not read from the file:
					 * from DWARF or lent (the file owns their strings) */
	size_t nmade_names;
	struct loc *traps;		/* .kcfi_traps targets, sorted */
	/* A linked file without relocations: the addresses its code loads
	 * (x86 lea rip-relative, mov/push of an immediate), as found by the
	 * decoder, for the addresses-taken check (verify.c). */
	struct code_ref { struct loc from; uint64_t addr; } *code_refs;
	size_t ncode_refs, code_refs_cap;
	size_t ntraps;
	struct site *sites;
	size_t nsites, sites_cap;
	struct preamble *pre;		/* sorted by id after collection */
	size_t npre, pre_cap;
	struct counts n;
	void *dwfl;			/* report.c's DWARF state */
	bool dwfl_tried;
};

/* One architecture's decoder (audit/decode-*.c). */
struct audit_arch {
	const char *name;
	unsigned machine;		/* EM_* */
	const char *trap_name;		/* "ud2" */
	bool trap_table;		/* traps listed in .kcfi_traps */
	/* Walk executable section S, calling audit_branch() for every
	 * indirect branch.  0, or -1 after reporting an error. */
	int (*scan)(struct audit_file *f, size_t shndx);
	/* Is there a trap instruction at AT? */
	bool (*is_trap)(const struct audit_file *f, struct loc at);
	/* The id of the preamble of function SYM, if it has a well-formed one. */
	bool (*preamble)(const struct audit_file *f, const struct symbol *fn,
			 const struct symbol *cfi, uint32_t *id);
	/* Optional: the arity the preamble of SYM (well formed) encodes,
	 * -fsanitize-kcfi-arity's count of argument registers (x86_64: the
	 * register of its movl), or -1. */
	int (*preamble_arity)(const struct audit_file *f, const struct symbol *fn,
			      const struct symbol *cfi);
	/* Relocation TYPE at OFF in an executable section: a call or jump
	 * (not an address taken)? */
	bool (*is_branch_reloc)(const struct audit_file *f, const struct section *s,
				const struct reloc *r);
	/* The place a relocation of TYPE against a section symbol points at,
	 * given its addend (x86 PC32: addend + 4). */
	int64_t (*reloc_target_bias)(uint32_t type);
	bool elf32;			/* its files are ELF32 */
	/* Optional: the implicit addend of a SHT_REL relocation of TYPE at OFF
	 * of section T, read from the field it patches (default: a 32-bit word). */
	int64_t (*rel_addend)(const struct audit_file *f, const struct section *t, uint64_t off,
			      uint32_t type);
};

extern const struct audit_arch audit_x86_64, audit_i386, audit_aarch64, audit_riscv64, audit_arm;

/* elf-load.c */
int audit_open(struct audit_file *f, const char *path);
void audit_close(struct audit_file *f);
/* The place of address ADDR in a linked file (false if in no section). */
bool audit_addr_loc(const struct audit_file *f, uint64_t addr, struct loc *out);
/* The relocation at OFF in section SHNDX (first of several), or NULL. */
const struct reloc *audit_reloc_at(const struct audit_file *f, size_t shndx, uint64_t off);
/* The place a relocation points at (symbol + addend + BIAS), false if none. */
bool audit_reloc_loc(const struct audit_file *f, const struct reloc *r, int64_t bias,
		     struct loc *out);
/* The function symbol containing AT (index), or (size_t)-1. */
size_t audit_func_at(const struct audit_file *f, struct loc at);
/* The function symbol starting exactly at AT, or (size_t)-1. */
size_t audit_func_starting(const struct audit_file *f, struct loc at);
/* Bytes at AT (N of them), NULL if not all inside the section. */
const unsigned char *audit_bytes(const struct audit_file *f, struct loc at, size_t n);
/* The kind of the last mapping symbol at or before AT ('a', 't', 'd', 'x'),
 * or 0 if its section has none there. */
char audit_mapping_at(const struct audit_file *f, struct loc at);
/* What a sweep of S's bytes crosses at OFF: it starts again at every
 * function (AUDIT_AT_FUNCTION), and on aarch64 and riscv64 a __cfi_ symbol
 * there (AUDIT_AT_CFI) starts with the id word, data that may decode as
 * any instruction.  *NEXT (0 at the start of S) follows the sweep. */
enum { AUDIT_AT_FUNCTION = 1, AUDIT_AT_CFI = 2 };
unsigned audit_sweep_at(const struct audit_file *f, const struct section *s, size_t *next,
			uint64_t off);
/* Symbol by exact name, or (size_t)-1 (linear; called per function). */
size_t audit_symbol(const struct audit_file *f, const char *name);
/* Of the symbols called NAME, the one in AT's section closest before AT. */
size_t audit_symbol_before(const struct audit_file *f, const char *name, struct loc at);

/* verify.c: called by the decoders.  audit_code_ref: the instruction at
 * FROM loads the address ADDR (only wanted where !f->has_relocs). */
void audit_code_ref(struct audit_file *f, struct loc from, uint64_t addr);
void audit_branch(struct audit_file *f, size_t shndx, uint64_t off, unsigned len, bool call,
		  const struct check *c, const char *spelling);

/* report.c; AUDIT_QUIET: count findings, print none (--quiet). */
extern bool audit_quiet;
extern bool audit_arity;	/* --arity: a line per preamble */
void audit_finding(struct audit_file *f, struct loc at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void audit_error(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* --strict: findings outside instrumented code count in the exit status. */
extern bool audit_strict;
/* The exit status of an audited file: 0 or 1. */
int audit_verdict(const struct audit_file *f);
/* "N of the findings outside instrumented code: ..." (none if none). */
void audit_verdict_note(const struct audit_file *f);
void audit_report_free(struct audit_file *f);
/* The file's Dwfl_Module when it has DWARF line information, else NULL. */
void *audit_dwarf_module(struct audit_file *f);
/* "file.c:12" of the code at AT into BUF, false without DWARF lines. */
bool audit_source_line(struct audit_file *f, struct loc at, char *buf, size_t size);
/* "file.c:8" of the definition (DW_AT_decl_file, DW_AT_decl_line) of
 * function NAME starting at AT, false if the DWARF has none. */
bool audit_decl_line(struct audit_file *f, struct loc at, const char *name, char *buf,
		     size_t size);

/* dwarf-names.c: names, from DWARF function types, for the ids of the
 * preambles and sites (collected first); added to F->names.  How many. */
size_t dwarf_names(struct audit_file *f);

/* lent-names.c: names for F's unnamed ids from the kcfi-as name records of
 * DONOR (a path), hashed again with every hash kcfi-as knows: for a file
 * Clang built without DWARF, from a kcfi-gcc build of the same code.  How
 * many, or -1 if DONOR cannot be read (reported). */
long lent_names(struct audit_file *f, const char *donor);

/* tables.c: adopt FOUND[0..N) (each name a malloc'd string, now owned by
 * F) into F's names, dropping exact duplicates.  How many were new. */
size_t tables_adopt_names(struct audit_file *f, struct type_name *found, size_t n);
/* The ids of F's preambles and sites (only those without a name yet, if
 * UNNAMED_ONLY), sorted by tables_id_cmp, with repeats; *N of them.
 * malloc'd, NULL when out of memory. */
uint32_t *tables_ids(const struct audit_file *f, bool unnamed_only, size_t *n);
int tables_id_cmp(const void *a, const void *b);

/* A type id as the code of F's machine holds it: on x86 never the bytes
 * of ENDBR64/ENDBR32 in either sign (arches/x86_64.c, as Clang; i386 too). */
static inline uint32_t audit_code_id(const struct audit_file *f, uint32_t h)
{
	if ((f->eh.e_machine == EM_X86_64 || f->eh.e_machine == EM_386) &&
	    (h == 0xfa1e0ff3u || h == 0x05e1f00du || h == 0xfb1e0ff3u || h == 0x04e1f00du))
		return h + 1;
	return h;
}

/* Where a code address points: on arm a Thumb function's address has bit
 * 0 set, which says the state to enter, not a byte of the function. */
static inline uint64_t audit_code_addr(const struct audit_file *f, uint64_t v)
{
	return f->eh.e_machine == EM_ARM ? v & ~(uint64_t)1 : v;
}

/* Little-endian reads: every target kcfi-audit reads is little-endian. */
static inline uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t le64(const unsigned char *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}
static inline uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

#endif
