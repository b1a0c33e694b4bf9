/* Takes the address of taken_plain (built without KCFI, so no preamble) in
 * code only: in a linked program no relocation and no data word is left of
 * it, just "lea taken_plain(%rip)" or "mov $taken_plain". */
extern int taken_plain(int);
int (*volatile taken_ptr)(int);

int main(void)
{
	taken_ptr = taken_plain;
	return taken_ptr != 0 ? 0 : 1;
}
