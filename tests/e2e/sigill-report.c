/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Preloaded into a test program: on SIGILL, report where the fault is (as an
 * address of the executable's own ELF image, so it can be compared with
 * .kcfi_traps) and the 14 code bytes ending with the faulting instruction's
 * two, then let the signal kill the process as it would have anyway.
 * Output, on stderr:  sigill vaddr=0x<addr> bytes=<28 hex digits>
 *
 * With $KCFI_TRAP_LOG set (bench/binutils-suites.sh preloads it into whole
 * test suites), a KCFI trap is also decoded and appended to that file, one
 * line per trap, so that traps can be grouped by call site and target:
 *   kcfi-trap site=<file>+0x<off> target=<file>+0x<off> sym=<name|?>
 *             expected=0x<id> preamble=0x<id>|none
 * "preamble=none": no `movl $id, %eax` ends right before the target, i.e.
 * the target is not instrumented (libc, say).  Lines are written with one
 * write(2) to an O_APPEND file, so concurrent test processes do not mix.
 * A SIGILL handler the program installs runs after the report. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

/* ADDR as "<file>+0x<offset>", the offset an ELF address for ET_DYN files
 * (what addr2line wants); SYM gets the dynamic symbol's name when there is
 * one exactly at ADDR. */
static int where(char *buf, size_t len, unsigned long addr, const char **sym)
{
	Dl_info info;
	if (!dladdr((void *)addr, &info) || !info.dli_fbase)
		return snprintf(buf, len, "?+0x%lx", addr);
	if (sym)
		*sym = info.dli_sname && (unsigned long)info.dli_saddr == addr ? info.dli_sname : "?";
	if (((const Elf64_Ehdr *)info.dli_fbase)->e_type == ET_DYN)
		addr -= (unsigned long)info.dli_fbase;
	return snprintf(buf, len, "%s+0x%lx", info.dli_fname, addr);
}

/* Read N bytes at ADDR without faulting on an unmapped target. */
static int peek(unsigned long addr, void *out, size_t n)
{
	struct iovec local = { out, n }, remote = { (void *)addr, n };
	return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)n ? 0 : -1;
}

/* The check in front of a ud2 (doc/abi.md, x86_64):
 *   41 ba <-id>          movl $-id, %r10d
 *   4x 03 5r <disp8>     addl disp8(%reg), %r10d
 *   74 02                je  (over the ud2)
 * REG holds the target; the preamble's id lies at target + disp8 + 0..3,
 * after the 0xb8 of `movl $id, %eax`. */
static void log_kcfi(const unsigned char *pc, const ucontext_t *uc)
{
	static const int gregs[16] = { REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP,
				       REG_RSI, REG_RDI, REG_R8, REG_R9, REG_R10, REG_R11,
				       REG_R12, REG_R13, REG_R14, REG_R15 };
	const char *path = getenv("KCFI_TRAP_LOG");
	const unsigned char *c = pc - 12;
	if (!path || c[0] != 0x41 || c[1] != 0xba || (c[6] & 0xf4) != 0x44 || c[7] != 0x03 ||
	    (c[8] & 0xc0) != 0x40 || ((c[8] >> 3) & 7) != 2 || c[10] != 0x74)
		return;
	uint32_t neg;
	memcpy(&neg, c + 2, 4);
	unsigned reg = (c[8] & 7) | ((c[6] & 1) << 3);
	unsigned long target = (unsigned long)uc->uc_mcontext.gregs[gregs[reg]];
	long disp = (signed char)c[9];
	unsigned char pre[5];
	char site[256], tgt[256], line[700], found[16] = "none";
	const char *sym = "?";
	if (!peek(target + (unsigned long)disp - 1, pre, 5) && pre[0] == 0xb8) {
		uint32_t id;
		memcpy(&id, pre + 1, 4);
		snprintf(found, sizeof(found), "0x%08x", id);
	}
	where(site, sizeof(site), (unsigned long)pc, NULL);
	where(tgt, sizeof(tgt), target, &sym);
	int n = snprintf(line, sizeof(line), "kcfi-trap site=%s target=%s sym=%s expected=0x%08x "
			 "preamble=%s\n", site, tgt, sym, (uint32_t)-neg, found);
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0 && n > 0) {
		if (write(fd, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1) < 0)
			_exit(99);
		close(fd);
	}
}

/* Programs install SIGILL handlers of their own (GNU as reports "Internal
 * error (Illegal instruction)" and exits): the reporter stays installed and
 * keeps the program's disposition here, reports first, then does what the
 * program asked for, so the program still behaves as without it. */
static struct sigaction program_ill;	/* SIG_DFL until the program sets one */
static bool installed;

static int real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	static int (*next)(int, const struct sigaction *, struct sigaction *);
	if (!next)
		next = (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(RTLD_NEXT, "sigaction");
	return next(sig, act, old);
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (sig != SIGILL || !installed)
		return real_sigaction(sig, act, old);
	if (old)
		*old = program_ill;
	if (act)
		program_ill = *act;
	return 0;
}

sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

static void on_sigill(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	const unsigned char *pc = (const unsigned char *)uc->uc_mcontext.gregs[REG_RIP];
	char line[128];
	int n;

	unsigned long vaddr = (unsigned long)pc;
	Dl_info info;
	if (dladdr(pc, &info) && info.dli_fbase &&
	    ((const Elf64_Ehdr *)info.dli_fbase)->e_type == ET_DYN)
		vaddr -= (unsigned long)info.dli_fbase;
	n = snprintf(line, sizeof(line), "sigill vaddr=0x%lx bytes=", vaddr);
	for (int i = -12; i < 2; i++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, "%02x", pc[i]);
	line[n++] = '\n';
	if (write(2, line, (size_t)n) < 0)
		_exit(99);
	if (pc[0] == 0x0f && pc[1] == 0x0b)
		log_kcfi(pc, uc);

	struct sigaction p = program_ill;
	if (p.sa_flags & SA_RESETHAND)
		program_ill.sa_handler = SIG_DFL;
	if ((p.sa_flags & SA_SIGINFO) && p.sa_sigaction) {
		p.sa_sigaction(sig, si, uc_);
		return;
	}
	if (!(p.sa_flags & SA_SIGINFO) && p.sa_handler != SIG_DFL && p.sa_handler != SIG_IGN) {
		p.sa_handler(sig);
		return;
	}
	/* Returning re-runs the ud2, which now kills the process. */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	real_sigaction(sig, &dfl, NULL);
}

__attribute__((constructor)) static void install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigill;
	sa.sa_flags = SA_SIGINFO;
	real_sigaction(SIGILL, &sa, NULL);
	program_ill.sa_handler = SIG_DFL;
	installed = true;
}
