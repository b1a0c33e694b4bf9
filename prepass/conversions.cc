// SPDX-License-Identifier: GPL-2.0-or-later
/* Conversions of a function's address to a function-pointer type of
 * another type (issue 42): .kcfi_conversion (doc/directives.md 2.7).
 *
 * A call through such a pointer traps when the two type ids differ.  The
 * plugin reports every place it can see and leaves the judging to kcfi-as,
 * which knows the ids (the plugin does no hashing): kcfi-as writes a
 * KCFI_CONVERSION record (common/exempt.h) where they differ, warns under
 * -Wkcfi-cast, and kcfi-audit --mismatches lists the records of a build.
 *
 * Where the plugin looks, in cc1 only:
 *
 *   PLUGIN_PRE_GENERICIZE   a function's body, as the C front end built it:
 *                           casts, assignments (also into a union that has
 *                           a member of another function-pointer type),
 *                           arguments, returns, automatic initializers,
 *                           the values ?: and comma expressions yield;
 *                           the gimplifier would drop the pointer
 *                           conversions as useless
 *   PLUGIN_FINISH_DECL      the initializer of a variable of static storage
 *                           (ops tables: CONSTRUCTORs, unions)
 *   PLUGIN_FINISH_UNIT      the directives, after the IPA-start walk has
 *                           printed the unit's function types (the order
 *                           anonymous tags are numbered in stays Clang's)
 *
 * Kinds (KCFI_CONVERSION_KINDS): by the place the converted pointer goes
 * to -- the right side of an assignment (assign), an argument (arg), a
 * return value (return), an initializer (init), anything else, such as a
 * call through the cast, a comparison (cast) -- and void* whenever the
 * address passed through a type that is no function pointer (void *, an
 * integer) or through a local variable all of whose definitions are that
 * function's address.  union: a store into a union member, once for each
 * other function-pointer type among the union's members (union_store).
 * A place, (file, line, function, type), is written once.  decl: the
 * address of a function the unit only
 * declares, once per function, at its first place in code that is written
 * (below), with the declared type on both sides; kcfi-audit compares it with the definition's preamble.
 *
 * Only places in functions whose code the unit can contain are written:
 * those GCC's symbol table still has at the start of IPA
 * (kcfi_note_reached_conversions).  The static inline functions of headers
 * that a unit never uses are gone by then (analyze_functions reclaims them
 * at every -O), and nothing of their bodies reaches the object: no call
 * through the converted pointer can come from this unit, and a unit that
 * does use the function has its own records.  Linux's headers made such
 * places most of the records of a unit (issue 44).  Places in variables
 * are all written: GCC folds a constant's initializer into the code that
 * reads it as it gimplifies, before the symbol table is built, so that
 * table cannot tell a variable nobody reads from one whose value went into
 * code (tests/prepass/conversion-reach.c's ops).
 *
 * Not seen: addresses that cross a function boundary as void * (stored in
 * a global, passed to a function that converts), conversions in slim or
 * fat LTO compilations (the front end's types are gone by the end of the
 * unit), compound literals, casts of a pointer variable that is not a
 * function's address by the rules above.  And the void* kind within one
 * expression: the front end folds (vf)(void *)f, (vf)(unsigned long)f and
 * the implicit conversion of (void *)f to (vf)f as it builds them
 * (fold_unary drops a conversion between a pointer and a pointer or an
 * integer as wide), so such a place is recorded with the kind of where the
 * value goes.  The source text would tell, but a compile of a .i without
 * the sources (distcc) must write the same records.
 */
#include "kcfi-plugin.h"
#include "tree-iterator.h"
#include "hash-set.h"
#include "ggc.h"
#include "gtype-desc.h"
#include "tables.h"

bool kcfi_conversions = true;	/* -fplugin-arg-kcfi-no-conversions: off */

/* KCFI_CONVERSION_KINDS of common/exempt.h (C only: kcfi-as refuses a
   word it does not list).  */
enum conv_kind
{
  CONV_CAST, CONV_INIT, CONV_ASSIGN, CONV_ARG, CONV_RETURN, CONV_VIA_VOID,
  CONV_UNION, CONV_DECL
};

static const char *const kind_names[] = {
  "cast", "init", "assign", "arg", "return", "void*", "union", "decl"
};

/* One place; the trees stay alive through KEPT, a GC root.  */
struct conversion
{
  tree fn;			/* FUNCTION_DECL */
  tree to;			/* the pointer type */
  const char *file;
  int line;
  tree ctx;			/* the function or variable */
  conv_kind kind;
  bool reached;			/* CTX can be in the object */
};

static conversion *convs;
static size_t nconvs, convs_cap;
static tree kept;
static const ggc_root_tab kept_root[] = {
  { &kept, 1, sizeof kept, &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

static bool
fn_pointer_type_p (tree t)
{
  return t && POINTER_TYPE_P (t) && FUNC_OR_METHOD_TYPE_P (TREE_TYPE (t));
}

static const char *
name_of (tree decl)
{
  tree name = decl ? DECL_NAME (decl) : NULL_TREE;
  return name ? IDENTIFIER_POINTER (name) : "";
}

/* What the walk of one function body or initializer knows.  */
struct walk
{
  tree ctx;			/* the function or variable */
  location_t where;		/* the statement's, else the decl's */
  hash_set<tree> *done;		/* conversions already recorded */
  hash_map<tree, tree> *vars;	/* local variable -> the function it holds,
				   error_mark_node: anything else */
  hash_set<tree> *declared;	/* functions with a decl place here */
  bool ctx_kept;		/* CTX is on KEPT */
};

static void
add (walk *w, tree fn, tree to, location_t loc, conv_kind kind)
{
  if (loc == UNKNOWN_LOCATION)
    loc = w->where;
  expanded_location x = expand_location (loc);
  if (nconvs == convs_cap)
    {
      convs_cap = convs_cap ? 2 * convs_cap : 64;
      convs = XRESIZEVEC (conversion, convs, convs_cap);
    }
  convs[nconvs++] = { fn, to, x.file ? x.file : "", x.line, w->ctx, kind,
		      true };
  kept = tree_cons (fn, to, kept);
  if (!w->ctx_kept)
    kept = tree_cons (w->ctx, NULL_TREE, kept);
  w->ctx_kept = true;
}

/* FN's address is taken at LOC: a decl record if the unit only declares
   FN (decided at the end of the unit, as a definition may follow).  The
   first place of each function or variable: which of them reaches the
   object is known only later, and the first that does is written.  */
static void
note_address (walk *w, tree fn, location_t loc)
{
  if (!DECL_EXTERNAL (fn) || w->declared->add (fn))
    return;
  add (w, fn, build_pointer_type (TREE_TYPE (fn)), loc, CONV_DECL);
}

static location_t
loc_of (tree t)
{
  return t && EXPR_P (t) && EXPR_HAS_LOCATION (t) ? EXPR_LOCATION (t)
						   : UNKNOWN_LOCATION;
}

/* E, a value of type TO (a function-pointer type), going where KIND says:
   record the function whose address it is, if it has another type.  E may
   choose between values (?:), or end a comma expression: each value that
   can reach TO is followed.  VIA: a type on the way that is no function
   pointer.  */
static void
examine_value (walk *w, tree e, tree to, location_t loc, bool via,
	       conv_kind kind, int depth)
{
  tree inner = e;
  for (;;)
    {
      if (CONVERT_EXPR_P (inner) || TREE_CODE (inner) == NON_LVALUE_EXPR
	  || TREE_CODE (inner) == SAVE_EXPR)
	{
	  w->done->add (inner);
	  if (loc == UNKNOWN_LOCATION)
	    loc = loc_of (inner);
	  inner = TREE_OPERAND (inner, 0);
	  via |= !fn_pointer_type_p (TREE_TYPE (inner))
		 && TREE_CODE (inner) != SAVE_EXPR;
	}
      else if (TREE_CODE (inner) == COMPOUND_EXPR)
	{
	  w->done->add (inner);
	  inner = TREE_OPERAND (inner, 1);
	  via |= !fn_pointer_type_p (TREE_TYPE (inner));
	}
      else if (TREE_CODE (inner) == COND_EXPR)
	{
	  w->done->add (inner);
	  if (depth > 32)
	    return;
	  /* Each arm at its own line, else the whole's.  */
	  for (int op = 1; op <= 2; op++)
	    {
	      tree arm = TREE_OPERAND (inner, op);
	      if (!arm || VOID_TYPE_P (TREE_TYPE (arm)))
		continue;	/* an arm that does not return */
	      location_t at = loc_of (arm);
	      examine_value (w, arm, to, at != UNKNOWN_LOCATION ? at : loc,
			     via || !fn_pointer_type_p (TREE_TYPE (arm)), kind,
			     depth + 1);
	    }
	  return;
	}
      else
	break;
    }
  tree fn = NULL_TREE;
  if (TREE_CODE (inner) == ADDR_EXPR
      && TREE_CODE (TREE_OPERAND (inner, 0)) == FUNCTION_DECL)
    fn = TREE_OPERAND (inner, 0);
  else if (w->vars && VAR_P (inner))
    {
      /* A variable of another function-pointer type was converted where
	 it was set: that place is the one reported.  */
      tree *held = w->vars->get (inner);
      tree vt = TREE_TYPE (inner);
      if (held && *held != error_mark_node
	  && (!fn_pointer_type_p (vt)
	      || TYPE_MAIN_VARIANT (TREE_TYPE (vt))
		 == TYPE_MAIN_VARIANT (TREE_TYPE (*held))))
	{
	  fn = *held;
	  via |= !fn_pointer_type_p (vt);
	}
    }
  if (!fn || !prototype_p (TREE_TYPE (to)))
    return;			/* calls through T (*)() are not checked */
  if (TYPE_MAIN_VARIANT (TREE_TYPE (to)) == TYPE_MAIN_VARIANT (TREE_TYPE (fn)))
    return;
  add (w, fn, to, loc, via ? CONV_VIA_VOID : kind);
}

/* E is a value of a function-pointer type going where KIND says.  */
static void
examine (walk *w, tree e, conv_kind kind)
{
  if (!e || !fn_pointer_type_p (TREE_TYPE (e)) || w->done->contains (e))
    return;
  examine_value (w, e, TREE_TYPE (e), loc_of (e), false, kind, 0);
}

/* FN stored in FIELD of a union: the union's other function-pointer
   members could read it as their types.  Most such unions (Linux's
   security_list_options, cpuhp's step callbacks) are never read through
   another member, so these places have a kind of their own, union, which
   kcfi-as does not warn about and kcfi-audit --mismatches lists only with
   --union-stores; the records stay for --explain, which names such a store when a
   call through another member does trap.  One record per other type, not
   per member.  */
static void
union_store (walk *w, tree field, tree value, location_t loc)
{
  tree u = DECL_CONTEXT (field);
  if (!u || TREE_CODE (u) != UNION_TYPE || !fn_pointer_type_p (TREE_TYPE (field)))
    return;
  tree inner = value;
  while (CONVERT_EXPR_P (inner) || TREE_CODE (inner) == NON_LVALUE_EXPR)
    inner = TREE_OPERAND (inner, 0);
  if (TREE_CODE (inner) != ADDR_EXPR
      || TREE_CODE (TREE_OPERAND (inner, 0)) != FUNCTION_DECL)
    return;
  tree fn = TREE_OPERAND (inner, 0);
  for (tree f = TYPE_FIELDS (u); f; f = DECL_CHAIN (f))
    {
      if (TREE_CODE (f) != FIELD_DECL || f == field
	  || !fn_pointer_type_p (TREE_TYPE (f))
	  || !prototype_p (TREE_TYPE (TREE_TYPE (f))))
	continue;
      tree type = TYPE_MAIN_VARIANT (TREE_TYPE (TREE_TYPE (f)));
      if (type == TYPE_MAIN_VARIANT (TREE_TYPE (fn))
	  || type == TYPE_MAIN_VARIANT (TREE_TYPE (TREE_TYPE (field))))
	continue;
      /* Two members of one type make two records of one place:
	 kcfi_write_conversions writes it once.  */
      add (w, fn, TREE_TYPE (f), loc, CONV_UNION);
    }
}

static void init_value (walk *w, tree init, location_t loc);

/* The elements of a CONSTRUCTOR, nested ones too.  */
static void
init_ctor (walk *w, tree ctor, location_t loc)
{
  if (w->done->add (ctor))
    return;
  unsigned i;
  tree field, value;
  FOR_EACH_CONSTRUCTOR_ELT (CONSTRUCTOR_ELTS (ctor), i, field, value)
    {
      location_t at = loc_of (value) != UNKNOWN_LOCATION ? loc_of (value) : loc;
      if (field && TREE_CODE (field) == FIELD_DECL)
	union_store (w, field, value, at);
      init_value (w, value, at);
    }
}

static void
init_value (walk *w, tree init, location_t loc)
{
  if (!init || init == error_mark_node)
    return;
  if (TREE_CODE (init) == CONSTRUCTOR)
    {
      init_ctor (w, init, loc);
      return;
    }
  location_t saved = w->where;
  if (loc != UNKNOWN_LOCATION)
    w->where = loc;
  examine (w, init, CONV_INIT);
  w->where = saved;
}

static tree body_node (tree *tp, int *walk_subtrees, void *data);

/* Walk T, whatever it is, with the same state (nested expressions of an
   initializer, the operands of an assignment).  */
static void
walk_more (walk *w, tree t)
{
  if (t)
    walk_tree_without_duplicates (&t, body_node, w);
}

static tree
body_node (tree *tp, int *walk_subtrees, void *data)
{
  walk *w = (walk *) data;
  tree t = *tp;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  if (EXPR_P (t) && EXPR_HAS_LOCATION (t) && !CONVERT_EXPR_P (t))
    w->where = EXPR_LOCATION (t);
  switch (TREE_CODE (t))
    {
    case MODIFY_EXPR:
    case INIT_EXPR:
      {
	tree lhs = TREE_OPERAND (t, 0), rhs = TREE_OPERAND (t, 1);
	conv_kind kind = TREE_CODE (lhs) == RESULT_DECL ? CONV_RETURN
							: CONV_ASSIGN;
	examine (w, rhs, kind);
	if (TREE_CODE (lhs) == COMPONENT_REF)
	  union_store (w, TREE_OPERAND (lhs, 1), rhs, loc_of (t));
	break;
      }
    case CALL_EXPR:
      {
	/* A direct call takes no address.  An internal function's call
	   (__builtin_mul_overflow, as the C front end folds it: Linux's
	   size_mul) has no CALL_EXPR_FN at all.  */
	if (CALL_EXPR_FN (t) && TREE_CODE (CALL_EXPR_FN (t)) == ADDR_EXPR)
	  w->done->add (CALL_EXPR_FN (t));
	examine (w, CALL_EXPR_FN (t), CONV_CAST);
	for (int i = 0; i < call_expr_nargs (t); i++)
	  examine (w, CALL_EXPR_ARG (t, i), CONV_ARG);
	break;
      }
    case BIND_EXPR:
      /* walk_tree would walk the initializers of its variables as
	 expressions, static ones (finish_decl's) too.  */
      for (tree d = BIND_EXPR_VARS (t); d; d = DECL_CHAIN (d))
	if (VAR_P (d) && !TREE_STATIC (d) && !DECL_EXTERNAL (d)
	    && DECL_INITIAL (d))
	  {
	    init_value (w, DECL_INITIAL (d), DECL_SOURCE_LOCATION (d));
	    walk_more (w, DECL_INITIAL (d));
	  }
      walk_more (w, BIND_EXPR_BODY (t));
      *walk_subtrees = 0;
      break;
    case CONSTRUCTOR:
      init_ctor (w, t, w->where);
      break;
    case ADDR_EXPR:
      if (TREE_CODE (TREE_OPERAND (t, 0)) == FUNCTION_DECL
	  && !w->done->contains (t))
	note_address (w, TREE_OPERAND (t, 0), w->where);
      break;
    default:
      if ((CONVERT_EXPR_P (t) || TREE_CODE (t) == NON_LVALUE_EXPR)
	  && !w->done->contains (t))
	examine (w, t, CONV_CAST);
      break;
    }
  return NULL_TREE;
}

/* Local variables whose every definition is the address of one function:
   a conversion of the variable is a conversion of that function.  */
static tree
collect_var (tree *tp, int *walk_subtrees, void *data)
{
  hash_map<tree, tree> *vars = (hash_map<tree, tree> *) data;
  tree t = *tp, var = NULL_TREE, value = NULL_TREE;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  if ((TREE_CODE (t) == MODIFY_EXPR || TREE_CODE (t) == INIT_EXPR)
      && VAR_P (TREE_OPERAND (t, 0)))
    var = TREE_OPERAND (t, 0), value = TREE_OPERAND (t, 1);
  else if (TREE_CODE (t) == DECL_EXPR && VAR_P (DECL_EXPR_DECL (t))
	   && DECL_INITIAL (DECL_EXPR_DECL (t)))
    var = DECL_EXPR_DECL (t), value = DECL_INITIAL (var);
  else if (TREE_CODE (t) == ADDR_EXPR && VAR_P (TREE_OPERAND (t, 0)))
    {
      vars->put (TREE_OPERAND (t, 0), error_mark_node);	/* written anywhere */
      return NULL_TREE;
    }
  else if ((TREE_CODE (t) == PREINCREMENT_EXPR || TREE_CODE (t) == POSTINCREMENT_EXPR
	    || TREE_CODE (t) == PREDECREMENT_EXPR || TREE_CODE (t) == POSTDECREMENT_EXPR)
	   && VAR_P (TREE_OPERAND (t, 0)))
    {
      vars->put (TREE_OPERAND (t, 0), error_mark_node);
      return NULL_TREE;
    }
  if (!var || TREE_STATIC (var) || DECL_EXTERNAL (var) || TREE_ADDRESSABLE (var))
    return NULL_TREE;
  tree inner = value;
  while (CONVERT_EXPR_P (inner) || TREE_CODE (inner) == NON_LVALUE_EXPR)
    inner = TREE_OPERAND (inner, 0);
  tree fn = TREE_CODE (inner) == ADDR_EXPR
	    && TREE_CODE (TREE_OPERAND (inner, 0)) == FUNCTION_DECL
	    ? TREE_OPERAND (inner, 0) : error_mark_node;
  bool existed;
  tree &held = vars->get_or_insert (var, &existed);
  held = existed && held != fn ? error_mark_node : fn;
  return NULL_TREE;
}

static void
pre_genericize (void *gcc_data, void *)
{
  tree fndecl = (tree) gcc_data;
  if (!kcfi_conversions || !fndecl || TREE_CODE (fndecl) != FUNCTION_DECL
      || !DECL_SAVED_TREE (fndecl))
    return;
  hash_set<tree> done, declared;
  hash_map<tree, tree> vars;
  tree body = DECL_SAVED_TREE (fndecl);
  walk_tree_without_duplicates (&body, collect_var, &vars);
  walk w = { fndecl, DECL_SOURCE_LOCATION (fndecl), &done, &vars, &declared,
	     false };
  walk_tree_without_duplicates (&body, body_node, &w);
}

static void
finish_decl (void *gcc_data, void *)
{
  tree decl = (tree) gcc_data;
  if (!kcfi_conversions || !decl || !VAR_P (decl) || !TREE_STATIC (decl)
      || !DECL_INITIAL (decl) || DECL_INITIAL (decl) == error_mark_node)
    return;
  hash_set<tree> done, declared;
  /* A static variable inside a function is in that function.  */
  tree ctx = current_function_decl ? current_function_decl : decl;
  walk w = { ctx, DECL_SOURCE_LOCATION (decl), &done, NULL, &declared,
	     false };
  init_value (&w, DECL_INITIAL (decl), DECL_SOURCE_LOCATION (decl));
  walk_more (&w, DECL_INITIAL (decl));
}

/* At the start of IPA (cc1): the functions the symbol table still has
   after analysis are those whose code can reach the object.  Later it
   would not tell: by the end of the unit a function inlined everywhere
   has no node left (conversion-reach.c's inlined at -O2), and IPA clones
   are new decls.  A unit that never gets here writes all.  */
void
kcfi_note_reached_conversions (void)
{
  for (size_t i = 0; i < nconvs; i++)
    convs[i].reached = TREE_CODE (convs[i].ctx) != FUNCTION_DECL
		       || symtab_node::get (convs[i].ctx);
}

/* Source order: by file, line, then the order they were found in (the
   initializers of a block's variables before its statements).  */
static int
source_order (const void *a, const void *b)
{
  const conversion *x = &convs[*(const size_t *) a];
  const conversion *y = &convs[*(const size_t *) b];
  if (int c = strcmp (x->file, y->file))
    return c;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* The unit's .kcfi_conversion lines.  */
void
kcfi_write_conversions (void)
{
  if (!kcfi_conversions || !nconvs || !kcfi_types_intact_p ())
    return;
  size_t *order = XNEWVEC (size_t, nconvs);
  for (size_t i = 0; i < nconvs; i++)
    order[i] = i;
  qsort (order, nconvs, sizeof *order, source_order);
  /* One place per function and type a line converts it to (a ?: whose
     arms cast it alike, a union with two members of the type): the first
     found, unless that is a union store and another is not.  Places the
     object cannot contain are out from the start.  */
  bool *dup = XNEWVEC (bool, nconvs);
  for (size_t i = 0; i < nconvs; i++)
    dup[i] = !convs[order[i]].reached;
  for (size_t i = 0, end; i < nconvs; i = end)
    {
      const conversion &first = convs[order[i]];
      for (end = i + 1; end < nconvs; end++)
	{
	  const conversion &c = convs[order[end]];
	  if (c.line != first.line || strcmp (c.file, first.file))
	    break;
	}
      for (size_t j = i + 1; j < end; j++)
	for (size_t k = i; k < j && !dup[j]; k++)
	  {
	    conversion &a = convs[order[k]], &b = convs[order[j]];
	    if (dup[k] || a.fn != b.fn
		|| TYPE_MAIN_VARIANT (TREE_TYPE (a.to))
		   != TYPE_MAIN_VARIANT (TREE_TYPE (b.to)))
	      continue;
	    if (a.kind == CONV_UNION && b.kind != CONV_UNION)
	      dup[k] = true;
	    else
	      dup[j] = true;
	    break;
	  }
    }
  hash_set<tree> declared;	/* one decl place per function */
  kcfi_batch lines;
  for (size_t i = 0; i < nconvs; i++)
    {
      if (dup[i])
	continue;
      const conversion &c = convs[order[i]];
      if (DECL_IS_UNDECLARED_BUILTIN (c.fn) || fndecl_built_in_p (c.fn))
	continue;
      if (c.kind == CONV_DECL)
	{
	  cgraph_node *node = cgraph_node::get (c.fn);
	  if (!DECL_EXTERNAL (c.fn) || (node && node->definition)
	      || declared.add (c.fn))
	    continue;
	}
      kcfi_text *from = kcfi_function_type (c.fn);
      kcfi_text *to = kcfi_conversion_type_text (c.to);
      if (!from || !to)
	continue;
      kcfi_write_conversion (c.fn, from->str, to->str, c.file, c.line,
			     name_of (c.ctx), kind_names[c.kind]);
    }
  free (dup);
  free (order);
}

void
kcfi_register_conversions (const char *plugin)
{
  register_callback (plugin, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) kept_root);
  register_callback (plugin, PLUGIN_PRE_GENERICIZE, pre_genericize, NULL);
  register_callback (plugin, PLUGIN_FINISH_DECL, finish_decl, NULL);
}
