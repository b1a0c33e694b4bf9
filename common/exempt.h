/* SPDX-License-Identifier: GPL-2.0-or-later */
/* .debug: the indirect branches kcfi-as deliberately leaves unchecked.
 *
 * kcfi-as writes one record per such branch (or per inline-assembly block)
 * into a section without SHF_ALLOC, so it costs nothing in the loaded image
 * and survives `ld -r` and a final link like debug information does.  Each
 * record is three 64-bit words, little-endian as every target kcfi-as has:
 *	start	address of the branch (or of the block)	R_*_64 relocation
 *	end	start for one branch; the block's end	R_*_64 relocation
 *	reason	enum kcfi_exempt_reason
 * kcfi-audit (audit/) reads it to tell an exempt branch from a missing
 * check, and code kcfi-as instrumented from code it never saw.
 *
 * The name is one every stock linker script already places: .debug, the
 * section of DWARF 1, which no compiler has emitted since DWARF 1 was
 * dropped, and which binutils' default scripts and Linux's DWARF_DEBUG (every
 * architecture, 6.1 and 6.12 alike) still list as a non-allocated output
 * section at address 0.  So the records reach vmlinux and programs unchanged
 * under --orphan-handling=error (CONFIG_WERROR), with no patch to the kernel's
 * linker scripts; a name of our own is an orphan there and fails the link.
 * Of the names those scripts list, it is the one the tools that walk debug
 * sections leave alone: readelf -w dumps only .debug_* names and exits 1 on
 * one it does not know, and dwz, which debhelper runs on every package,
 * refuses any unknown .debug_* section; gdb, libdw and valgrind read no
 * DWARF 1.  BFD's DWARF 1 reader, which addr2line and ld's messages fall
 * back to in objects without DWARF 2, stops at a DIE length below 5: every
 * unit kcfi-as annotates starts its records with a zero record
 * (record_pad()), which kcfi-audit skips like a discarded COMDAT's, so a
 * linked file's section starts with a zero word.  The .debug prefix keeps
 * the other property we need: tools that read every section's relocations
 * take .debug* for annotations -- Linux's objtool would otherwise see a data
 * reference to each recorded place, warn that it is no ENDBR and keep every
 * function's ENDBR from being sealed under IBT.  (strip --strip-debug removes
 * it with the DWARF.)  Absolute 64-bit words rather than label differences,
 * because riscv's linker relaxation turns a difference into a pair of
 * relocations.
 *
 * Earlier kcfi-as wrote the same records as .debug_srcinfo (whose unknown
 * name made readelf -w fail and dwz refuse every -g program) and before that
 * as .debug_kcfi_exempt (placed in Linux by a patch of ours); kcfi-audit
 * still reads both, so older objects and kernels keep being audited.
 */
#ifndef KCFI_COMMON_EXEMPT_H
#define KCFI_COMMON_EXEMPT_H

#include <string.h>

#define KCFI_EXEMPT_SECTION ".debug"
#define KCFI_EXEMPT_SECTION_SRCINFO ".debug_srcinfo"
#define KCFI_EXEMPT_SECTION_OLD ".debug_kcfi_exempt"
#define KCFI_EXEMPT_RECORD_SIZE 24

enum kcfi_exempt_reason {
	KCFI_EXEMPT_INLINE_ASM = 1,	/* between #APP and #NO_APP: a range */
	KCFI_EXEMPT_NO_SANITIZE = 2,	/* .kcfi_call_unchecked (__nocfi) */
	KCFI_EXEMPT_JUMP_TABLE = 3,	/* .kcfi_branch_nocall: switch, computed goto */
	KCFI_EXEMPT_UNPROTOTYPED = 4,	/* a call through T (*)(), as Clang */
	KCFI_EXEMPT_DIRECT = 5,		/* .kcfi_call_direct, -pg's GOT call: a known function */
	KCFI_EXEMPT_TRAMPOLINE = 6,	/* GCC's nested-function trampoline template */
	KCFI_EXEMPT_EXTERN_STUB = 7,	/* an extern stub's jump to its function, whose
					   type the stub's own preamble vouches for */
	KCFI_EXEMPT_REASONS,		/* one past the last */
	/* Not an exemption: START..END is a function kcfi-as instrumented
	 * (its label to its ".size NAME, .-NAME"). */
	KCFI_RANGE_INSTRUMENTED = 64,
	/* Not an exemption: the mangled name of a type id the unit put in a
	 * preamble, a check or a __kcfi_typeid_ symbol.  START is the id as
	 * the code holds it (x86: ENDBR-masked), END the number N of records
	 * that follow and hold the name instead of three words: NUL-terminated,
	 * NUL-padded to N * 24 bytes.  Plain numbers, no relocations.  Kept in
	 * this section so that it reaches vmlinux wherever the exemptions do
	 * (a stock linker script places this one section, see above); the
	 * linker does not merge the copies of different objects, kcfi-audit
	 * does. */
	KCFI_TYPE_NAME = 65,
	/* Not an exemption: a place where a function's address was converted
	 * to (or stored as) a function pointer whose type id differs from the
	 * function's own -- a call through it will trap.  START holds the two
	 * ids as the code holds them (x86: ENDBR-masked), the function's own
	 * in the low 32 bits and the pointer's in the high 32; END the number
	 * N of records that follow and hold, instead of three words, seven
	 * NUL-terminated strings, NUL-padded to N * 24 bytes, in this order:
	 * the function's symbol, its mangled type name, the pointer's mangled
	 * type name, the source file, the line (decimal), the function or
	 * variable the conversion is in, and its kind (enum
	 * kcfi_conversion_kind's names).  Plain numbers and bytes, no
	 * relocations, like KCFI_TYPE_NAME. */
	KCFI_CONVERSION = 66,
};

/* How a function's address reached a pointer of another type.  */
#define KCFI_CONVERSION_KINDS(X)                                             \
	X(CAST, "cast")		/* an explicit cast in code */                 \
	X(INIT, "init")		/* a static or automatic initializer */        \
	X(ASSIGN, "assign")	/* an assignment */                            \
	X(ARG, "arg")		/* passed as an argument of another type */    \
	X(RETURN, "return")	/* returned as another type */                 \
	X(VIA_VOID, "void*")	/* through a void * or an integer, followed */ \
	X(UNION, "union")	/* stored in a union member; the record is    \
				   for a union's other member of this type,  \
				   which could read it: no -Wkcfi-cast, and  \
				   kcfi-audit --mismatches lists it with =all \
				   only (most such unions are never read      \
				   through another member) */                \
	X(DECL, "decl")		/* the address of a function the unit only     \
				   declares: START's two ids may be equal;     \
				   kcfi-audit compares the declared type with  \
				   the definition's preamble in another unit */

/* Does a section called NAME hold these records (today's name or an old one)? */
static inline int kcfi_exempt_section_name(const char *name)
{
	return !strcmp(name, KCFI_EXEMPT_SECTION) || !strcmp(name, KCFI_EXEMPT_SECTION_SRCINFO) ||
	       !strcmp(name, KCFI_EXEMPT_SECTION_OLD);
}

/* How many records a name of LEN bytes takes after its KCFI_TYPE_NAME record. */
#define KCFI_TYPE_NAME_RECORDS(len) (((len) + 1 + KCFI_EXEMPT_RECORD_SIZE - 1) / KCFI_EXEMPT_RECORD_SIZE)

/* A short name for reports ("inline-asm"), or NULL for an unknown code. */
static inline const char *kcfi_exempt_reason_name(unsigned long long r)
{
	static const char *const names[KCFI_EXEMPT_REASONS] = {
		[KCFI_EXEMPT_INLINE_ASM] = "inline-asm",
		[KCFI_EXEMPT_NO_SANITIZE] = "no-sanitize",
		[KCFI_EXEMPT_JUMP_TABLE] = "jump-table",
		[KCFI_EXEMPT_UNPROTOTYPED] = "unprototyped",
		[KCFI_EXEMPT_DIRECT] = "direct",
		[KCFI_EXEMPT_TRAMPOLINE] = "trampoline",
		[KCFI_EXEMPT_EXTERN_STUB] = "extern-stub",
	};
	return r > 0 && r < KCFI_EXEMPT_REASONS ? names[r] : 0;
}

#endif
