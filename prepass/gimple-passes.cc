// SPDX-License-Identifier: GPL-2.0-or-later
/* GIMPLE passes: give every indirect call its type, and keep the
 * optimizers from merging calls or functions whose types differ.
 */
#include "kcfi-plugin.h"
#include "basic-block.h"
#include "function.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tables.h"

/* The indirect calls of FUN as GCC's IL sees them: no known callee, not
   internal.  */
static void
indirect_calls (function *fun, auto_vec<gcall *> &calls)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi));
	if (call && !gimple_call_internal_p (call)
	    && !gimple_call_fndecl (call))
	  calls.safe_push (call);
      }
}

/* Calls made after tagging (none are expected) read as "<untagged>" here
   and are refused right after expand.  */
static const char *
call_tag (gcall *call)
{
  const char *t = kcfi_attr_text (TYPE_ATTRIBUTES (gimple_call_fntype (call)),
				  KCFI_ATTR_CALL);
  return t ? t : "<untagged>";
}

/* A patchable_function_entry attribute whose prefix differs from the TU's
   moves the entry away from where every caller looks for the type.  */
static void
check_patchable_entry (tree fndecl)
{
  tree attr = lookup_attribute ("patchable_function_entry",
				DECL_ATTRIBUTES (fndecl));
  if (!attr)
    return;
  tree args = TREE_VALUE (attr);
  tree prefix = args ? TREE_CHAIN (args) : NULL_TREE;
  if ((prefix && tree_fits_uhwi_p (TREE_VALUE (prefix))
       ? tree_to_uhwi (TREE_VALUE (prefix)) : 0) != kcfi_prefix_nops)
    error_at (DECL_SOURCE_LOCATION (fndecl),
	      "%qs attribute cannot be used with %qs",
	      "patchable_function_entry", "-fsanitize=kcfi");
}

/* Give CALL the tag TAG ("": unchecked) on a variant of its fntype.  */
static void
tag_call (gcall *call, const char *tag)
{
  tree fntype = gimple_call_fntype (call);
  tree attrs = kcfi_attr_with (TYPE_ATTRIBUTES (fntype), KCFI_ATTR_CALL, tag);
  gimple_call_set_fntype (call, build_type_attribute_variant (fntype, attrs));
}

/* After "cfg", in cc1 only, before any inlining: a call expects the type
   written where the call is written, and no_sanitize("kcfi") belongs to
   that body too.  The tag rides on a type-attribute variant of
   gimple_call_fntype, which inlining, LTO streaming and expand keep.  */
unsigned
kcfi_tag_calls (function *fun)
{
  check_patchable_entry (fun->decl);
  bool unchecked = lookup_attribute (KCFI_ATTR_NO_SANITIZE,
				     DECL_ATTRIBUTES (fun->decl));
  kcfi_refuse_trampolines (fun, unchecked);
  kcfi_note_va_start (fun);
  auto_vec<gcall *> calls;
  indirect_calls (fun, calls);
  for (gcall *call : calls)
    {
      tree fntype = gimple_call_fntype (call);
      if (lookup_attribute (KCFI_ATTR_CALL, TYPE_ATTRIBUTES (fntype)))
	continue;
      location_t loc = gimple_location (call);
      if (loc == UNKNOWN_LOCATION)
	loc = DECL_SOURCE_LOCATION (fun->decl);
      tag_call (call, unchecked ? "" : kcfi_type_name (fntype, loc));
    }
  return 0;
}

/* In lto1: a body from a unit compiled without KCFI (it has no
   KCFI_ATTR_LTO_UNIT mark) is plain code, as its object would be in a link
   without LTO, so its indirect calls are left unchecked.  They are tagged
   so before the inliner can move them into a function of ours, where an
   untagged call is refused as a lost type.  */
void
kcfi_tag_unmarked_bodies (void)
{
  cgraph_node *node;
  FOR_EACH_FUNCTION (node)
    {
      /* Inline and IPA clones share their origin's body, which the
	 partition may hold without defining the origin itself.  */
      cgraph_node *origin = node;
      while (origin->clone_of)
	origin = origin->clone_of;
      if (origin != node || origin->in_other_partition
	  || !(origin->has_gimple_body_p () || origin->lto_file_data)
	  || lookup_attribute (KCFI_ATTR_LTO_UNIT,
			       DECL_ATTRIBUTES (origin->decl)))
	continue;
      if (!gimple_has_body_p (origin->decl))
	origin->get_untransformed_body ();
      function *fun = DECL_STRUCT_FUNCTION (origin->decl);
      if (!fun || !fun->cfg)
	continue;
      auto_vec<gcall *> calls;
      indirect_calls (fun, calls);
      for (gcall *call : calls)
	if (!lookup_attribute (KCFI_ATTR_CALL,
			       TYPE_ATTRIBUTES (gimple_call_fntype (call))))
	  tag_call (call, "");
    }
}

/* After "einline": IPA-ICF compares call types loosely (to it all pointer
   parameters are alike) but demands equal DECL_ATTRIBUTES, so a summary of
   the call tags there keeps it from folding bodies that check different
   types.  The function's own type is there already (KCFI_ATTR_FN).  */
unsigned
kcfi_summarize_calls (function *fun)
{
  static kcfi_buffer all;
  all.clear ();
  auto_vec<gcall *> calls;
  indirect_calls (fun, calls);
  for (gcall *call : calls)
    {
      all += call_tag (call);
      all += '\n';
    }
  tree attrs = DECL_ATTRIBUTES (fun->decl);
  const char *old = kcfi_attr_text (attrs, KCFI_ATTR_CALLS);
  if (strcmp (all.c_str (), old ? old : ""))
    DECL_ATTRIBUTES (fun->decl)
      = kcfi_attr_with (attrs, KCFI_ATTR_CALLS,
			all.size () ? all.c_str () : NULL);
  return 0;
}

/* Before "pre": tail merging (inside pre) compares calls without their
   fntype and folds differently typed ones.  It reads a global flag, so set
   that per function: off where calls of several types meet, the
   function's own setting everywhere else.  */
unsigned
kcfi_guard_tail_merge (function *fun)
{
  if (!kcfi_active)
    return 0;
  auto_vec<gcall *> calls;
  indirect_calls (fun, calls);
  bool mixed = false;
  for (gcall *call : calls)
    mixed |= strcmp (call_tag (call), call_tag (calls[0])) != 0;
  flag_tree_tail_merge = mixed ? 0 : opt_for_fn (fun->decl,
						 flag_tree_tail_merge);
  return 0;
}
