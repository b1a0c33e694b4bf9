/* Each line marked as misuse must be rejected with the message after it. */
int no_argument(void)
{
	return !!__builtin_linux_abi_kcfi_name();	/* MISUSE expected specifier-qualifier-list before ')' */
}
unsigned no_argument_hash(void)
{
	return __builtin_linux_abi_kcfi_hash();		/* MISUSE expected specifier-qualifier-list before ')' */
}
unsigned constant(void)
{
	return __builtin_linux_abi_kcfi_hash(42);	/* MISUSE expected specifier-qualifier-list before numeric constant */
}
int variable(void)
{
	int x = 5;
	return !!__builtin_linux_abi_kcfi_name(x);	/* MISUSE expected specifier-qualifier-list before 'x' */
}
int two_types(void)
{
	return !!__builtin_linux_abi_kcfi_name(int, int);	/* MISUSE passed 2 arguments, but takes just 1 */
}
unsigned two_types_hash(void)
{
	return __builtin_linux_abi_kcfi_hash(int, long);	/* MISUSE passed 2 arguments, but takes just 1 */
}
