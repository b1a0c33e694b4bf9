/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Misuse of the typeinfo builtins, one per line.  A line with WANT gets
   exactly the errors listed after it, " | " between two, in that order;
   no other line gets an error, nothing gets a warning (typeinfo-misuse.sh).  */
#define TYPE_NAME_OF(t) __builtin_linux_abi_kcfi_name(t)

unsigned sink(const char *name, unsigned id);

unsigned misuse(int count)
{
	const char *name = "";
	unsigned id = (unsigned) count;

	name = __builtin_linux_abi_kcfi_name();		/* WANT expected specifier-qualifier-list before ')' token | expected type name in '__builtin_linux_abi_kcfi_name' */
	id = __builtin_linux_abi_kcfi_hash();		/* WANT expected specifier-qualifier-list before ')' token | expected type name in '__builtin_linux_abi_kcfi_hash' */
	name = __builtin_linux_abi_kcfi_name(7);	/* WANT expected specifier-qualifier-list before numeric constant | expected type name in '__builtin_linux_abi_kcfi_name' */
	id = __builtin_linux_abi_kcfi_hash(0x10);	/* WANT expected specifier-qualifier-list before numeric constant | expected type name in '__builtin_linux_abi_kcfi_hash' */
	name = __builtin_linux_abi_kcfi_name(count);	/* WANT expected specifier-qualifier-list before 'count' | expected type name in '__builtin_linux_abi_kcfi_name' */
	id = __builtin_linux_abi_kcfi_hash(count);	/* WANT expected specifier-qualifier-list before 'count' | expected type name in '__builtin_linux_abi_kcfi_hash' */
	name = __builtin_linux_abi_kcfi_name(long, char);	/* WANT expected ')' before ',' token */
	id = __builtin_linux_abi_kcfi_hash(void *, int);	/* WANT expected ')' before ',' token */
	id = sink(name, id);
	/* Valid uses in between are untouched, commas inside a type included.  */
	id = sink(__builtin_linux_abi_kcfi_name(struct { int a, b; } *), __builtin_linux_abi_kcfi_hash(void (int, long)));
	/* A builtin reached through the user's macro is still the builtin.  */
	name = TYPE_NAME_OF(3);				/* WANT expected specifier-qualifier-list before numeric constant | expected type name in '__builtin_linux_abi_kcfi_name' */
	/* Errors outside the builtins are GCC's, as ever.  */
	id = "not a number" * 2;			/* WANT invalid operands to binary * (have 'char *' and 'int') */
	return sink(name, id);
}
