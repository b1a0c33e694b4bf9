// SPDX-License-Identifier: GPL-2.0-or-later
/* GNU C nested functions whose address is taken.
 *
 * A nested function that uses its parent's frame is reached through a
 * pointer via a trampoline: a few instructions GCC writes into the
 * parent's stack frame at run time (__builtin_init_trampoline), whose
 * address is what the program gets (__builtin_adjust_trampoline, one call
 * per place where the address is taken).  No type id sits in front of that
 * code, so a checked call through the pointer traps, always.  Rather than
 * build a program that is certain to die, the place where the address is
 * taken is an error.
 *
 * The opt-out is no_sanitize("kcfi") on the function in which the address
 * is taken: its author vouches that every call through the pointer is
 * unchecked (made in no_sanitize("kcfi") code, or by code not compiled
 * with KCFI).  Direct calls of a nested function need no trampoline and
 * never come here; neither does the address of a nested function that does
 * not use its parent's frame once the optimizers have found that out, as
 * it is then an ordinary function with a preamble.
 *
 * Runs with kcfi_tag_calls, after "cfg" in cc1: tree-nested.cc has made
 * the trampolines by then, and no inlining has moved the statements to
 * another function yet.
 */
#include "kcfi-plugin.h"
#include "basic-block.h"
#include "function.h"
#include "gimple.h"
#include "gimple-iterator.h"

/* The address VAR (a temporary) is set to in FUN, or VAR itself.  */
static tree
address_in (tree var, function *fun)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *stmt = gsi_stmt (gsi);
	if (is_gimple_assign (stmt) && gimple_assign_lhs (stmt) == var
	    && gimple_assign_rhs_code (stmt) == ADDR_EXPR)
	  return gimple_assign_rhs1 (stmt);
      }
  return var;
}

/* The frame field holding the trampoline that ARG (the argument of
   __builtin_adjust_trampoline) points to, or NULL_TREE.  tree-nested.cc
   names that field after the nested function.  A parent's own frame is
   addressed directly (&FRAME.n.f); through a static chain, a temporary
   holds the address first.  */
static tree
trampoline_field (tree arg, function *fun)
{
  if (TREE_CODE (arg) == VAR_DECL || TREE_CODE (arg) == SSA_NAME)
    arg = address_in (arg, fun);
  if (TREE_CODE (arg) != ADDR_EXPR)
    return NULL_TREE;
  tree ref = TREE_OPERAND (arg, 0);
  return TREE_CODE (ref) == COMPONENT_REF ? TREE_OPERAND (ref, 1) : NULL_TREE;
}

static void
refuse (gcall *call, function *fun)
{
  location_t loc = gimple_location (call);
  if (loc == UNKNOWN_LOCATION)
    loc = DECL_SOURCE_LOCATION (fun->decl);
  tree field = gimple_call_num_args (call)
	       ? trampoline_field (gimple_call_arg (call, 0), fun) : NULL_TREE;
  tree name = field ? DECL_NAME (field) : NULL_TREE;
  auto_diagnostic_group d;
  if (name)
    error_at (loc, "taking the address of nested function %qE with "
	      "%<-fsanitize=kcfi%>: the pointer is a trampoline on the stack, "
	      "which has no type id, so a checked call through it would trap",
	      name);
  else
    error_at (loc, "taking the address of a nested function with "
	      "%<-fsanitize=kcfi%>: the pointer is a trampoline on the stack, "
	      "which has no type id, so a checked call through it would trap");
  inform (loc, "if every call through the pointer is unchecked, "
	  "%<__attribute__((no_sanitize(\"kcfi\")))%> on %qD allows this",
	  fun->decl);
}

/* FUN's places that take the address of a nested function through a
   trampoline (or, where a target uses them, a descriptor, which is no
   code at all), refused unless FUN is no_sanitize("kcfi").  */
void
kcfi_refuse_trampolines (function *fun, bool unchecked)
{
  if (unchecked)
    return;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi));
	if (call && (gimple_call_builtin_p (call, BUILT_IN_ADJUST_TRAMPOLINE)
		     || gimple_call_builtin_p (call,
					       BUILT_IN_ADJUST_DESCRIPTOR)))
	  refuse (call, fun);
      }
}
