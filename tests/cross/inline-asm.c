/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inline assembly next to a checked C call (tests/cross/inline-asm.sh): the
 * asm statements hold an indirect call, an asm goto's indirect jump and
 * several lines each, one is basic asm, and a file-scope asm defines a
 * function that calls through a register; kcfi-as must pass them on as they are and record
 * them as exempt, while the C call through a pointer stays checked.
 *   inline-asm          runs everything, prints "inline asm: ok"
 *   inline-asm wrong    the C call through a mistyped pointer: traps */
#include <stdio.h>
#include <string.h>

typedef int (*unary)(int);

static volatile int hits;

void bump(void)
{
	hits++;
}

int twice(int x)
{
	return 2 * x;
}

int add(int a, int b)
{
	return a + b;
}

/* The registers a call from asm may change, per the target's ABI; the
 * pointer itself goes in a register the callee keeps. */
#if defined(__x86_64__)
#define CALL_CLOBBERS "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "cc", "memory"
#elif defined(__i386__)
#define CALL_CLOBBERS "eax", "ecx", "edx", "cc", "memory"
#elif defined(__aarch64__)
#define CALL_CLOBBERS "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", \
	"x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x30", "cc", "memory"
#elif defined(__riscv)
#define CALL_CLOBBERS "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", \
	"a3", "a4", "a5", "a6", "a7", "memory"
#elif defined(__arm__)
#define CALL_CLOBBERS "r0", "r1", "r2", "r3", "ip", "lr", "cc", "memory"
#endif

/* An indirect call written in asm, over several lines with a comment. */
__attribute__((noinline)) void asm_call(void (*p)(void))
{
#if defined(__x86_64__)
	/* Below the red zone, and the stack aligned as at a call. */
	__asm__ volatile("mov %%rsp, %%rbx\n\t"
			 "# the callee is bump()\n\t"
			 "sub $256, %%rsp\n\tand $-16, %%rsp\n\t"
			 "call *%0\n\t"
			 "mov %%rbx, %%rsp" :: "r"(p) : "rbx", CALL_CLOBBERS);
#elif defined(__i386__)
	__asm__ volatile("# the callee is bump()\n\tcall *%0\n\tnop" :: "r"(p) : CALL_CLOBBERS);
#elif defined(__aarch64__)
	__asm__ volatile("// the callee is bump()\n\tblr %0\n\tnop" :: "r"(p) : CALL_CLOBBERS);
#elif defined(__riscv)
	__asm__ volatile("# the callee is bump()\n\tjalr %0\n\tnop" :: "r"(p) : CALL_CLOBBERS);
#elif defined(__arm__)
	__asm__ volatile("@ the callee is bump()\n\tblx %0\n\tnop" :: "r"(p) : CALL_CLOBBERS);
#endif
}

/* asm goto: a conditional direct branch, then an indirect jump to a C
 * label through a register.  Returns 0 when the asm jumped. */
__attribute__((noinline)) int asm_jump(int x)
{
#if defined(__x86_64__)
	__asm__ goto("test %0, %0\n\tjz %l[out]\n\t"
		     "lea %l[out](%%rip), %%rax\n\tjmp *%%rax" :: "r"(x) : "rax", "cc" : out);
#elif defined(__i386__)
	__asm__ goto("test %0, %0\n\tjz %l[out]\n\t"
		     "mov $%l[out], %%eax\n\tjmp *%%eax" :: "r"(x) : "eax", "cc" : out);
#elif defined(__aarch64__)
	__asm__ goto("cbz %w0, %l[out]\n\t"
		     "adr x16, %l[out]\n\tbr x16" :: "r"(x) : "x16" : out);
#elif defined(__riscv)
	__asm__ goto("beqz %0, %l[out]\n\t"
		     "lla t0, %l[out]\n\tjr t0" :: "r"(x) : "t0" : out);
#elif defined(__arm__)
	/* adr gives the label's address without the Thumb bit, and mov pc
	 * does not change state: the same text serves both. */
	__asm__ goto("cmp %0, #0\n\tbeq %l[out]\n\t"
		     "adr ip, %l[out]\n\tmov pc, ip" :: "r"(x) : "ip", "cc" : out);
#endif
	return 1;
out:
	return 0;
}

/* File-scope asm: a function of its own that calls through a register.
 * GCC prints no line markers around it; on arm nothing but the
 * .syntax/.thumb lines it shares with GCC's own code says it is asm. */
void fs_call(void (*p)(void));
#if defined(__x86_64__)
__asm__(".text\n.globl fs_call\n.type fs_call, @function\nfs_call:\n"
	"\tpush %rbx\n\tcall *%rdi\n\tpop %rbx\n\tret\n.size fs_call, .-fs_call");
#elif defined(__i386__)
__asm__(".text\n.globl fs_call\n.type fs_call, @function\nfs_call:\n"
	"\tmov 4(%esp), %eax\n\tcall *%eax\n\tret\n.size fs_call, .-fs_call");
#elif defined(__aarch64__)
__asm__(".text\n.globl fs_call\n.type fs_call, %function\nfs_call:\n"
	"\tstp x29, x30, [sp, -16]!\n\tblr x0\n\tldp x29, x30, [sp], 16\n\tret\n"
	".size fs_call, .-fs_call");
#elif defined(__riscv)
__asm__(".text\n.globl fs_call\n.type fs_call, @function\nfs_call:\n"
	"\taddi sp, sp, -16\n\tsd ra, 8(sp)\n\tjalr a0\n\tld ra, 8(sp)\n"
	"\taddi sp, sp, 16\n\tret\n.size fs_call, .-fs_call");
#elif defined(__arm__)
/* In ARM state whatever the unit's: the linker makes the call interwork. */
__asm__(".text\n.balign 4\n.globl fs_call\n.type fs_call, %function\n.arm\nfs_call:\n"
	"\tpush {r4, lr}\n\tblx r0\n\tpop {r4, pc}\n.size fs_call, .-fs_call");
#endif

/* The checked C call, next to the asm. */
__attribute__((noinline)) int c_call(unary p, int x)
{
	return p(x);
}

unary volatile right = twice;
void *volatile wrong = (void *)add;

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "wrong"))
		return c_call((unary)wrong, 1);
	__asm__("nop");		/* basic asm, no operands */
	asm_call(bump);
	asm_call(bump);
	fs_call(bump);
	if (hits != 3 || asm_jump(0) || asm_jump(1) || c_call(right, 21) != 42) {
		printf("inline asm: wrong (hits %d)\n", hits);
		return 1;
	}
	printf("inline asm: ok\n");
	return 0;
}
