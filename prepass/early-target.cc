// SPDX-License-Identifier: GPL-2.0-or-later
/* A checked call's target, set as early as its block allows.
 *
 * The check kcfi-as puts in front of an indirect call begins by loading the
 * type id stored just before the target, so it cannot start until the
 * target's register is written.  When GCC writes that register as the last
 * thing before the call (as sched2 mostly leaves it, at -O2 and -Os alike,
 * and as it stays where sched2 does not run), the loads form one chain with nothing to overlap them:
 * "mov 8(%rax),%r11; mov $-id,%r10d; add -4(%r11),%r10d".  LLVM's scheduler
 * puts the target's load above the argument set-up; this pass does the same
 * for the insn that matters, after the last scheduler and register
 * allocation, so that it works on hard registers as they will be printed.
 *
 * What moves: the insn that sets the call's address register, and the
 * loads and copies that compute its address ("ops = obj->ops; fn =
 * ops->fn"), each a plain set of one register from another register or
 * from non-volatile memory.  They keep their order among themselves and go
 * up, within the block, over ordinary register insns: no asm, nothing
 * volatile, frame-related or with side effects, nothing that reads or
 * writes a register they set or writes one they read; when one of them
 * loads, also no store GCC's alias oracle cannot tell apart from it and
 * nothing that may fault but a plain load or store.  So the program
 * computes the same, as after GCC's own scheduler.  Debug insns
 * never stop the move (so -g changes no code); a debug bind it passes that
 * names a register set by a moved insn loses its location, as GCC's
 * schedulers do.
 *
 * The GCC state it relies on, and where that state is made:
 * - the CFG (BLOCK_FOR_INSN, FOR_EACH_BB_FN): kept until pass_free_cfg,
 *   which runs after this pass;
 * - hard registers as final prints them: reload_completed, and no pass
 *   after this one renames registers;
 * - the alias oracle behind modified_in_p (alias.cc): its per-register
 *   table of base addresses (reg_base_value) is made only by
 *   init_alias_analysis, which sched2, postreload and gcse-after-reload
 *   call and end_alias_analysis leaves in place, stale.  This pass calls
 *   init_alias_analysis itself before its first move in a function, so
 *   what the oracle says is about the registers as they are here,
 *   whichever passes ran (-O1, -Og and -fno-schedule-insns2 run no sched2;
 *   regcprop and -frename-registers rewrite registers after postreload).
 *   MEM_EXPRs and alias sets, the oracle's other inputs, are attached by
 *   expand and kept by every pass that copies a MEM;
 * - insn codes (recog_memoized) and REG_INC notes, from the pass that made
 *   the insn;
 * - REG_DEAD notes: made by the last dataflow note problem (sched2's, or
 *   an earlier pass's where sched2 did not run); the pass never trusts
 *   one, it only keeps each at the last reader after a move, for the
 *   passes after it that read them (reg-stack);
 * - dataflow: reorder_insns and df_insn_rescan_debug_internal keep df's
 *   insn records current; no df problem is solved here.
 */
#include "kcfi-plugin.h"
#include "rtl.h"
#include "memmodel.h"
#include "emit-rtl.h"
#include "insn-config.h"
#include "recog.h"
#include "df.h"
#include "alias.h"

/* The insns that move: the target's setter and the producers of what it
   reads, bottom first.  A short chain covers every shape seen in Linux.  */
struct carried
{
  rtx_insn *insn[8];
  unsigned n;
  bool loads;			/* one of them reads memory */
};

/* A note that marks no position anything depends on.  */
static bool
empty_note_p (rtx_insn *i)
{
  return NOTE_P (i) && NOTE_KIND (i) == NOTE_INSN_DELETED;
}

/* Is I a plain set of one hard register from another register or from
   non-volatile memory, which this pass may move?  */
static bool
plain_set_p (rtx_insn *i)
{
  if (!NONJUMP_INSN_P (i) || RTX_FRAME_RELATED_P (i)
      || GET_CODE (PATTERN (i)) != SET || find_reg_note (i, REG_INC, NULL_RTX))
    return false;
  rtx dest = SET_DEST (PATTERN (i)), src = SET_SRC (PATTERN (i));
  return REG_P (dest) && HARD_REGISTER_P (dest)
	 && (REG_P (src) || MEM_P (src))
	 && !side_effects_p (src) && !volatile_refs_p (src);
}

/* The insn that last sets CALL's address register before it in its block,
   if plain_set_p.  */
static rtx_insn *
target_setter (rtx_insn *call)
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
      return plain_set_p (i) && rtx_equal_p (SET_DEST (PATTERN (i)), reg)
	     ? i : NULL;
    }
  return NULL;
}

/* Is PAT a plain move between a register (or a constant) and memory, whose
   only way to fault is the access itself?  */
static bool
plain_access_p (rtx pat)
{
  if (GET_CODE (pat) != SET)
    return false;
  rtx dest = SET_DEST (pat), src = SET_SRC (pat);
  if (GET_CODE (src) == ZERO_EXTEND || GET_CODE (src) == SIGN_EXTEND)
    src = XEXP (src, 0);
  return (REG_P (dest) && MEM_P (src))
	 || (MEM_P (dest) && (REG_P (src) || CONST_INT_P (src)));
}

/* May the carried insns C go above P?  */
static bool
can_pass_p (const carried &c, rtx_insn *p)
{
  if (!NONJUMP_INSN_P (p) || RTX_FRAME_RELATED_P (p))
    return false;
  rtx pat = PATTERN (p);
  if (GET_CODE (pat) == USE || GET_CODE (pat) == CLOBBER
      || GET_CODE (pat) == COND_EXEC || GET_CODE (pat) == ASM_INPUT
      || asm_noperands (pat) >= 0 || recog_memoized (p) < 0
      || volatile_refs_p (pat) || side_effects_p (pat)
      || find_reg_note (p, REG_INC, NULL_RTX))
    return false;
  /* A load may pass a load, and a store that cannot overlap it (GCC's own
     alias oracle, through modified_in_p below), but nothing else that may
     fault: which of two faults comes first is the program's.  */
  if (c.loads && may_trap_p (pat) && !plain_access_p (pat))
    return false;
  for (unsigned k = 0; k < c.n; k++)
    {
      rtx set = PATTERN (c.insn[k]);
      if (reg_overlap_mentioned_p (SET_DEST (set), pat)
	  || modified_in_p (SET_SRC (set), p))
	return false;
    }
  return true;
}

/* Does P compute something a carried insn reads, so that it may go along?  */
static bool
producer_p (const carried &c, rtx_insn *p)
{
  if (c.n == ARRAY_SIZE (c.insn) || !plain_set_p (p))
    return false;
  for (unsigned k = 0; k < c.n; k++)
    if (reg_overlap_mentioned_p (SET_DEST (PATTERN (p)),
				 SET_SRC (PATTERN (c.insn[k]))))
      return true;
  return false;
}

static bool
carried_p (const carried &c, rtx_insn *i)
{
  for (unsigned k = 0; k < c.n; k++)
    if (c.insn[k] == i)
      return true;
  return false;
}

/* MOVED is about to go above TOP.  A register it reads for the last time
   (REG_DEAD) may still be read by the insns it passes: the death goes to
   the last of them, so that no pass after this one sees a stale note.  */
static void
move_deaths (rtx_insn *moved, rtx_insn *top, const carried &c)
{
  rtx next;
  for (rtx note = REG_NOTES (moved); note; note = next)
    {
      next = XEXP (note, 1);
      if (REG_NOTE_KIND (note) != REG_DEAD)
	continue;
      rtx_insn *last = NULL;
      for (rtx_insn *p = top; p != moved; p = NEXT_INSN (p))
	if (NONDEBUG_INSN_P (p) && !carried_p (c, p)
	    && reg_overlap_mentioned_p (XEXP (note, 0), PATTERN (p)))
	  last = p;
      if (last)
	{
	  remove_note (moved, note);
	  add_reg_note (last, REG_DEAD, XEXP (note, 0));
	}
    }
}

/* Move SETTER, with the producers it needs, above the insns before it.  */
static void
hoist (rtx_insn *setter)
{
  carried c = { { setter }, 1, MEM_P (SET_SRC (PATTERN (setter))) };
  rtx_insn *top = NULL;		/* the topmost insn passed */
  unsigned below = 0;		/* c.insn[0..below) are below TOP */
  for (rtx_insn *p = PREV_INSN (setter);
       p && BLOCK_FOR_INSN (p) == BLOCK_FOR_INSN (setter);
       p = PREV_INSN (p))
    {
      if (DEBUG_INSN_P (p) || empty_note_p (p))
	continue;
      if (can_pass_p (c, p))
	{
	  top = p;
	  below = c.n;
	}
      else if (producer_p (c, p))
	{
	  c.insn[c.n++] = p;
	  c.loads |= MEM_P (SET_SRC (PATTERN (p)));
	}
      else
	break;
    }
  if (!top)
    return;
  for (rtx_insn *d = top; d != setter; d = NEXT_INSN (d))
    if (DEBUG_BIND_INSN_P (d))
      for (unsigned k = 0; k < below; k++)
	if (reg_overlap_mentioned_p (SET_DEST (PATTERN (c.insn[k])),
				     INSN_VAR_LOCATION_LOC (d)))
	  {
	    INSN_VAR_LOCATION_LOC (d) = gen_rtx_UNKNOWN_VAR_LOC ();
	    df_insn_rescan_debug_internal (d);
	    break;
	  }
  /* Those carried after the last insn passed stay where they are; the
     others go right above it, top first, so they keep their order.  */
  for (unsigned k = 0; k < below; k++)
    move_deaths (c.insn[k], top, c);
  for (unsigned k = below; k-- > 0;)
    reorder_insns (c.insn[k], c.insn[k], PREV_INSN (top));
}

/* After "sched2".  */
unsigned
kcfi_early_call_targets (function *fun)
{
  if (!kcfi_active || !optimize)
    return 0;
  /* The alias oracle's table of what each hard register points into is
     built for the insns as they are now, by this pass itself: the table
     a pass before left behind (end_alias_analysis keeps it) describes the
     registers before regcprop, rename-registers or unrolling changed
     them, and would call two names of one object unrelated.  Built once:
     the table does not depend on the order of insns in a block, and that
     is all this pass changes.  */
  bool aliases_known = false;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      rtx_insn *insn;
      FOR_BB_INSNS (bb, insn)
	if (CALL_P (insn) && kcfi_checked_call_p (insn))
	  if (rtx_insn *setter = target_setter (insn))
	    {
	      if (!aliases_known)
		{
		  init_alias_analysis ();
		  aliases_known = true;
		}
	      hoist (setter);
	    }
    }
  if (aliases_known)
    end_alias_analysis ();
  return 0;
}
