// SPDX-License-Identifier: GPL-2.0-or-later
/* -fplugin-arg-kcfi-call-reg=REG: checked calls take their target in REG.
 *
 * Some check sequences only work through one register: on x86_64 behind a
 * retpoline thunk that is %r11, the register Linux's FineIBT rewrite of a
 * checked caller assumes.  kcfi-as then moves any other target into it, 3
 * bytes a check.  Copying the target into REG just before register
 * allocation lets the allocator load it there in the first place, as LLVM
 * does, and the move is gone.  kcfi-gcc names REG (the plugin does not know
 * which check needs which register); kcfi-as still moves a target that did
 * not end up there, so this is a matter of size, never of protection.
 *
 * Only the address of a checked call is rewritten, and only when REG is the
 * compiler's to use: not fixed (-ffixed-REG), not a global register
 * variable, not already one of the call's own operands.
 *
 * The GCC state it relies on, and where that state is made: the call's
 * marker (kcfi_mark_calls, right after expand, carried in
 * CALL_INSN_FUNCTION_USAGE by every pass); fixed_regs and global_regs
 * (option processing and the global register variables seen so far);
 * pseudos not yet allocated, so that the copy is the allocator's to place.
 * emit_insn_before and validate_change record the new insn and the
 * changed call in df themselves; IRA solves its own dataflow problems.
 * No alias table, liveness or note is read.
 */
#include "kcfi-plugin.h"
#include "rtl.h"
#include "memmodel.h"
#include "emit-rtl.h"
#include "insn-config.h"
#include "recog.h"
#include "expr.h"
#include "output.h"
#include "regs.h"

int kcfi_call_regno = -1;

/* The REG of -fplugin-arg-kcfi-call-reg=REG as a hard register number, or
   -1 (with an error) if the target has no register of that name.  */
int
kcfi_parse_call_reg (const char *name)
{
  int r = decode_reg_name (name);
  if (r < 0 || !TEST_HARD_REG_BIT (reg_class_contents[GENERAL_REGS], r))
    {
      error ("kcfi: %<-fplugin-arg-kcfi-call-reg=%s%>: not a general "
	     "register of this target", name);
      return -1;
    }
  return r;
}

/* Before "ira".  */
unsigned
kcfi_pin_call_targets (function *)
{
  int r = kcfi_call_regno;
  if (!kcfi_active || r < 0 || fixed_regs[r] || global_regs[r])
    return 0;
  for (rtx_insn *insn = get_insns (); insn; insn = NEXT_INSN (insn))
    {
      if (!CALL_P (insn) || !kcfi_checked_call_p (insn))
	continue;
      rtx call = get_call_rtx_from (insn);
      if (!call || !MEM_P (XEXP (call, 0)))
	continue;
      rtx *loc = &XEXP (XEXP (call, 0), 0);
      rtx addr = *loc;
      if (!REG_P (addr))
	continue;
      /* Also skips a target already in REG: it is in the pattern.  */
      rtx reg = gen_rtx_REG (GET_MODE (addr), r);
      if (reg_overlap_mentioned_p (reg, PATTERN (insn))
	  || find_regno_fusage (insn, USE, r))
	continue;
      rtx_insn *copy = emit_insn_before (gen_move_insn (reg, addr), insn);
      if (!validate_change (insn, loc, reg, 0))
	delete_insn (copy);
    }
  return 0;
}
