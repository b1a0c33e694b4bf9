/* Reading one ELF file into struct audit_file (audit.h): sections,
 * symbols, relocations, each bounds-checked, so that a truncated or
 * hostile file gets an error that names it and never a crash.  libelf
 * reads the whole file into memory (ELF_C_READ): nothing is mapped, so a
 * file shrinking under us cannot fault either. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/exempt.h"
#include "audit/audit.h"

static int fail(struct audit_file *f, const char *what)
{
	audit_error(f->path, "%s: %s", what, elf_errmsg(-1));
	return -1;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p) {
		audit_error("kcfi-audit", "out of memory");
		exit(2);
	}
	return p;
}

static const struct audit_arch *arch_for(unsigned machine)
{
	switch (machine) {
	case EM_X86_64: return &audit_x86_64;
	case EM_AARCH64: return &audit_aarch64;
	case EM_RISCV: return &audit_riscv64;
	case EM_386: return &audit_i386;
	case EM_ARM: return &audit_arm;
	default: return NULL;
	}
}

/* Does SCN's data start as GNU's legacy compression does: "ZLIB" and the
 * uncompressed size, big-endian, in 8 bytes? */
static bool gnu_compressed(Elf_Scn *scn)
{
	Elf_Data *d = elf_rawdata(scn, NULL);
	return d && d->d_buf && d->d_size > 12 && !memcmp(d->d_buf, "ZLIB", 4);
}

static int load_sections(struct audit_file *f)
{
	size_t shstrndx;
	if (elf_getshdrnum(f->elf, &f->nsecs) || elf_getshdrstrndx(f->elf, &shstrndx))
		return fail(f, "cannot read the section headers");
	f->secs = xcalloc(f->nsecs, sizeof(*f->secs));
	for (size_t i = 1; i < f->nsecs; i++) {
		struct section *s = &f->secs[i];
		Elf_Scn *scn = elf_getscn(f->elf, i);
		if (!scn || !gelf_getshdr(scn, &s->sh))
			return fail(f, "cannot read a section header");
		s->name = elf_strptr(f->elf, shstrndx, s->sh.sh_name);
		if (!s->name)
			s->name = "?";
		s->exec = (s->sh.sh_flags & SHF_EXECINSTR) && s->sh.sh_type == SHT_PROGBITS;
		if (s->sh.sh_type == SHT_NOBITS || s->sh.sh_size == 0)
			continue;
		/* Compressed, as --compress-debug-sections and -gz do to the
		 * records with the DWARF: read it decompressed.  The legacy
		 * GNU style (=zlib-gnu) renames .debug_* to .zdebug_*, but
		 * keeps the name of the records' .debug and only prefixes its
		 * data with "ZLIB" and the size. */
		bool gabi = s->sh.sh_flags & SHF_COMPRESSED;
		bool gnu = !gabi && kcfi_exempt_section_name(s->name) && gnu_compressed(scn);
		if ((gabi || gnu) &&
		    ((gabi ? elf_compress(scn, 0, 0) : elf_compress_gnu(scn, 0, 0)) < 0 ||
		     !gelf_getshdr(scn, &s->sh))) {
			audit_error(f->path, "section %s: cannot decompress: %s", s->name,
				    elf_errmsg(-1));
			return -1;
		}
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d) {
			audit_error(f->path, "section %s: %s", s->name, elf_errmsg(-1));
			return -1;
		}
		if (d->d_size != s->sh.sh_size || !d->d_buf) {
			audit_error(f->path, "section %s: its data is not all in the file", s->name);
			return -1;
		}
		s->data = d->d_buf;
		s->size = d->d_size;
	}
	return 0;
}

static int by_name(const void *a, const void *b, void *ctx);
/* Symbols by name: a sorted index built on first use. */
static size_t *names;
static const struct audit_file *names_of;

static int load_symbols(struct audit_file *f)
{
	for (size_t i = 1; i < f->nsecs; i++) {
		struct section *s = &f->secs[i];
		if (s->sh.sh_type != SHT_SYMTAB)
			continue;
		size_t esz = gelf_fsize(f->elf, ELF_T_SYM, 1, EV_CURRENT);
		if (!esz || s->sh.sh_entsize != esz || s->sh.sh_link >= f->nsecs) {
			audit_error(f->path, "section %s: not a symbol table of this ELF class", s->name);
			return -1;
		}
		Elf_Data *d = elf_getdata(elf_getscn(f->elf, i), NULL);
		size_t n = s->size / esz;
		f->syms = xcalloc(n, sizeof(*f->syms));
		f->nsyms = n;
		for (size_t k = 0; k < n; k++) {
			GElf_Sym g;
			struct symbol *y = &f->syms[k];
			if (!d || !gelf_getsym(d, (int)k, &g))
				return fail(f, "cannot read a symbol");
			y->name = elf_strptr(f->elf, s->sh.sh_link, g.st_name);
			if (!y->name)
				y->name = "";
			y->shndx = g.st_shndx;
			y->value = g.st_value;
			y->size = g.st_size;
			y->type = GELF_ST_TYPE(g.st_info);
			y->bind = GELF_ST_BIND(g.st_info);
			/* arm: bit 0 of a function's value says Thumb; the
			 * function itself starts at the even address. */
			if (f->eh.e_machine == EM_ARM && y->type == STT_FUNC && (y->value & 1)) {
				y->value &= ~(uint64_t)1;
				y->thumb = true;
			}
			/* Linked files: from address to section offset. */
			if (!f->rel && y->shndx > 0 && y->shndx < f->nsecs && y->shndx < SHN_LORESERVE) {
				uint64_t base = f->secs[y->shndx].sh.sh_addr;
				y->value = y->value >= base ? y->value - base : UINT64_MAX;
			}
		}
		return 0;	/* one symbol table per file */
	}
	return 0;
}

static int by_off(const void *a, const void *b)
{
	const struct reloc *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* An implicit addend (SHT_REL, ELF32): the arch reads it from the field
 * the relocation patches, as the linker would. */
static int64_t rel_addend(const struct audit_file *f, const struct section *t, uint64_t off,
			  uint32_t type)
{
	if (f->arch->rel_addend)
		return f->arch->rel_addend(f, t, off, type);
	const unsigned char *p = t->data && off <= t->size && t->size - off >= 4 ? t->data + off : NULL;
	return p ? (int32_t)le32(p) : 0;
}

static int load_relocs(struct audit_file *f)
{
	for (size_t i = 1; i < f->nsecs; i++) {
		struct section *s = &f->secs[i];
		bool rela = s->sh.sh_type == SHT_RELA;
		if ((!rela && s->sh.sh_type != SHT_REL) || s->sh.sh_info == 0 || s->sh.sh_info >= f->nsecs)
			continue;
		struct section *t = &f->secs[s->sh.sh_info];
		if (!(t->sh.sh_flags & SHF_ALLOC) && !kcfi_exempt_section_name(t->name))
			continue;	/* debug information */
		/* The dynamic linker's (.rel.plt applies to .got, also in a
		 * static program for IRELATIVE) are loaded with the program;
		 * those of an object or of --emit-relocs are not.  Only these
		 * say where the code and data take addresses. */
		if (s->sh.sh_flags & SHF_ALLOC)
			continue;
		size_t esz = gelf_fsize(f->elf, rela ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT);
		if (!esz || s->sh.sh_entsize != esz) {
			audit_error(f->path, "section %s: not relocations of this ELF class", s->name);
			return -1;
		}
		Elf_Data *d = elf_getdata(elf_getscn(f->elf, i), NULL);
		size_t n = s->size / esz, have = t->nrelocs;
		if (!n || !d)
			continue;
		t->relocs = realloc(t->relocs, (have + n) * sizeof(*t->relocs));
		if (!t->relocs) {
			audit_error("kcfi-audit", "out of memory");
			exit(2);
		}
		for (size_t k = 0; k < n; k++) {
			GElf_Rela g;
			GElf_Rel gr;
			if (rela ? !gelf_getrela(d, (int)k, &g) : !gelf_getrel(d, (int)k, &gr))
				return fail(f, "cannot read a relocation");
			if (!rela)
				g = (GElf_Rela){ .r_offset = gr.r_offset, .r_info = gr.r_info };
			struct reloc r = { .off = g.r_offset, .type = (uint32_t)GELF_R_TYPE(g.r_info),
					   .sym = GELF_R_SYM(g.r_info), .addend = g.r_addend };
			if (!f->rel)
				r.off -= t->sh.sh_addr;
			if (r.sym >= f->nsyms)
				continue;	/* no symbol we could name: not a place */
			if (!rela)
				r.addend = rel_addend(f, t, r.off, r.type);
			t->relocs[t->nrelocs++] = r;
		}
		if (t->sh.sh_flags & SHF_ALLOC)
			f->has_relocs = true;
		qsort(t->relocs, t->nrelocs, sizeof(*t->relocs), by_off);
	}
	return 0;
}

static const struct audit_file *sort_file;

static int func_cmp(const void *a, const void *b)
{
	const struct symbol *x = &sort_file->syms[*(const size_t *)a];
	const struct symbol *y = &sort_file->syms[*(const size_t *)b];
	return x->value < y->value ? -1 : x->value > y->value;
}

/* Function symbols, and the __cfi_ symbols of preambles whatever their
 * type: Linux's and kcfi-as's are STT_NOTYPE, and a walk must know where
 * each preamble starts. */
static bool indexed_function(const struct audit_file *f, const struct symbol *y)
{
	if (y->shndx == 0 || y->shndx >= f->nsecs || y->value == UINT64_MAX)
		return false;
	return y->type == STT_FUNC ||
	       (y->type == STT_NOTYPE && !strncmp(y->name, "__cfi_", 6));
}

static void index_functions(struct audit_file *f)
{
	for (size_t k = 0; k < f->nsyms; k++)
		if (indexed_function(f, &f->syms[k]))
			f->secs[f->syms[k].shndx].nfuncs++;
	for (size_t i = 0; i < f->nsecs; i++) {
		f->secs[i].funcs = xcalloc(f->secs[i].nfuncs, sizeof(size_t));
		f->secs[i].nfuncs = 0;
	}
	for (size_t k = 0; k < f->nsyms; k++) {
		const struct symbol *y = &f->syms[k];
		if (indexed_function(f, y)) {
			struct section *s = &f->secs[y->shndx];
			s->funcs[s->nfuncs++] = k;
		}
	}
	sort_file = f;
	for (size_t i = 0; i < f->nsecs; i++)
		qsort(f->secs[i].funcs, f->secs[i].nfuncs, sizeof(size_t), func_cmp);
}

/* "$a", "$t", "$d", "$x", optionally with a ".suffix": the kind, else 0. */
static char mapping_kind(const struct symbol *y)
{
	const char *n = y->name;
	if (n[0] != '$' || !strchr("atdx", n[1]) || !n[1] || (n[2] && n[2] != '.') ||
	    y->type != STT_NOTYPE || y->bind != STB_LOCAL)
		return 0;
	return n[1];
}

static int map_cmp(const void *a, const void *b)
{
	const struct mapsym *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

static void index_mapping_symbols(struct audit_file *f)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t k = 0; k < f->nsyms; k++) {
			const struct symbol *y = &f->syms[k];
			char c = mapping_kind(y);
			if (!c || y->shndx == 0 || y->shndx >= f->nsecs || y->value == UINT64_MAX)
				continue;
			struct section *s = &f->secs[y->shndx];
			if (pass)
				s->maps[s->nmaps++] = (struct mapsym){ y->value, c };
			else
				s->nmaps++;
		}
		for (size_t i = 0; i < f->nsecs; i++) {
			struct section *s = &f->secs[i];
			if (!pass) {
				s->maps = xcalloc(s->nmaps, sizeof(*s->maps));
				s->nmaps = 0;
			} else {
				qsort(s->maps, s->nmaps, sizeof(*s->maps), map_cmp);
			}
		}
	}
}

char audit_mapping_at(const struct audit_file *f, struct loc at)
{
	if (at.shndx >= f->nsecs)
		return 0;
	const struct section *s = &f->secs[at.shndx];
	size_t lo = 0, hi = s->nmaps;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->maps[mid].off <= at.off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? s->maps[lo - 1].kind : 0;
}

int audit_open(struct audit_file *f, const char *path)
{
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		audit_error(path, "%s", strerror(errno));
		return -1;
	}
	f->elf = elf_begin(f->fd, ELF_C_READ, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF) {
		audit_error(path, "not an ELF file%s%s", f->elf ? "" : ": ",
			    f->elf ? "" : elf_errmsg(-1));
		return -1;
	}
	int cls = gelf_getclass(f->elf);
	if ((cls != ELFCLASS64 && cls != ELFCLASS32) || !gelf_getehdr(f->elf, &f->eh)) {
		audit_error(path, "not a 32-bit or 64-bit ELF file");
		return -1;
	}
	if (f->eh.e_ident[EI_DATA] != ELFDATA2LSB) {
		audit_error(path, "not a little-endian ELF file");
		return -1;
	}
	f->arch = arch_for(f->eh.e_machine);
	if (!f->arch) {
		audit_error(path, "machine %u: kcfi-audit reads x86_64, i386, aarch64, riscv64 "
			    "and arm only", f->eh.e_machine);
		return -1;
	}
	if ((cls == ELFCLASS32) != f->arch->elf32) {
		audit_error(path, "%s code in a %d-bit ELF file", f->arch->name,
			    cls == ELFCLASS32 ? 32 : 64);
		return -1;
	}
	f->word = cls == ELFCLASS32 ? 4 : 8;
	f->rel = f->eh.e_type == ET_REL;
	if (load_sections(f) || load_symbols(f) || load_relocs(f))
		return -1;
	index_functions(f);
	index_mapping_symbols(f);
	return 0;
}

void audit_close(struct audit_file *f)
{
	audit_report_free(f);
	for (size_t i = 0; i < f->nsecs; i++) {
		free(f->secs[i].relocs);
		free(f->secs[i].funcs);
		free(f->secs[i].maps);
	}
	free(f->secs);
	free(f->syms);
	free(f->exempts);
	free(f->ranges);
	free(f->names);
	for (size_t i = 0; i < f->nmade_names; i++)
		free((char *)f->made_names[i].name);
	free(f->made_names);
	free(f->traps);
	free(f->convs);
	free(f->code_refs);
	free(f->sites);
	free(f->pre);
	if (names_of == f) {
		free(names);
		names = NULL;
		names_of = NULL;
	}
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

bool audit_addr_loc(const struct audit_file *f, uint64_t addr, struct loc *out)
{
	for (size_t i = 1; i < f->nsecs; i++) {
		const GElf_Shdr *h = &f->secs[i].sh;
		if ((h->sh_flags & SHF_ALLOC) && addr >= h->sh_addr && addr - h->sh_addr < h->sh_size &&
		    h->sh_type != SHT_NOBITS) {
			out->shndx = i;
			out->off = addr - h->sh_addr;
			return true;
		}
	}
	return false;
}

const struct reloc *audit_reloc_at(const struct audit_file *f, size_t shndx, uint64_t off)
{
	if (shndx >= f->nsecs)
		return NULL;
	const struct section *s = &f->secs[shndx];
	size_t lo = 0, hi = s->nrelocs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->relocs[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nrelocs && s->relocs[lo].off == off ? &s->relocs[lo] : NULL;
}

bool audit_reloc_loc(const struct audit_file *f, const struct reloc *r, int64_t bias,
		     struct loc *out)
{
	const struct symbol *y = &f->syms[r->sym];
	if (y->shndx == 0 || y->shndx >= f->nsecs || y->value == UINT64_MAX)
		return false;
	out->shndx = y->shndx;
	out->off = y->value + (uint64_t)r->addend + (uint64_t)bias;
	return true;
}

/* How many of S's functions (sorted by start) start before OFF, or at it
 * too when AT_TOO: the index of the first one after. */
static size_t funcs_before(const struct audit_file *f, const struct section *s, uint64_t off,
			   bool at_too)
{
	size_t lo = 0, hi = s->nfuncs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t v = f->syms[s->funcs[mid]].value;
		if (v < off || (at_too && v == off))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t audit_func_at(const struct audit_file *f, struct loc at)
{
	if (at.shndx >= f->nsecs)
		return (size_t)-1;
	const struct section *s = &f->secs[at.shndx];
	size_t lo = funcs_before(f, s, at.off, true);
	if (lo == 0)
		return (size_t)-1;
	/* The last function starting at or before AT; among aliases, one
	 * that is not a __cfi_ symbol. */
	size_t best = s->funcs[lo - 1];
	uint64_t v = f->syms[best].value;
	for (size_t k = lo; k-- > 0 && f->syms[s->funcs[k]].value == v;)
		if (strncmp(f->syms[s->funcs[k]].name, "__cfi_", 6)) {
			best = s->funcs[k];
			break;
		}
	return best;
}

size_t audit_func_starting(const struct audit_file *f, struct loc at)
{
	if (at.shndx >= f->nsecs)
		return (size_t)-1;
	const struct section *s = &f->secs[at.shndx];
	size_t lo = funcs_before(f, s, at.off, false);
	/* Among aliases, the one that is not a __cfi_ symbol. */
	for (; lo < s->nfuncs && f->syms[s->funcs[lo]].value == at.off; lo++)
		if (strncmp(f->syms[s->funcs[lo]].name, "__cfi_", 6))
			return s->funcs[lo];
	return (size_t)-1;
}

unsigned audit_sweep_at(const struct audit_file *f, const struct section *s, size_t *next,
			uint64_t off)
{
	unsigned at = 0;
	for (; *next < s->nfuncs && f->syms[s->funcs[*next]].value <= off; ++*next) {
		const struct symbol *y = &f->syms[s->funcs[*next]];
		at |= AUDIT_AT_FUNCTION;
		if (y->value == off && !strncmp(y->name, "__cfi_", 6))
			at |= AUDIT_AT_CFI;
	}
	return at;
}

const unsigned char *audit_bytes(const struct audit_file *f, struct loc at, size_t n)
{
	if (at.shndx == 0 || at.shndx >= f->nsecs)
		return NULL;
	const struct section *s = &f->secs[at.shndx];
	if (!s->data || at.off > s->size || n > s->size - at.off)
		return NULL;
	return s->data + at.off;
}


static int by_name(const void *a, const void *b, void *ctx)
{
	const struct audit_file *f = ctx;
	return strcmp(f->syms[*(const size_t *)a].name, f->syms[*(const size_t *)b].name);
}

static size_t first_named(const struct audit_file *f, const char *name);

size_t audit_symbol(const struct audit_file *f, const char *name)
{
	size_t i = first_named(f, name);
	return i < f->nsyms ? names[i] : (size_t)-1;
}

size_t audit_symbol_before(const struct audit_file *f, const char *name, struct loc at)
{
	size_t best = (size_t)-1;
	for (size_t i = first_named(f, name); i < f->nsyms && !strcmp(f->syms[names[i]].name, name);
	     i++) {
		const struct symbol *y = &f->syms[names[i]];
		if (y->shndx == at.shndx && y->value <= at.off &&
		    (best == (size_t)-1 || y->value > f->syms[best].value))
			best = names[i];
	}
	return best;
}

/* Position in names[] of the first symbol called NAME, or f->nsyms. */
static size_t first_named(const struct audit_file *f, const char *name)
{
	if (names_of != f) {
		free(names);
		names = xcalloc(f->nsyms, sizeof(size_t));
		for (size_t i = 0; i < f->nsyms; i++)
			names[i] = i;
		qsort_r(names, f->nsyms, sizeof(size_t), by_name, (void *)f);
		names_of = f;
	}
	size_t lo = 0, hi = f->nsyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(f->syms[names[mid]].name, name);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->nsyms && !strcmp(f->syms[names[lo]].name, name) ? lo : f->nsyms;
}
