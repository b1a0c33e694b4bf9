/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Linked into the run-time test programs (built without KCFI): on SIGTRAP,
 * decode the trap the way Linux 6.12 does and print what it would report,
 * then die of SIGTRAP as an unhandled trap would.
 *
 *   arm64 (arch/arm64/kernel/traps.c): the insn at the PC is "brk #imm" with
 *     (imm & ~0x3ff) == 0x8000; target = x[imm & 31], type = w[(imm >> 5) & 31].
 *   riscv (arch/riscv/kernel/cfi.c): the 32-bit insn before the (c.)ebreak is
 *     a beq, its rs1 holds the reported ("expected") type; the insn after
 *     it is a jalr or c.jalr, its rs1 holds the target.
 *   arm (arch/arm/kernel/hw_breakpoint.c): Linux 6.12 reports a BKPT as a
 *     CFI failure without target or type.  What it could decode instead
 *     (its TODO) is decoded here from kcfi-as's fixed sequence: the BKPT
 *     immediate names the target register (ARM 0x8000|31<<5|T, Thumb
 *     0x80|T), the expected id is the XOR of the four eor immediates
 *     before the beq (and a pop {r3}, when the target is ip).
 *
 * Output: "kcfi-trap pc=0x... target=0x... type=0x... other=0x..." where
 * "other" is the second register the check compared (riscv: beq's rs2).
 * kcfi-as puts the expected id in rs1 and the callee's in rs2; Clang's
 * order is the reverse (lib.sh, trapped). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

/* Die of SIGTRAP, as the program would have without this handler. */
static void redeliver(void)
{
	sigset_t set;
	signal(SIGTRAP, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, SIGTRAP);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(SIGTRAP);
	_exit(1);
}

static void die(const char *why)
{
	dprintf(2, "kcfi-trap undecodable: %s\n", why);
	redeliver();
}

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uint64_t pc, target, type, other = 0;
	(void)sig;
	(void)si;
#if defined(__aarch64__)
	pc = uc->uc_mcontext.pc;
	uint32_t insn;
	memcpy(&insn, (void *)pc, 4);
	if ((insn & 0xffe0001fu) != 0xd4200000u)
		die("not a brk");
	unsigned imm = (insn >> 5) & 0xffff;
	if ((imm & ~0x3ffu) != 0x8000)
		die("brk immediate outside the CFI range");
	target = uc->uc_mcontext.regs[imm & 31];
	type = (uint32_t)uc->uc_mcontext.regs[(imm >> 5) & 31];
#elif defined(__riscv) && __riscv_xlen == 64
	/* __gregs[0] is the pc, __gregs[n] is xn for n >= 1 */
	const unsigned long *x = uc->uc_mcontext.__gregs;
	pc = x[0];
	uint16_t half;
	uint32_t beq, after;
	memcpy(&half, (void *)pc, 2);
	unsigned len = (half & 3) == 3 ? 4 : 2;
	if (len == 2 ? half != 0x9002 : memcmp((void *)pc, "\x73\x00\x10\x00", 4))
		die("not an ebreak");
	memcpy(&beq, (void *)(pc - 4), 4);
	if ((beq & 0x707f) != 0x63)
		die("no 32-bit beq before the ebreak");
	type = (uint32_t)x[(beq >> 15) & 31];
	other = (uint32_t)x[(beq >> 20) & 31];
	memcpy(&after, (void *)(pc + len), 4);
	if ((after & 3) == 3 && (after & 0x707f) == 0x67)
		target = x[(after >> 15) & 31];
	else if ((after & 3) != 3 && (after & 0xf07f) == 0x9002 && ((after >> 7) & 31))
		target = x[(after >> 7) & 31];
	else
		die("no jalr or c.jalr after the ebreak");
#elif defined(__arm__)
	const unsigned long *r = &uc->uc_mcontext.arm_r0;	/* r0..r10, fp, ip, sp, lr, pc */
	uintptr_t at = uc->uc_mcontext.arm_pc;
	pc = at;
	bool thumb = uc->uc_mcontext.arm_cpsr & 0x20;
	unsigned treg;
	uint32_t id = 0;
	if (thumb) {
		uint16_t bk, pop;
		memcpy(&bk, (void *)at, 2);
		if ((bk & 0xfff0) != 0xbe80)
			die("not a bkpt #0x80|T");
		treg = bk & 15;
		memcpy(&pop, (void *)(at - 6), 2);
		uintptr_t k = at - 8 - (pop == 0xbc08 ? 2 : 0);	/* the eors.w */
		for (int i = 0; i < 4; i++, k -= 4) {
			uint16_t h[2];
			memcpy(h, (void *)k, 4);
			if ((h[0] & 0xfbe0) != 0xf080 || (h[1] & 0x8000))
				die("no eor.w #imm where the check has one");
			uint32_t imm12 = (uint32_t)(h[0] >> 10 & 1) << 11 | (uint32_t)(h[1] >> 12 & 7) << 8 | (h[1] & 0xff);
			uint32_t v = imm12 & 0xff;
			switch (imm12 >> 8) {	/* ThumbExpandImm */
			case 0: break;
			case 1: v = v << 16 | v; break;
			case 2: v = v << 24 | v << 8; break;
			case 3: v = v << 24 | v << 16 | v << 8 | v; break;
			default: {
				unsigned rot = imm12 >> 7;
				v = (0x80 | (imm12 & 0x7f)) >> rot | (0x80u | (imm12 & 0x7f)) << (32 - rot);
			}
			}
			id ^= v;
		}
	} else {
		uint32_t bk, w;
		memcpy(&bk, (void *)at, 4);
		if ((bk & 0xfff000f0u) != 0xe1200070u)
			die("not a bkpt");
		unsigned imm = (bk >> 4 & 0xfff0) | (bk & 15);
		if ((imm & ~15u) != (0x8000u | 31u << 5))
			die("bkpt immediate outside the CFI form");
		treg = imm & 15;
		uintptr_t k = at - 8;
		memcpy(&w, (void *)k, 4);
		if (w == 0xe49d3004u)	/* pop {r3} */
			k -= 4;
		for (int i = 0; i < 4; i++, k -= 4) {
			memcpy(&w, (void *)k, 4);
			if ((w & 0x0fe00000u) != 0x02200000u)
				die("no eor #imm where the check has one");
			unsigned rot = (w >> 8 & 15) * 2;
			uint32_t v = w & 0xff;
			id ^= rot ? v >> rot | v << (32 - rot) : v;
		}
	}
	target = r[treg];
	type = id;
#else
#error "no decoder for this architecture"
#endif
	dprintf(1, "kcfi-trap pc=0x%llx target=0x%llx type=0x%08llx other=0x%08llx\n",
		(unsigned long long)pc, (unsigned long long)target,
		(unsigned long long)type, (unsigned long long)other);
	redeliver();
}

__attribute__((constructor)) static void install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTRAP, &sa, NULL);
}
