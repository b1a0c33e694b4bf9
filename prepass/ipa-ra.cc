// SPDX-License-Identifier: GPL-2.0-or-later
/* Interprocedural register allocation under a patch area that lies wholly
 * before the entry (-fpatchable-function-entry=N,N).
 *
 * GCC turns -fipa-ra off for any patch area: a patched entry may call a
 * tracer that clobbers registers the caller was told survive.  Linux asks
 * for N,N on x86_64 only to leave room in front of each function: its
 * FineIBT rewrite of the KCFI preamble (CONFIG_CALL_PADDING, which
 * CONFIG_CFI_CLANG brings with it there) and the call-depth accounting
 * thunks.  A direct call, the only kind IPA-RA reasons about, lands on the
 * entry, behind every nop; the one thing the kernel can put in its way is
 * an accounting thunk, and that changes memory and the flags, nothing
 * else.  So the same kernel without CFI keeps IPA-RA and ours lost it,
 * and the callers paid in saved and reloaded registers (doc/performance.md
 * "Where the rest went").
 *
 * Here the flag comes back when the patch area is N,N (N > 0) and was the
 * only reason it went: the options had it on, and no -pg (its mcount call
 * is a real call) and no port without RTL prologues.  After "final" every
 * function's record of the registers it clobbers gains the condition
 * codes (what a thunk in the padding changes), and a function with its own
 * patchable_function_entry attribute (its nops may sit after the entry)
 * is recorded as clobbering everything, so its callers assume the full
 * ABI as GCC would have.  -fplugin-arg-kcfi-no-ipa-ra keeps GCC's choice.
 */
#include "kcfi-plugin.h"
#include "rtl.h"
#include "target.h"
#include "cgraph.h"
#include "attribs.h"

bool kcfi_ipa_ra = true;
static int requested = -1;	/* flag_ipa_ra before process_options */
static bool restored;

void
kcfi_note_ipa_ra (void)
{
  requested = flag_ipa_ra;
}

/* -fpatchable-function-entry=N[,M]: true for N > 0 with M == N.  */
static bool
prefix_only_patch_area (void)
{
  const char *s = flag_patchable_function_entry;
  if (!s)
    return false;
  char *end;
  unsigned long n = strtoul (s, &end, 10);
  if (*end != ',')
    return false;
  return n > 0 && strtoul (end + 1, NULL, 10) == n;
}

/* PLUGIN_START_UNIT: process_options has run.  */
void
kcfi_restore_ipa_ra (void)
{
  if (!kcfi_ipa_ra || !kcfi_active || requested != 1 || flag_ipa_ra
      || profile_flag || !prefix_only_patch_area ()
      || !targetm.have_prologue () || !targetm.have_epilogue ())
    return;
  flag_ipa_ra = 1;
  /* Where a function without optimize attributes takes its options from
     whenever the compiler switches back to it.  */
  if (optimization_default_node)
    TREE_OPTIMIZATION (optimization_default_node)->x_flag_ipa_ra = 1;
  if (optimization_current_node)
    TREE_OPTIMIZATION (optimization_current_node)->x_flag_ipa_ra = 1;
  restored = true;
}

/* After "final", which recorded what the function clobbers.  */
unsigned
kcfi_widen_clobbers (function *)
{
  if (!restored)
    return 0;
  cgraph_rtl_info *info = cgraph_node::rtl_info (current_function_decl);
  if (!info)
    return 0;
  if (lookup_attribute ("patchable_function_entry",
			DECL_ATTRIBUTES (current_function_decl)))
    {
      SET_HARD_REG_SET (info->function_used_regs);
      return 0;
    }
  unsigned cc1, cc2;
  if (targetm.fixed_condition_code_regs (&cc1, &cc2))
    {
      SET_HARD_REG_BIT (info->function_used_regs, cc1);
      if (cc2 != INVALID_REGNUM)
	SET_HARD_REG_BIT (info->function_used_regs, cc2);
    }
  return 0;
}
