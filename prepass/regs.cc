// SPDX-License-Identifier: GPL-2.0-or-later
/* The registers the program keeps for itself: a check kcfi-as puts in front
 * of a call must not overwrite them (doc/directives.md 2.6).
 *
 * The plugin does not know which registers a check uses; kcfi-as's backend
 * does.  So the plugin names every register the user took away from the
 * compiler, as the target's assembler spells it (reg_names[]), with what
 * took it, and kcfi-as refuses a check that would write one of them:
 *
 *   -ffixed-REG          the register is never allocated; the program (or
 *                        code it links with) keeps something in it
 *   -fcall-saved-REG     callers keep values in it across calls
 *   global register      a file-scope `register T v asm ("REG")` lives in it
 *   variables
 *
 * Registers the target fixes itself (stack pointer, flags) are not listed:
 * GCC never keeps a value there that a call may not change either.
 */
#include "kcfi-plugin.h"
#include "rtl.h"
#include "hard-reg-set.h"
#include "opts.h"
#include "varasm.h"
#include "tables.h"

/* Global register variables, by the hard registers their DECL_RTL covers;
   NAMED says which registers got a line.  */
static void
write_globals (bool *named)
{
  varpool_node *var;
  FOR_EACH_VARIABLE (var)
    {
      tree decl = var->decl;
      if (!VAR_P (decl) || !DECL_HARD_REGISTER (decl) || !DECL_RTL_SET_P (decl)
	  || !DECL_NAME (decl))
	continue;
      rtx reg = DECL_RTL (decl);
      if (!REG_P (reg) || !HARD_REGISTER_P (reg))
	continue;
      static kcfi_buffer why;
      why.clear ();
      why += IDENTIFIER_POINTER (DECL_NAME (decl));
      expanded_location loc = expand_location (DECL_SOURCE_LOCATION (decl));
      if (loc.file)
	{
	  why += " (";
	  why += loc.file;
	  why += ':';
	  why.put_uint (loc.line);
	  why += ')';
	}
      for (unsigned r = REGNO (reg); r < END_REGNO (reg); r++)
	if (global_regs[r] && *reg_names[r])
	  {
	    kcfi_write_reserved (reg_names[r], "global", why.c_str ());
	    named[r] = true;
	  }
    }
}

void
kcfi_write_reserved_regs (void)
{
  static bool done;
  if (done)
    return;
  done = true;
  kcfi_batch lines;
  bool named[FIRST_PSEUDO_REGISTER] = {};
  write_globals (named);
  /* A global register whose variable the symbol table does not hold.  */
  for (unsigned r = 0; r < FIRST_PSEUDO_REGISTER; r++)
    if (global_regs[r] && !named[r] && *reg_names[r])
      kcfi_write_reserved (reg_names[r], "global", "");

  /* The options as the user wrote them; GCC applied them to fixed_regs[]
     and call_used_regs[] (handle_common_deferred_options) and keeps the
     list.  */
  auto *opts = (vec<cl_deferred_option> *) common_deferred_options;
  if (!opts)
    return;
  unsigned i;
  cl_deferred_option *o;
  FOR_EACH_VEC_ELT (*opts, i, o)
    {
      const char *spelling = o->opt_index == OPT_ffixed_ ? "-ffixed-"
			     : o->opt_index == OPT_fcall_saved_ ? "-fcall-saved-"
			     : NULL;
      int nregs;
      int regno = spelling ? decode_reg_name_and_count (o->arg, &nregs) : -1;
      if (regno < 0)
	continue;		/* not ours, or GCC has reported it */
      static kcfi_buffer why;
      why.clear ();
      why += spelling;
      why += o->arg;
      for (int r = regno; r < regno + nregs; r++)
	if (*reg_names[r])
	  kcfi_write_reserved (reg_names[r], "option", why.c_str ());
    }
}
