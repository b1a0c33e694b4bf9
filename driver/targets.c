/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-gcc: what differs between targets -- the code generation options
 * kcfi-as cannot instrument, the retpoline call register, arity and typed
 * stubs -- in one table rather than in tests of the triple wherever an
 * option is handled.  The refusals' reasons are driver/kcfi-gcc.opt's. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "driver/driver.h"
#include "driver/kcfi-gcc-opts.h"

static bool x86_triple(const char *t)
{
	return !strncmp(t, "x86_64", 6) || !strncmp(t, "amd64", 5) ||
	       (t[0] == 'i' && t[1] >= '3' && t[1] <= '7' && !strncmp(t + 2, "86", 2));
}

/* Does the compiler make 32-bit x86 code: -m32, or an i386 triple without
 * -m64 (or -mx32, refused in x86_refuse)? */
static bool x86_32_mode(const char *triple, const char *mode)
{
	if (!x86_triple(triple))
		return false;
	if (mode)
		return !strcmp(mode, "-m32");
	return triple[0] == 'i';
}

bool x86_32(const struct driver *d)
{
	return x86_32_mode(d->triple, d->codegen.mode);
}

/* One line saying why, or 0 if kcfi-as can handle what GCC will print. */
static int x86_refuse(const struct driver *d)
{
	const struct codegen_opts *o = &d->codegen;
	const char *why = NULL, *what = NULL;
	char both[64];
	if (o->masm && strcmp(o->masm, "att") != 0) {
		what = o->masm - 6;
		why = KCFI_GCC_REASON_MASM;
	} else if (o->mode && !strcmp(o->mode, "-mx32")) {
		what = o->mode;
		why = KCFI_GCC_REASON_MX32;
	} else if (o->mode && !strcmp(o->mode, "-m16")) {
		what = o->mode;
		why = KCFI_GCC_REASON_M16;
	} else if (o->profile && o->cmodel && !strcmp(o->cmodel, "large")) {
		snprintf(both, sizeof(both), "%s with -mcmodel=large", o->profile);
		what = both;
		why = KCFI_GCC_REASON_PG;
	} else if (o->indirect_branch && !strcmp(o->indirect_branch, "thunk-inline") &&
		   x86_32(d)) {
		what = o->indirect_branch - 18;
		why = KCFI_GCC_REASON_MINDIRECT_BRANCH;
	} else if (o->instrument_return && strcmp(o->instrument_return, "none") != 0) {
		what = o->instrument_return - 20;
		why = KCFI_GCC_REASON_MINSTRUMENT_RETURN;
	}
	if (!what)
		return 0;
	fprintf(stderr, "kcfi-gcc: error: %s is not supported with -fsanitize=kcfi (%s)\n",
		what, why);
	return 1;
}

/* -mx32 and -m16 count here, where x86_refuse names them. */
static bool is_x86_64(const struct driver *d)
{
	return x86_triple(d->triple) && !x86_32(d);
}

static bool is_i386(const struct driver *d)
{
	return x86_32(d);
}

static bool is_aarch64(const struct driver *d)
{
	return !strncmp(d->triple, "aarch64", 7);
}

static bool is_riscv64(const struct driver *d)
{
	return !strncmp(d->triple, "riscv64", 7);
}

static const struct target_policy targets[] = {
	{ .is = is_x86_64, .refuse = x86_refuse, .retpoline_call_reg = "r11",
	  .arity = ARITY_WRITTEN, .as_mode = true },
	{ .is = is_i386, .refuse = x86_refuse, .arity = ARITY_REFUSED,
	  .no_extern_stubs = "not on i386 (-m32): a stub would need the GOT pointer in %ebx, "
			     "which nothing sets up on the way in from a function pointer",
	  .as_mode = true, .mode_option = "-m32" },
	{ .is = is_aarch64, .arity = ARITY_IGNORED },
	{ .is = is_riscv64, .arity = ARITY_IGNORED },
	/* arm, and targets kcfi-as has no backend for. */
	{ .is = NULL, .arity = ARITY_REFUSED },
};

const struct target_policy *target_of(const struct driver *d)
{
	const struct target_policy *t = targets;
	while (t->is && !t->is(d))
		t++;
	return t;
}

/* The register the check reads a retpoline call's target from, if the
 * plugin is to load it there. */
const char *retpoline_call_reg(const struct driver *d)
{
	const char *ib = d->codegen.indirect_branch;
	if (!ib || !strncmp(ib, "keep", 5))
		return NULL;
	return target_of(d)->retpoline_call_reg;
}

/* Typed stubs for library functions (doc/extern-stubs.md) serve programs
 * linked against uninstrumented libraries; where that cannot be what the
 * user means, say so rather than build something else. */
bool extern_stubs_possible(const struct driver *d)
{
	const char *why = NULL;
	if (!d->extern_stubs)
		return true;
	/* A later -fno-sanitize=kcfi (or =all, as test suites append to build
	 * their probes plainly) turns the mode off with KCFI, like any other
	 * sub-option of a sanitizer; the mode alone is a mistake worth naming. */
	if (!d->requested)
		why = "it needs -fsanitize=kcfi";
	else if (!d->enabled)
		return true;
	else if (d->codegen.cmodel && !strcmp(d->codegen.cmodel, "kernel"))
		why = "kernel code calls no uninstrumented library, and a stub's "
		      "jump through the GOT is not kernel code";
	else if (d->codegen.cmodel && !strcmp(d->codegen.cmodel, "large"))
		why = "a stub reaches the GOT with a 32-bit displacement, "
		      "which -mcmodel=large does not promise";
	else
		why = target_of(d)->no_extern_stubs;
	if (!why)
		return true;
	fprintf(stderr, "kcfi-gcc: error: -fsanitize-kcfi-extern-stubs: %s\n", why);
	return false;
}

/* True if the plugin is to write arities (see enum arity_policy). */
bool arity_wanted(const struct driver *d, bool *refused)
{
	*refused = false;
	if (!d->arity || !d->enabled)
		return false;
	const struct target_policy *t = target_of(d);
	if (t->arity != ARITY_REFUSED)
		return t->arity == ARITY_WRITTEN;
	fprintf(stderr, "kcfi-gcc: error: target '%s'%s%s is unsupported by "
		"-fsanitize-kcfi-arity (as with Clang: 64-bit Linux targets only)\n",
		d->triple, t->mode_option && d->codegen.mode ? " with " : "",
		t->mode_option && d->codegen.mode ? t->mode_option : "");
	*refused = true;
	return false;
}
