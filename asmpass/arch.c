/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The list of backends.  Adding an architecture: one file in arches/ and one
 * line here. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "asmpass/arch.h"

static const struct kcfi_arch *const backends[] = {
	&arch_x86_64,
	&arch_i386,
	&arch_aarch64,
	&arch_riscv64,
	&arch_arm,
};

/* GNU as's --32, --64 and --x32 choose the x86 instruction set whatever its
 * triple: gcc -m32 hands x86_64-linux-gnu code to "as --32".  The backend is
 * the one of that mode: "i386", "x86_64" or "x32" (which has none). */
static const char *x86_mode_arch(const char *arch, size_t len, const char *mode)
{
	bool x86 = (len == 6 && !memcmp(arch, "x86_64", 6)) || (len == 5 && !memcmp(arch, "amd64", 5)) ||
		   (len == 4 && arch[0] == 'i' && arch[1] >= '3' && arch[1] <= '6' &&
		    !memcmp(arch + 2, "86", 2));
	if (!x86 || !mode)
		return NULL;
	return !strcmp(mode, "--32") ? "i386" : !strcmp(mode, "--64") ? "x86_64" : "x32";
}

const char *arch_missing(const struct kcfi_arch *a)
{
	if (!a->name)
		return "name";
	if (!a->serves)
		return "serves";
	if (!a->classify)
		return "classify";
	if (!a->emit_check)
		return "emit_check";
	if (!a->emit_entry)
		return "emit_entry";
	if (!a->gpr)
		return "gpr";
	if (!a->gpr_name)
		return "gpr_name";
	if (!a->check_clobbers)
		return "check_clobbers";
	if (!a->comment || !a->comment[0])
		return "comment";
	if (!a->nop || !a->nop[0])
		return "nop";
	/* The optional ones that only make sense together. */
	if (!a->emit_stub_jump != !a->stub_align)
		return a->emit_stub_jump ? "stub_align" : "emit_stub_jump";
	if (!a->seq_begin != !a->seq_step)
		return a->seq_begin ? "seq_step" : "seq_begin";
	if (a->syntax_directive && !a->syntax_refusal)
		return "syntax_refusal";
	if (a->app_line && !a->app_by_linemarkers)
		return "app_by_linemarkers";
	return NULL;
}

const struct kcfi_arch *arch_for_triple(const char *triple, unsigned ptr_bits, const char *mode,
					const char **broken)
{
	size_t len = strcspn(triple, "-");
	const char *arch = x86_mode_arch(triple, len, mode);
	if (arch)
		len = strlen(arch);
	else
		arch = triple;
	*broken = NULL;
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		const struct kcfi_arch *a = backends[i];
		if (!a->serves || !a->serves(arch, len, ptr_bits))
			continue;
		/* Checked and prepared once per process, on first use, so
		 * that no operation needs a NULL test where it is called. */
		static const struct kcfi_arch *ready[sizeof(backends) / sizeof(backends[0])];
		if (!ready[i]) {
			static char why[96];
			const char *m = arch_missing(a);
			if (m)
				snprintf(why, sizeof(why), "the %s backend lacks '%s'",
					 a->name ? a->name : "(unnamed)", m);
			else if (arch_init(a))
				snprintf(why, sizeof(why), "the %s backend failed to initialise", a->name);
			else
				why[0] = '\0';
			if (why[0]) {
				*broken = why;
				return NULL;
			}
			ready[i] = a;
		}
		return a;
	}
	return NULL;
}

const struct kcfi_arch *arch_nth(size_t i)
{
	return i < sizeof(backends) / sizeof(backends[0]) ? backends[i] : NULL;
}
