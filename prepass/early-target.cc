/* A checked call's target, set as early as its block allows.
 *
 * The check kcfi-as puts in front of an indirect call begins by loading the
 * type id stored just before the target, so it cannot start until the
 * target's register is written.  When GCC writes that register as the last
 * thing before the call (always at -Os, where sched2 does not run, and often
 * after it), the two loads form one chain with nothing to overlap them:
 * "mov 8(%rax),%r11; mov $-id,%r10d; add -4(%r11),%r10d".  LLVM's scheduler
 * puts the target's load above the argument set-up; this pass does the same
 * for the one insn that matters, after the last scheduler and register
 * allocation, so that the move is among hard registers as they will be
 * printed.
 *
 * The move is conservative and never changes what the program does: the
 * insn that sets the call's address register (a plain register copy or a
 * non-volatile load, nothing else) goes up over insns of the same block that
 * are ordinary register operations -- no memory access when it is a load,
 * no asm, nothing volatile, frame-related or trapping, nothing that reads
 * or writes its register or writes what it reads.  Debug insns never stop
 * it (so -g changes no code); a debug bind it passes that names its
 * register loses its location, as GCC's schedulers do.
 */
#include "kcfi-plugin.h"
#include "rtl.h"
#include "memmodel.h"
#include "emit-rtl.h"
#include "insn-config.h"
#include "recog.h"
#include "df.h"

/* A note that marks no position anything depends on.  */
static bool
empty_note_p (rtx_insn *i)
{
  return NOTE_P (i) && NOTE_KIND (i) == NOTE_INSN_DELETED;
}

/* The insn that last sets CALL's address register before it in its block,
   if it is one this pass may move: a single plain set of the whole
   register from another register or from non-volatile memory.  */
static rtx_insn *
target_setter (rtx_insn *call, rtx *target)
{
  rtx c = get_call_rtx_from (call);
  if (!c || !MEM_P (XEXP (c, 0)) || !REG_P (XEXP (XEXP (c, 0), 0)))
    return NULL;
  rtx reg = XEXP (XEXP (c, 0), 0);
  basic_block bb = BLOCK_FOR_INSN (call);
  for (rtx_insn *i = PREV_INSN (call); i; i = PREV_INSN (i))
    {
      if (empty_note_p (i))
	continue;
      if (!bb || BLOCK_FOR_INSN (i) != bb || !INSN_P (i))
	return NULL;
      if (DEBUG_INSN_P (i) || !reg_set_p (reg, i))
	continue;
      rtx set = PATTERN (i);
      if (!NONJUMP_INSN_P (i) || GET_CODE (set) != SET
	  || !rtx_equal_p (SET_DEST (set), reg) || RTX_FRAME_RELATED_P (i)
	  || find_reg_note (i, REG_INC, NULL_RTX))
	return NULL;
      rtx src = SET_SRC (set);
      if (!(REG_P (src) || MEM_P (src)) || side_effects_p (src)
	  || volatile_refs_p (src))
	return NULL;
      *target = reg;
      return i;
    }
  return NULL;
}

/* May SETTER (setting REG) go above P?  */
static bool
can_pass_p (rtx_insn *setter, rtx reg, rtx_insn *p)
{
  if (!NONJUMP_INSN_P (p) || RTX_FRAME_RELATED_P (p))
    return false;
  rtx pat = PATTERN (p);
  rtx src = SET_SRC (PATTERN (setter));
  return GET_CODE (pat) != USE && GET_CODE (pat) != CLOBBER
	 && GET_CODE (pat) != COND_EXEC && GET_CODE (pat) != ASM_INPUT
	 && asm_noperands (pat) < 0
	 && recog_memoized (p) >= 0
	 && !volatile_insn_p (pat)
	 && !side_effects_p (pat)
	 && !may_trap_p (pat)
	 && !find_reg_note (p, REG_INC, NULL_RTX)
	 && !reg_overlap_mentioned_p (reg, pat)
	 && !(MEM_P (src) && contains_mem_rtx_p (pat))
	 && !modified_in_p (src, p);
}

/* SETTER is about to go above TOP.  A register it reads for the last time
   (REG_DEAD) may still be read by the insns it passes: the death goes to
   the last of them, so that no pass after this one sees a stale note.  */
static void
move_deaths (rtx_insn *setter, rtx_insn *top)
{
  rtx next;
  for (rtx note = REG_NOTES (setter); note; note = next)
    {
      next = XEXP (note, 1);
      if (REG_NOTE_KIND (note) != REG_DEAD)
	continue;
      rtx_insn *last = NULL;
      for (rtx_insn *p = top; p != setter; p = NEXT_INSN (p))
	if (NONDEBUG_INSN_P (p)
	    && reg_overlap_mentioned_p (XEXP (note, 0), PATTERN (p)))
	  last = p;
      if (last)
	{
	  remove_note (setter, note);
	  add_reg_note (last, REG_DEAD, XEXP (note, 0));
	}
    }
}

/* Move SETTER of REG above the ordinary insns before it.  */
static void
hoist (rtx_insn *setter, rtx reg)
{
  rtx_insn *top = NULL;
  for (rtx_insn *p = PREV_INSN (setter);
       p && BLOCK_FOR_INSN (p) == BLOCK_FOR_INSN (setter);
       p = PREV_INSN (p))
    {
      if (DEBUG_INSN_P (p) || empty_note_p (p))
	continue;
      if (!can_pass_p (setter, reg, p))
	break;
      top = p;
    }
  if (!top)
    return;
  for (rtx_insn *d = top; d != setter; d = NEXT_INSN (d))
    if (DEBUG_BIND_INSN_P (d)
	&& reg_overlap_mentioned_p (reg, INSN_VAR_LOCATION_LOC (d)))
      {
	INSN_VAR_LOCATION_LOC (d) = gen_rtx_UNKNOWN_VAR_LOC ();
	df_insn_rescan_debug_internal (d);
      }
  move_deaths (setter, top);
  reorder_insns (setter, setter, PREV_INSN (top));
}

/* After "sched2".  */
unsigned
kcfi_early_call_targets (function *fun)
{
  if (!kcfi_active || !optimize)
    return 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      rtx_insn *insn;
      FOR_BB_INSNS (bb, insn)
	if (CALL_P (insn) && kcfi_checked_call_p (insn))
	  {
	    rtx reg;
	    if (rtx_insn *setter = target_setter (insn, &reg))
	      hoist (setter, reg);
	  }
    }
  return 0;
}
