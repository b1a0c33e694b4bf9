/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-elfcheck: read an ELF object or executable and check what Linux will
 * decode in it, independently of kcfi-as's own code.
 *
 *   kcfi-elfcheck [--prefix=M] FILE
 *
 * For every .kcfi_traps entry it resolves the trap address (relocations of
 * relocatable objects included) and decodes the bytes in front of the trap
 * the way arch/x86/kernel/cfi.c does (movl $-H,%r10d at -12, addl
 * disp8(%rN),%r10d at -6, je .+2 at -2, ud2 at 0).  For every __cfi_<f>
 * symbol it checks the preamble: STT_FUNC, single-byte NOPs, "movl $H,%eax"
 * immediately before the M prefix NOPs of f, and the size covering both.
 * It prints one line per item and exits non-zero if anything is malformed:
 *   trap <section>+0x<off> type=0x<H> target=<reg> disp=<d>
 *   preamble __cfi_<f> type=0x<H> nops=<P> binding=<GLOBAL|LOCAL|WEAK>
 *   typeid __kcfi_typeid_<f> = 0x<H>
 */
#include <elf.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const unsigned char *img;
static size_t img_size;
static const Elf64_Ehdr *eh;
static const Elf64_Shdr *sh;
static const char *shstr;
static int errors;

static void bad(const char *fmt, const char *what, unsigned long a)
{
	fprintf(stdout, "BAD ");
	fprintf(stdout, fmt, what, a);
	fputc('\n', stdout);
	errors++;
}

static const Elf64_Shdr *section_by_name(const char *name)
{
	for (unsigned i = 0; i < eh->e_shnum; i++)
		if (!strcmp(shstr + sh[i].sh_name, name))
			return &sh[i];
	return NULL;
}

/* File bytes of section S at offset OFF, or NULL. */
static const unsigned char *at(const Elf64_Shdr *s, long off, size_t len)
{
	if (off < 0 || (size_t)off + len > s->sh_size || s->sh_type == SHT_NOBITS)
		return NULL;
	return img + s->sh_offset + (size_t)off;
}

/* Section containing virtual address A (executables). */
static const Elf64_Shdr *section_of_addr(uint64_t a)
{
	for (unsigned i = 0; i < eh->e_shnum; i++)
		if ((sh[i].sh_flags & SHF_EXECINSTR) && a >= sh[i].sh_addr &&
		    a < sh[i].sh_addr + sh[i].sh_size)
			return &sh[i];
	return NULL;
}

static const char *regname(unsigned r)
{
	static const char *const n[] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
					 "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15" };
	return n[r & 15];
}

/* Decode the x86_64 check in front of the ud2 at TEXT+OFF. */
static void check_x86_trap(const Elf64_Shdr *text, long off, long prefix)
{
	const char *name = shstr + text->sh_name;
	const unsigned char *p = at(text, off - 12, 14);
	if (!p) {
		bad("trap %s+0x%lx: outside its section", name, (unsigned long)off);
		return;
	}
	if (p[12] != 0x0f || p[13] != 0x0b)
		bad("trap %s+0x%lx: not a ud2", name, (unsigned long)off);
	else if (p[0] != 0x41 || p[1] != 0xba)
		bad("trap %s+0x%lx: no movl $imm,%%r10d at trap-12", name, (unsigned long)off);
	else if (!(p[6] == 0x45 || p[6] == 0x44) || p[7] != 0x03 || (p[8] & 0xc0) != 0x40 ||
		 ((p[8] >> 3) & 7) != 2)
		bad("trap %s+0x%lx: no addl disp8(%%reg),%%r10d at trap-6", name, (unsigned long)off);
	else if (p[10] != 0x74 || p[11] != 0x02)
		bad("trap %s+0x%lx: no je .+2 at trap-2", name, (unsigned long)off);
	else {
		uint32_t imm = (uint32_t)p[2] | (uint32_t)p[3] << 8 | (uint32_t)p[4] << 16 |
			       (uint32_t)p[5] << 24;
		unsigned reg = (p[8] & 7) | (p[6] & 1 ? 8 : 0);
		int disp = (signed char)p[9];
		printf("trap %s+0x%lx type=0x%08x target=%s disp=%d\n", name, (unsigned long)off,
		       0u - imm, regname(reg), disp);
		if (prefix >= 0 && disp != -(int)(prefix + 4))
			bad("trap %s+0x%lx: hash load offset does not match the prefix", name,
			    (unsigned long)off);
	}
}

static void check_traps(long prefix)
{
	const Elf64_Shdr *t = section_by_name(".kcfi_traps");
	if (!t)
		return;
	if (eh->e_type == ET_REL) {
		/* Several .kcfi_traps sections (one per code section) may exist;
		 * walk them all. */
		for (unsigned s = 0; s < eh->e_shnum; s++) {
			if (strcmp(shstr + sh[s].sh_name, ".kcfi_traps"))
				continue;
			if (!(sh[s].sh_flags & SHF_LINK_ORDER))
				bad("%s: .kcfi_traps is not SHF_LINK_ORDER%lu", "object", 0);
			const Elf64_Shdr *text = &sh[sh[s].sh_link];
			for (unsigned r = 0; r < eh->e_shnum; r++) {
				if (sh[r].sh_type != SHT_RELA || sh[r].sh_info != s)
					continue;
				const Elf64_Rela *rl = (const void *)(img + sh[r].sh_offset);
				const Elf64_Sym *syms = (const void *)(img + sh[sh[r].sh_link].sh_offset);
				size_t n = sh[r].sh_size / sizeof(*rl);
				for (size_t i = 0; i < n; i++) {
					const Elf64_Sym *sym = &syms[ELF64_R_SYM(rl[i].r_info)];
					if (ELF64_R_TYPE(rl[i].r_info) != R_X86_64_PC32 ||
					    &sh[sym->st_shndx] != text)
						bad("entry %s+0x%lx: not a PC32 reference into the linked section",
						    ".kcfi_traps", (unsigned long)rl[i].r_offset);
					else
						check_x86_trap(text, (long)(sym->st_value + rl[i].r_addend), prefix);
				}
			}
		}
		return;
	}
	size_t n = t->sh_size / 4;
	for (size_t i = 0; i < n; i++) {
		int32_t v;
		memcpy(&v, img + t->sh_offset + 4 * i, 4);
		uint64_t trap = t->sh_addr + 4 * i + (int64_t)v;
		const Elf64_Shdr *text = section_of_addr(trap);
		if (!text) {
			bad("entry %s %lu points outside code", ".kcfi_traps", (unsigned long)i);
			continue;
		}
		check_x86_trap(text, (long)(trap - text->sh_addr), prefix);
	}
}

static void check_symbols(long prefix)
{
	for (unsigned s = 0; s < eh->e_shnum; s++) {
		if (sh[s].sh_type != SHT_SYMTAB)
			continue;
		const Elf64_Sym *syms = (const void *)(img + sh[s].sh_offset);
		const char *str = (const char *)img + sh[sh[s].sh_link].sh_offset;
		size_t n = sh[s].sh_size / sizeof(*syms);
		for (size_t i = 0; i < n; i++) {
			const char *name = str + syms[i].st_name;
			if (!strncmp(name, "__kcfi_typeid_", 14)) {
				if (syms[i].st_shndx != SHN_ABS)
					bad("%s: not an absolute symbol%lu", name, 0);
				printf("typeid %s = 0x%08lx\n", name, (unsigned long)syms[i].st_value);
				continue;
			}
			if (strncmp(name, "__cfi_", 6))
				continue;
			const Elf64_Sym *cs = &syms[i];
			if (ELF64_ST_TYPE(cs->st_info) != STT_FUNC) {
				bad("%s: not STT_FUNC%lu", name, 0);
				continue;
			}
			const Elf64_Shdr *text = &sh[cs->st_shndx];
			long base = (long)(cs->st_value - (eh->e_type == ET_REL ? 0 : text->sh_addr));
			size_t size = cs->st_size;
			const unsigned char *p = at(text, base, size);
			if (!p || size < 5) {
				bad("%s: size %lu too small or outside its section", name, size);
				continue;
			}
			unsigned nops = 0;
			while (nops < size - 5 && p[nops] == 0x90)
				nops++;
			if (nops != size - 5 || p[nops] != 0xb8) {
				bad("%s: not NOPs followed by movl $imm,%%eax (size %lu)", name, size);
				continue;
			}
			uint32_t h = (uint32_t)p[nops + 1] | (uint32_t)p[nops + 2] << 8 |
				     (uint32_t)p[nops + 3] << 16 | (uint32_t)p[nops + 4] << 24;
			/* The function itself must start after the M prefix NOPs. */
			const char *fn = name + 6;
			bool found = false;
			for (size_t j = 0; j < n; j++) {
				if (strcmp(str + syms[j].st_name, fn) || syms[j].st_shndx != cs->st_shndx)
					continue;
				found = true;
				long gap = (long)(syms[j].st_value - cs->st_value) - (long)size;
				if (prefix >= 0 && gap != prefix)
					bad("%s: entry is not prefix NOPs after the preamble (gap %lu)",
					    name, (unsigned long)gap);
			}
			if (!found)
				bad("%s: no function of that name in the same section%lu", name, 0);
			const char *bind = ELF64_ST_BIND(cs->st_info) == STB_GLOBAL ? "GLOBAL" :
					   ELF64_ST_BIND(cs->st_info) == STB_WEAK ? "WEAK" : "LOCAL";
			printf("preamble %s type=0x%08x nops=%u binding=%s\n", name, h, nops, bind);
		}
	}
}

int main(int argc, char **argv)
{
	long prefix = -1;
	const char *file = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--prefix=", 9))
			prefix = strtol(argv[i] + 9, NULL, 10);
		else
			file = argv[i];
	}
	if (!file) {
		fprintf(stderr, "usage: kcfi-elfcheck [--prefix=M] FILE\n");
		return 2;
	}
	int fd = open(file, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st)) {
		perror(file);
		return 2;
	}
	img_size = (size_t)st.st_size;
	img = mmap(NULL, img_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (img == MAP_FAILED || img_size < sizeof(Elf64_Ehdr) || memcmp(img, ELFMAG, SELFMAG) ||
	    img[EI_CLASS] != ELFCLASS64) {
		fprintf(stderr, "%s: not a 64-bit ELF file\n", file);
		return 2;
	}
	eh = (const Elf64_Ehdr *)img;
	if (eh->e_machine != EM_X86_64) {
		fprintf(stderr, "%s: only x86_64 is decoded so far\n", file);
		return 2;
	}
	sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	shstr = (const char *)img + sh[eh->e_shstrndx].sh_offset;
	check_traps(prefix);
	check_symbols(prefix);
	return errors ? 1 : 0;
}
