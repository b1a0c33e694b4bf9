// SPDX-License-Identifier: GPL-2.0-or-later
/* RTL passes: markers on calls, directives before branches.
 *
 * Right after expand, MEM_EXPR of a call's MEM still says what the call
 * was at GIMPLE level (a FUNCTION_DECL, or a MEM_REF through a pointer to
 * the tagged fntype).  Later passes drop it (peephole2 rebuilds x86 calls,
 * cross-jumping merges MEM attributes), so it is read once and turned into
 * (use (const_int MARK+id)) in CALL_INSN_FUNCTION_USAGE, which every pass
 * copies and which cross-jumping compares: calls of different types then
 * can no longer be merged, calls of the same type still can.
 *
 * Before "shorten" (insns made after it have no address and crash final)
 * each call or jump that leaves the function through a register or memory
 * gets its directive as a volatile asm with no operands right in front of
 * it; final brackets it in #APP/#NO_APP and keeps the two adjacent.
 *
 * The GCC state these passes rely on, and where that state is made:
 * - MEM_EXPR of a call's MEM and its type's attributes: expand, from the
 *   GIMPLE call the kcfi_tag pass tagged; read only right after expand;
 * - REG_CALL_DECL notes (expand, with -fipa-ra) and REG_EQUAL/REG_EQUIV
 *   notes: kept true by every pass that rewrites an insn (GCC's own
 *   invariant, which later passes trust as well); known_callee only
 *   looks back within a block for the last set of the address;
 * - CALL_INSN_FUNCTION_USAGE, where the markers live: copied by every
 *   pass that copies or rebuilds a call;
 * - crtl->patch_area_entry (the patchable-function-entry attribute or
 *   option, set up for the function by expand);
 * - insn codes (recog_memoized, for TYPE_CALL insns), from the back end.
 * No alias table, no liveness and no REG_DEAD note is read, and insns are
 * only added (before "shorten", so they get an address), never moved.
 */
#include "kcfi-plugin.h"
#include "rtl.h"
#include "memmodel.h"
#include "emit-rtl.h"
#include "insn-config.h"
#include "recog.h"
#include "target.h"
#include "rtl-iter.h"
#include "insn-attr.h"
#include "tables.h"

/* Markers are MARK_BASE + id, or MARK_BASE + MARK_DIRECT for a call known
   to be direct; the odd base keeps them apart from any (use (const_int))
   a back end might make.  A checked call that passes a static chain in a
   register (__builtin_call_with_static_chain) carries a second marker,
   MARK_BASE + MARK_CHAIN + that register's number.  */
static const HOST_WIDE_INT MARK_BASE = HOST_WIDE_INT_C (0x4b43464900000000);
static const int MARK_DIRECT = KCFI_MAX_TYPE_ID;
static const int MARK_CHAIN = KCFI_MAX_TYPE_ID + 1;

static void
add_marker (rtx_insn *call, int mark)
{
  rtx use = gen_rtx_USE (VOIDmode, GEN_INT (MARK_BASE + mark));
  CALL_INSN_FUNCTION_USAGE (call)
    = gen_rtx_EXPR_LIST (VOIDmode, use, CALL_INSN_FUNCTION_USAGE (call));
}

/* The marker of CALL between MARK_BASE + LO and MARK_BASE + HI, as an
   offset from MARK_BASE + LO; -1 if none.  */
static HOST_WIDE_INT
marker_in (rtx_insn *call, HOST_WIDE_INT lo, HOST_WIDE_INT hi)
{
  for (rtx link = CALL_INSN_FUNCTION_USAGE (call); link;
       link = XEXP (link, 1))
    {
      rtx use = XEXP (link, 0);
      if (GET_CODE (use) == USE && CONST_INT_P (XEXP (use, 0)))
	{
	  HOST_WIDE_INT v = INTVAL (XEXP (use, 0)) - MARK_BASE;
	  if (v >= lo && v <= hi)
	    return v - lo;
	}
    }
  return -1;
}

static int
call_marker (rtx_insn *call)
{
  return marker_in (call, 0, MARK_DIRECT);
}

/* Does CALL get a check: a type of its own, neither direct nor exempt?  */
bool
kcfi_checked_call_p (rtx_insn *call)
{
  int mark = call_marker (call);
  return mark > 0 && mark != MARK_DIRECT;
}

/* The hard register CALL passes its static chain in, from its chain
   marker; -1 if none.  */
static int
chain_marker (rtx_insn *call)
{
  return marker_in (call, MARK_CHAIN, MARK_CHAIN + FIRST_PSEUDO_REGISTER - 1);
}

/* The register in which expand passes CALL's static chain: calls.cc marks
   it STATIC_CHAIN_REG_P among the call's uses.  -1 if none.  */
static int
static_chain_reg (rtx_insn *call)
{
  for (rtx link = CALL_INSN_FUNCTION_USAGE (call); link;
       link = XEXP (link, 1))
    {
      rtx use = XEXP (link, 0);
      if (GET_CODE (use) == USE && REG_P (XEXP (use, 0))
	  && HARD_REGISTER_P (XEXP (use, 0))
	  && STATIC_CHAIN_REG_P (XEXP (use, 0)))
	return REGNO (XEXP (use, 0));
    }
  return -1;
}

static bool
names_function (const_rtx x)
{
  subrtx_iterator::array_type array;
  FOR_EACH_SUBRTX (iter, array, x, ALL)
    if (SYMBOL_REF_P (*iter) && SYMBOL_REF_FUNCTION_P (*iter))
      return true;
  return false;
}

/* A value that is a function's address: the symbol itself, or a load from
   a constant slot holding it (a GOT entry).  */
static bool
function_address_p (const_rtx x)
{
  if (MEM_P (x))
    x = XEXP (x, 0);
  return x && CONSTANT_P (x) && names_function (x);
}

/* Is the target of a call without MEM_EXPR (libcalls, calls the back end
   makes) provably a named function?  -fipa-ra records it in REG_CALL_DECL.
   Otherwise a register qualifies when the insn setting it last in this
   block loaded a function address, possibly then adding a base register
   to it in place (PIC code models load an offset).  */
static bool
known_callee (rtx_insn *insn, rtx addr)
{
  rtx decl = find_reg_note (insn, REG_CALL_DECL, NULL_RTX);
  if (decl && XEXP (decl, 0) && SYMBOL_REF_P (XEXP (decl, 0)))
    return true;
  if (!REG_P (addr))
    return function_address_p (addr);
  for (rtx_insn *p = PREV_INSN (insn);
       p && !LABEL_P (p) && !NOTE_INSN_BASIC_BLOCK_P (p); p = PREV_INSN (p))
    {
      if (!INSN_P (p) || !reg_set_p (addr, p))
	continue;
      rtx set = single_set (p);
      if (!set || !rtx_equal_p (SET_DEST (set), addr))
	return false;
      rtx src = SET_SRC (set);
      rtx note = find_reg_equal_equiv_note (p);
      if (function_address_p (src)
	  || (note && function_address_p (XEXP (note, 0))))
	return true;
      if (GET_CODE (src) != PLUS || !rtx_equal_p (XEXP (src, 0), addr))
	return false;
    }
  return false;
}

static rtx
call_address (rtx_insn *insn)
{
  rtx call = get_call_rtx_from (insn);
  return call && MEM_P (XEXP (call, 0)) ? XEXP (XEXP (call, 0), 0) : NULL_RTX;
}

/* After "expand".  */
unsigned
kcfi_mark_calls (function *)
{
  if (!kcfi_active)
    return 0;
  for (rtx_insn *insn = get_insns (); insn; insn = NEXT_INSN (insn))
    {
      rtx addr = CALL_P (insn) ? call_address (insn) : NULL_RTX;
      if (!addr)
	continue;
      tree expr = MEM_EXPR (XEXP (get_call_rtx_from (insn), 0));
      int mark;
      if (expr && TREE_CODE (expr) == FUNCTION_DECL)
	mark = MARK_DIRECT;
      else if (expr)
	{
	  const char *tag = kcfi_attr_text (TYPE_ATTRIBUTES (TREE_TYPE (expr)),
					    KCFI_ATTR_CALL);
	  if (!tag)
	    error_at (INSN_LOCATION (insn), "kcfi: this indirect call has "
		      "no KCFI type (was every object compiled with the "
		      "plugin?)");
	  mark = tag ? kcfi_intern (tag) : 0;	/* 0: reported once only */
	  int chain = mark ? static_chain_reg (insn) : -1;
	  if (chain >= 0)
	    add_marker (insn, MARK_CHAIN + chain);
	}
      else if (known_callee (insn, addr))
	mark = MARK_DIRECT;
      else
	continue;		/* refused at emission unless it turns direct */
      add_marker (insn, mark);
    }
  return 0;
}

/* Whether the target may print a call to a known function as an indirect
   branch: anything but a plain symbol, and -fno-plt / noplt symbols that
   may be preempted (x86 prints those as call *foo@GOTPCREL(%rip)).  */
static bool
printed_as_indirect (rtx addr)
{
  if (!SYMBOL_REF_P (addr))
    return true;
  if (SYMBOL_REF_LOCAL_P (addr))
    return false;
  tree decl = SYMBOL_REF_DECL (addr);
  return !flag_plt || (decl && lookup_attribute ("noplt",
						 DECL_ATTRIBUTES (decl)));
}

/* Jumps that leave through a register or memory: jump tables, computed
   and non-local gotos, and returns through a register that is not the
   return address (x86 eh_return under CET: pop %rcx; jmp *%rcx).  */
static bool
indirect_jump_p (rtx_insn *insn, rtx return_address)
{
  rtx pat = PATTERN (insn);
  if (asm_noperands (pat) >= 0 || any_condjump_p (insn))
    return false;		/* asm goto is the author's business */
  rtx set = pc_set (insn);
  if (set)
    return !LABEL_REF_P (SET_SRC (set));
  if (!returnjump_p (insn))
    return true;		/* no label to go to: treat as indirect */
  if (GET_CODE (pat) != PARALLEL)
    return false;
  for (int i = 0; i < XVECLEN (pat, 0); i++)
    {
      rtx x = XVECEXP (pat, 0, i);
      if (GET_CODE (x) == USE && REG_P (XEXP (x, 0))
	  && !(return_address && REG_P (return_address)
	       && REGNO (XEXP (x, 0)) == REGNO (return_address)))
	return true;
    }
  return false;
}

/* An ordinary insn whose pattern the back end prints as a call: the TLS
   descriptor call of aarch64 (adrp; ldr; add; .tlsdesccall; blr) and of x86
   -mtls-dialect=gnu2 (call *x@TLSCALL(%rax)).  It calls the dynamic linker's
   resolver, never a C function pointer.  */
static bool
call_pattern_p (rtx_insn *insn)
{
#ifdef HAVE_ATTR_type
  return NONJUMP_INSN_P (insn) && recog_memoized (insn) >= 0
	 && get_attr_type (insn) == TYPE_CALL;
#else
  return false;
#endif
}

/* The directive INSN needs, "" for none; the text lives until the next
   call.  */
static const char *
directive_for (rtx_insn *insn, rtx return_address)
{
  if (call_pattern_p (insn))
    return KCFI_DIR_CALL_DIRECT;
  if (JUMP_P (insn))
    return indirect_jump_p (insn, return_address) ? KCFI_DIR_BRANCH_NOCALL
						   : "";
  if (!CALL_P (insn))
    return "";
  rtx addr = call_address (insn);
  int mark = call_marker (insn);
  if (addr && mark >= 0 && mark != MARK_DIRECT && !SYMBOL_REF_P (addr))
    {
      if (mark == 0)
	return KCFI_DIR_CALL_UNCHECKED;
      static kcfi_buffer d;
      d.clear ();
      d += KCFI_DIR_CALL " ";
      d.put_uint (mark);
      /* kcfi-as knows whether its check needs that register.  */
      int chain = chain_marker (insn);
      if (chain >= 0)
	{
	  d += ", chain=";
	  d += reg_names[chain];
	}
      /* The general registers that carry its arguments (regparm,
	 -mregparm): kcfi-as must not load a memory target into one of
	 them.  Only i386's check ever needs such a register, so only code
	 with 32-bit pointers lists them.  */
      if (POINTER_SIZE == 32)
	for (rtx link = CALL_INSN_FUNCTION_USAGE (insn); link;
	     link = XEXP (link, 1))
	  {
	    rtx use = XEXP (link, 0);
	    if (GET_CODE (use) != USE || !REG_P (XEXP (use, 0))
		|| !HARD_REGISTER_P (XEXP (use, 0))
		|| STATIC_CHAIN_REG_P (XEXP (use, 0)))
	      continue;
	    for (unsigned r = REGNO (XEXP (use, 0));
		 r < END_REGNO (XEXP (use, 0)); r++)
	      if (TEST_HARD_REG_BIT (reg_class_contents[GENERAL_REGS], r))
		{
		  d += ", arg=";
		  d += reg_names[r];
		}
	  }
      for (int i = 1; i < kcfi_reserve; i++)
	d += " ;";
      return d.c_str ();
    }
  if (addr && (mark >= 0 || SYMBOL_REF_P (addr) || known_callee (insn, addr)))
    return printed_as_indirect (addr) ? KCFI_DIR_CALL_DIRECT : "";
  error_at (INSN_LOCATION (insn), "kcfi: cannot tell the type this indirect "
	    "call expects; it would go unchecked");
  return "";
}

/* Before "shorten".  */
unsigned
kcfi_emit_directives (function *fun)
{
  if (!kcfi_emitting_p ())
    return 0;
  kcfi_write_reserved_regs ();
  rtx return_address = NULL_RTX;
#ifdef INCOMING_RETURN_ADDR_RTX
  return_address = INCOMING_RETURN_ADDR_RTX;
#endif
  struct site
  {
    rtx_insn *insn;
    const char *text;		/* GC memory, for the asm */
  };
  auto_vec<site> sites;
  for (rtx_insn *insn = get_insns (); insn; insn = NEXT_INSN (insn))
    {
      const char *d = directive_for (insn, return_address);
      if (*d)
	sites.safe_push ({ insn, ggc_strdup (d) });
      int mark = CALL_P (insn) ? call_marker (insn) : -1;
      if (mark > 0 && mark != MARK_DIRECT)
	kcfi_define_type (mark);
    }

  tree decl = fun->decl;
  /* Under LTO, a function from a unit compiled without KCFI stays what its
     object would have been: no preamble, no alias for stubs (its calls
     were left unchecked by kcfi_tag_unmarked_bodies).  */
  bool plain = in_lto_p && !lookup_attribute (KCFI_ATTR_LTO_UNIT,
					      DECL_ATTRIBUTES (decl));
  /* cc1 refuses the attribute that could cause this; under LTO it means
     the link line lacks the compile lines' -fpatchable-function-entry.  */
  if (!plain && crtl->patch_area_entry != kcfi_prefix_nops)
    error_at (DECL_SOURCE_LOCATION (decl), "kcfi: %qD has %u patchable "
	      "NOPs before its entry, but this unit declares %u", decl,
	      (unsigned) crtl->patch_area_entry, kcfi_prefix_nops);
  cgraph_node *node = cgraph_node::get (decl);
  unsigned own = 0;
  if (plain)
    ;
  else if (node ? kcfi_wants_preamble (node, false) : TREE_PUBLIC (decl))
    {
      if (kcfi_text *type = kcfi_function_type (decl))
	kcfi_define_type (own = kcfi_type_id (type));
      else
	error_at (DECL_SOURCE_LOCATION (decl), "kcfi: no type was recorded "
		  "for %qD (was it compiled with the plugin?)", decl);
    }
  /* The arity, like the mode, is the compile line's: lto1 writes it for a
     function whose unit asked, even when the link line does not.  */
  bool arity = kcfi_arity || (in_lto_p && kcfi_lto_mode_p (decl, "arity"));
  kcfi_write_func (decl, own, kcfi_extern_stubs && TREE_PUBLIC (decl) && !plain,
		   own && arity ? kcfi_function_arity () : -1);

  for (auto &site : sites)
    {
      /* No location on the asm itself (final would print line markers);
	 the call's location keeps .loc in front of the directive.  */
      rtx body = gen_rtx_ASM_OPERANDS (VOIDmode, site.text, "", 0,
				       rtvec_alloc (0), rtvec_alloc (0),
				       rtvec_alloc (0), UNKNOWN_LOCATION);
      MEM_VOLATILE_P (body) = 1;
      rtx_insn *asm_insn = emit_insn_before (body, site.insn);
      INSN_LOCATION (asm_insn) = INSN_LOCATION (site.insn);
    }
  return 0;
}
