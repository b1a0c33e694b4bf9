// SPDX-License-Identifier: GPL-2.0-or-later
/* __builtin_linux_abi_kcfi_name (T) and __builtin_linux_abi_kcfi_hash (T).
 *
 * The plugin knows no hashes and no mangling, so these cannot be real
 * builtins.  They are macros (defined here, for C only) that make GCC parse
 * T as a type name and hand it to a marker function:
 *
 *   ({ (void) __builtin_types_compatible_p (void, T);      T must be a type
 *      extern const char *__kcfi_typeinfo_name (int, ...);
 *      __kcfi_typeinfo_name (0, (__typeof__ (T) *) 0); })  T's type rides
 *                                                          on the argument
 *
 * Right after "cfg", while the front end's types are intact, each marker
 * call becomes a read of an external hidden object __kcfi_typeinfo.<key>,
 * one per type text: word 0 is the id, the string "_ZTS..." follows.
 * The object carries the type text in an attribute (so LTO streams it), and
 * at the end of each output file every such object in the symbol table
 * becomes a `.kcfi_typeinfo SYM, "TYPE"` directive, from which kcfi-as
 * defines it (doc/directives.md 2.5).  A marker the plugin did not see
 * stays an undefined reference: the link fails, nothing is guessed.
 *
 * The macros are variadic, like a built-in whose argument is one type
 * name: two "arguments" reach the parser, which reports them as GCC's
 * built-ins do ("expected ')' before ','"), not the preprocessor.  T is
 * read as a type name first, by __builtin_types_compatible_p, so that
 * anything else gets GCC's own "expected specifier-qualifier-list before
 * ...".  typeinfo-diag.cc adds the "expected type name in" line the
 * reference implementation gives and drops what the rest of the expansion
 * says after such an error.
 */
#include "kcfi-plugin.h"
#include "basic-block.h"
#include "function.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimplify.h"
#include "gimple-fold.h"
#include "langhooks.h"
#include "cpplib.h"
#include "tables.h"

/* cc1's preprocessor; lto1 has neither, hence weak.  */
extern cpp_reader *parse_in __attribute__ ((weak));
extern void cpp_define (cpp_reader *, const char *) __attribute__ ((weak));
extern cpp_options *cpp_get_options (cpp_reader *) __attribute__ ((weak));
extern void cpp_force_token_locations (cpp_reader *, location_t)
  __attribute__ ((weak));
extern void cpp_stop_forcing_token_locations (cpp_reader *)
  __attribute__ ((weak));

#define KCFI_ATTR_TYPEINFO "kcfi typeinfo"	/* on the object: its type */

static const char name_marker[] = "__kcfi_typeinfo_name";
static const char hash_marker[] = "__kcfi_typeinfo_hash";

static const char *
builtin_macro (const char *builtin, const char *ret, const char *marker)
{
  static kcfi_buffer m;
  m.clear ();
  m += builtin;
  m += "(...)=(__extension__ ({ "
       "(void) __builtin_types_compatible_p (void, __VA_ARGS__); extern ";
  m += ret;
  m += ' ';
  m += marker;
  m += " (int, ...); ";
  m += marker;
  m += " (0, (__typeof__ (__VA_ARGS__) *) 0); }))";
  return m.c_str ();
}

/* The first file change after PLUGIN_PRAGMAS is the C front end entering
   "<built-in>", right before it defines its own predefined macros: the
   definitions go there too, at the same place in the line table.  Not
   earlier: when -g3 (or -dD) records every definition, the recorder needs
   that line map (and the debug info writer its tables), and neither
   exists yet at PLUGIN_PRAGMAS.  */
static void
define_at_builtin (void *, void *plugin_name)
{
  unregister_callback ((const char *) plugin_name, PLUGIN_INCLUDE_FILE);
  /* A variadic macro is C99; GCC's own predefined macros never draw
     -std=c90 -pedantic or -Wc90-c99-compat warnings, nor do these.  */
  cpp_options *opts = cpp_get_options (parse_in);
  unsigned char was_pedantic = opts->cpp_pedantic;
  signed char was_c90_c99 = opts->cpp_warn_c90_c99_compat;
  opts->cpp_pedantic = 0;
  opts->cpp_warn_c90_c99_compat = 0;
  cpp_force_token_locations (parse_in, BUILTINS_LOCATION);
  cpp_define (parse_in, builtin_macro ("__builtin_linux_abi_kcfi_name",
				       "const char *", name_marker));
  cpp_define (parse_in, builtin_macro ("__builtin_linux_abi_kcfi_hash",
				       "unsigned int", hash_marker));
  cpp_stop_forcing_token_locations (parse_in);
  opts->cpp_pedantic = was_pedantic;
  opts->cpp_warn_c90_c99_compat = was_c90_c99;
}

/* PLUGIN_PRAGMAS comes from the C front end's init, in -E as in normal
   compilations, before the predefined macros.  Preprocessed input has had
   its macros expanded already.  PLUGIN_NAME is the plugin's name.  */
void
kcfi_define_typeinfo_builtins (void *, void *plugin_name)
{
  if (!&parse_in || !parse_in || !&cpp_define || !&cpp_get_options
      || !&cpp_force_token_locations || !&cpp_stop_forcing_token_locations
      || !lang_GNU_C () || cpp_get_options (parse_in)->preprocessed)
    return;
  register_callback ((const char *) plugin_name, PLUGIN_INCLUDE_FILE,
		     define_at_builtin, plugin_name);
  kcfi_wrap_typeinfo_diagnostics ();
}

/* A stable key for a type text, so that LTO merges the objects of equal
   texts from different units and never two different ones.  (A naming
   hash, not a type id.)  */
static tree
object_name (const char *text)
{
  unsigned long long h = 14695981039346656037ull;
  for (const unsigned char *c = (const unsigned char *) text; *c; c++)
    h = (h ^ *c) * 1099511628211ull;
  char buf[40];
  snprintf (buf, sizeof buf, "__kcfi_typeinfo.%016llx", h);
  return get_identifier (buf);
}

static tree
typeinfo_object (const char *text)
{
  tree id = object_name (text);
  if (varpool_node *v = varpool_node::get_for_asmname (id))
    return v->decl;
  tree word = build_qualified_type (unsigned_type_node, TYPE_QUAL_CONST);
  tree var = build_decl (BUILTINS_LOCATION, VAR_DECL, id,
			 build_array_type (word, NULL_TREE));
  TREE_PUBLIC (var) = 1;
  DECL_EXTERNAL (var) = 1;
  TREE_READONLY (var) = 1;
  DECL_ARTIFICIAL (var) = 1;
  DECL_IGNORED_P (var) = 1;		/* nothing for the debugger to show */
  /* Defined in this very object by kcfi-as: PC-relative, never the GOT.  */
  DECL_VISIBILITY (var) = VISIBILITY_HIDDEN;
  DECL_VISIBILITY_SPECIFIED (var) = 1;
  DECL_ATTRIBUTES (var) = kcfi_attr_with (NULL_TREE, KCFI_ATTR_TYPEINFO,
					  text);
  varpool_node::get_create (var);
  return var;
}

/* Replace the marker call at GSI, if it is one.  */
static void
lower_marker (gimple_stmt_iterator *gsi, function *fun)
{
  gcall *call = dyn_cast<gcall *> (gsi_stmt (*gsi));
  tree fn = call ? gimple_call_fndecl (call) : NULL_TREE;
  if (!fn || !DECL_NAME (fn) || !DECL_EXTERNAL (fn))
    return;
  bool want_name = id_equal (DECL_NAME (fn), name_marker);
  if (!want_name && !id_equal (DECL_NAME (fn), hash_marker))
    return;
  location_t loc = gimple_location (call);
  if (loc == UNKNOWN_LOCATION)
    loc = DECL_SOURCE_LOCATION (fun->decl);
  tree arg = gimple_call_num_args (call) == 2 ? gimple_call_arg (call, 1)
					      : NULL_TREE;
  if (!arg || !POINTER_TYPE_P (TREE_TYPE (arg)))
    {
      error_at (loc, "kcfi: %qD is reserved for "
		"%<__builtin_linux_abi_kcfi_name%> and "
		"%<__builtin_linux_abi_kcfi_hash%>", fn);
      return;
    }
  tree var = typeinfo_object (kcfi_type_name (TREE_TYPE (TREE_TYPE (arg)),
					      loc));
  tree word = TREE_TYPE (TREE_TYPE (var));
  tree expr;
  if (want_name)
    expr = fold_convert (TREE_TYPE (TREE_TYPE (fn)),
			 build_fold_addr_expr (build4 (ARRAY_REF, word, var,
						       size_one_node,
						       NULL_TREE, NULL_TREE)));
  else
    expr = fold_convert (TREE_TYPE (TREE_TYPE (fn)),
			 build4 (ARRAY_REF, word, var, size_zero_node,
				 NULL_TREE, NULL_TREE));
  gimplify_and_update_call_from_tree (gsi, expr);
}

/* After "cfg", in cc1 only.  */
unsigned
kcfi_lower_typeinfo (function *fun)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      lower_marker (&gsi, fun);
  return 0;
}

/* S quoted for the assembler; valid until the next call.  */
static const char *
quoted (const char *s)
{
  static kcfi_buffer q;
  q.clear ();
  q += '"';
  for (; *s; s++)
    {
      if (*s == '"' || *s == '\\')
	q += '\\';
      q += *s;
    }
  q += '"';
  return q.c_str ();
}

/* At the end of an output file: the objects its code refers to.  */
void
kcfi_emit_typeinfo (void)
{
  varpool_node *v;
  FOR_EACH_VARIABLE (v)
    if (const char *text = kcfi_attr_text (DECL_ATTRIBUTES (v->decl),
					   KCFI_ATTR_TYPEINFO))
      fprintf (asm_out_file, "\t" KCFI_DIR_TYPEINFO " %s, %s\n",
	       IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (v->decl)),
	       quoted (text));
}
