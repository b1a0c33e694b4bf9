/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Takes the address of taken_plain (built without KCFI, so no preamble) in
 * code only: in a linked program no relocation and no data word is left of
 * it, just "lea taken_plain(%rip)" or "mov $taken_plain".  With
 * -DTAKER_HIDDEN the declaration says it is in this module, so PIC code
 * computes its address itself (adrp+add, auipc+addi) instead of loading it
 * from the GOT. */
#ifdef TAKER_HIDDEN
__attribute__((visibility("hidden")))
#endif
extern int taken_plain(int);
int (*volatile taken_ptr)(int);

int main(void)
{
	taken_ptr = taken_plain;
	return taken_ptr != 0 ? 0 : 1;
}
