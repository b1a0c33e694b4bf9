// SPDX-License-Identifier: GPL-2.0-or-later
/* -fplugin-arg-kcfi-arity: how many general registers carry a defined
 * function's arguments into it, for x86_64's FineIBT-BHI (doc/abi.md 1,
 * "Arity").
 *
 * The answer is GCC's own, read after expand from what assign_parms
 * decided: the incoming RTL of every parameter and of the hidden pointer
 * to a returned aggregate, and the size of the incoming stack arguments.
 * Every register a parameter is passed in counts, read by the body or not:
 * on a type mismatch Linux clobbers the registers counted, under
 * speculation, and one left out is an argument the caller controls.  So
 * the count never falls below Clang's, which counts only the registers
 * still live at entry.  KCFI_ARITY_STACK stands for "something arrives on
 * the stack", and so for every register: stack arguments, register
 * parameter stack space (ms_abi), and va_start, which may read any
 * argument register and the caller's stack.  */
#include "kcfi-plugin.h"
#include "rtl.h"
#include "memmodel.h"
#include "tm_p.h"
#include "function.h"
#include "emit-rtl.h"
#include "calls.h"
#include "regs.h"
#include "target.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"

bool kcfi_arity;

/* Add the general registers X occupies to *REGS; *STACK if some of it
   arrives in memory.  X is a parameter's incoming RTL: a register, a
   PARALLEL of pieces (a null piece: the rest is on the stack), or memory.
   Memory at an argument register is a parameter passed by reference;
   other memory is the stack, which the size of the incoming arguments
   tells better: an empty struct has a place there but takes no bytes.  */
static void
note_incoming (rtx x, HARD_REG_SET *regs, bool *stack)
{
  if (!x)
    *stack = true;
  else if (REG_P (x) && HARD_REGISTER_P (x))
    add_to_hard_reg_set (regs, GET_MODE (x), REGNO (x));
  else if (MEM_P (x) && REG_P (XEXP (x, 0)) && HARD_REGISTER_P (XEXP (x, 0))
	   && FUNCTION_ARG_REGNO_P (REGNO (XEXP (x, 0))))
    note_incoming (XEXP (x, 0), regs, stack);
  else if (GET_CODE (x) == PARALLEL)
    for (int i = 0; i < XVECLEN (x, 0); i++)
      {
	rtx piece = XVECEXP (x, 0, i);
	note_incoming (GET_CODE (piece) == EXPR_LIST ? XEXP (piece, 0) : piece,
		       regs, stack);
      }
  else if (GET_CODE (x) == CONCAT)
    {
      note_incoming (XEXP (x, 0), regs, stack);
      note_incoming (XEXP (x, 1), regs, stack);
    }
}

/* After "cfg", in cc1: does the body of a variadic FUN call va_start?
   Nothing after expand tells: GCC sets up the register save area of every
   variadic function at -O0.  Kept on the decl, for lto1 too.  */
void
kcfi_note_va_start (function *fun)
{
  if (!stdarg_p (TREE_TYPE (fun->decl)))
    return;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (gimple_call_builtin_p (gsi_stmt (gsi), BUILT_IN_VA_START))
	{
	  DECL_ATTRIBUTES (fun->decl)
	    = kcfi_attr_with (DECL_ATTRIBUTES (fun->decl), KCFI_ATTR_VA_START,
			      "");
	  return;
	}
}

/* The arity of the function being compiled (after expand).  */
int
kcfi_function_arity (void)
{
  tree fndecl = current_function_decl;
  /* A variadic function without va_start reads its named parameters
     only.  */
  bool va_start = cfun->stdarg && lookup_attribute (KCFI_ATTR_VA_START,
						    DECL_ATTRIBUTES (fndecl));
  if (va_start || maybe_ne (crtl->args.size, 0)
      || maybe_ne (crtl->args.pretend_args_size, 0))
    return KCFI_ARITY_STACK;
  HARD_REG_SET regs;
  CLEAR_HARD_REG_SET (regs);
  bool stack = false;
  /* assign_parms passes a returned aggregate's address as a first,
     hidden parameter when the target has no register of its own for it;
     it is not among DECL_ARGUMENTS, so ask the target where it goes.  */
  tree result = DECL_RESULT (fndecl);
  if (result && aggregate_value_p (result, fndecl)
      && !targetm.calls.struct_value_rtx (TREE_TYPE (fndecl), 1))
    {
      CUMULATIVE_ARGS args;
#ifdef INIT_CUMULATIVE_INCOMING_ARGS
      INIT_CUMULATIVE_INCOMING_ARGS (args, TREE_TYPE (fndecl), NULL_RTX);
#else
      INIT_CUMULATIVE_ARGS (args, TREE_TYPE (fndecl), NULL_RTX, fndecl, -1);
#endif
      function_arg_info arg (build_pointer_type (TREE_TYPE (TREE_TYPE (fndecl))),
			     true);
      note_incoming (targetm.calls.function_incoming_arg
		       (pack_cumulative_args (&args), arg), &regs, &stack);
    }
  for (tree parm = DECL_ARGUMENTS (fndecl); parm; parm = DECL_CHAIN (parm))
    note_incoming (DECL_INCOMING_RTL (parm), &regs, &stack);
  if (stack)
    return KCFI_ARITY_STACK;
  int n = 0;
  for (unsigned r = 0; r < FIRST_PSEUDO_REGISTER; r++)
    n += TEST_HARD_REG_BIT (regs, r)
	 && TEST_HARD_REG_BIT (reg_class_contents[GENERAL_REGS], r);
  return n < KCFI_ARITY_STACK ? n : KCFI_ARITY_STACK;
}
