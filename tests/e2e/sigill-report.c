/* Preloaded into a test program: on SIGILL, report where the fault is (as an
 * address of the executable's own ELF image, so it can be compared with
 * .kcfi_traps) and the 14 code bytes ending with the faulting instruction's
 * two, then let the signal kill the process as it would have anyway.
 * Output, on stderr:  sigill vaddr=0x<addr> bytes=<28 hex digits> */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

static void on_sigill(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	const unsigned char *pc = (const unsigned char *)uc->uc_mcontext.gregs[REG_RIP];
	char line[128];
	int n;
	Dl_info info;
	unsigned long vaddr = (unsigned long)pc;

	(void)si;
	if (dladdr(pc, &info) && info.dli_fbase &&
	    ((const Elf64_Ehdr *)info.dli_fbase)->e_type == ET_DYN)
		vaddr -= (unsigned long)info.dli_fbase;
	n = snprintf(line, sizeof(line), "sigill vaddr=0x%lx bytes=", vaddr);
	for (int i = -12; i < 2; i++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, "%02x", pc[i]);
	line[n++] = '\n';
	if (write(2, line, (size_t)n) < 0)
		_exit(99);
	/* Returning re-runs the ud2, which now kills the process. */
	signal(sig, SIG_DFL);
}

__attribute__((constructor)) static void install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigill;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGILL, &sa, NULL);
}
