/* .debug_kcfi_exempt: the indirect branches kcfi-as deliberately leaves unchecked.
 *
 * kcfi-as writes one record per such branch (or per inline-assembly block)
 * into a section without SHF_ALLOC, so it costs nothing in the loaded image
 * and survives `ld -r` and a final link like debug information does.  Each
 * record is three 64-bit words, all little-endian on the three targets:
 *	start	address of the branch (or of the block)	R_*_64 relocation
 *	end	start for one branch; the block's end	R_*_64 relocation
 *	reason	enum kcfi_exempt_reason
 * kcfi-audit (audit/) reads it to tell an exempt branch from a missing
 * check, and code kcfi-as instrumented from code it never saw.
 *
 * The name starts with .debug because tools that read every section's
 * relocations take .debug* for what it is, annotations: Linux's objtool
 * would otherwise see a data reference to each recorded place, warn that it
 * is no ENDBR and keep every function's ENDBR from being sealed under IBT.
 * (strip --strip-debug removes it with the DWARF.)  Absolute 64-bit words rather than label differences, because
 * riscv's linker relaxation turns a difference into a pair of relocations.
 */
#ifndef KCFI_ASMPASS_EXEMPT_H
#define KCFI_ASMPASS_EXEMPT_H

#define KCFI_EXEMPT_SECTION ".debug_kcfi_exempt"
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
	 * (Linux links with --orphan-handling=error under CONFIG_WERROR, and
	 * boot/patches/0003 places this one section); the linker does not
	 * merge the copies of different objects, kcfi-audit does. */
	KCFI_TYPE_NAME = 65,
};

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
