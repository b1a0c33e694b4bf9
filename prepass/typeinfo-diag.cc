// SPDX-License-Identifier: GPL-2.0-or-later
/* Misuse of __builtin_linux_abi_kcfi_name (T) / _hash (T), reported as a
 * built-in that parses T once as a type name reports it.
 *
 * The builtins are macros (typeinfo.cc) whose expansion reads T twice and
 * goes on past it.  GCC's own parser gives the first error of a misuse in
 * the reference's words ("expected specifier-qualifier-list before 'x'",
 * "expected ')' before ','"); what the rest of the expansion says after
 * that is noise the reference does not print, and the reference adds
 * "expected type name in '<builtin>'" when no type name could be read.
 *
 * So the C front end's diagnostic finalizer is wrapped.  For a diagnostic
 * whose location lies in an expansion of one of the two macros (those the
 * plugin defined at <built-in>, not a user's macro of the same name):
 *   - the first error of that expansion goes out; if it says that no type
 *     name could be read (GCC's "expected specifier-qualifier-list"
 *     message), "expected type name in %qs" follows at the same place;
 *   - every later error or warning of the same expansion, and the notes
 *     that belong to it, are dropped (and uncounted: the first error is
 *     there, so the compilation fails as it did).
 * Every other diagnostic passes untouched, and so does everything when the
 * output is not GCC's text format (-fdiagnostics-format=json), when
 * -ftrack-macro-expansion=0 takes the expansions out of the locations, or
 * when the input was preprocessed already (-save-temps): misuse is then
 * still an error, just worded less exactly.
 *
 * The finalizer's slot and signature are those of GCC 11 to 13; on other
 * versions nothing is wrapped (same fallback; gcc-compat.h).
 */
#include "kcfi-plugin.h"
#include "diagnostic.h"
#include "cpplib.h"
#include "intl.h"

#if KCFI_HAVE_DIAGNOSTIC_FINALIZER && defined (diagnostic_finalizer)

static const char *const builtins[] = {
  "__builtin_linux_abi_kcfi_name", "__builtin_linux_abi_kcfi_hash"
};

/* The name of the builtin NODE is, if it is one of the plugin's macros.
   They were defined in "<built-in>" (typeinfo.cc); a user's #define or -D
   is not.  */
static const char *
builtin_name (cpp_hashnode *node)
{
  if (!node || !cpp_user_macro_p (node) || !node->value.macro)
    return NULL;
  const char *b = NULL;
  for (const char *c : builtins)
    if (!strcmp ((const char *) NODE_NAME (node), c))
      b = c;
  if (!b)
    return NULL;
  location_t def = node->value.macro->line;
  const char *file = def == BUILTINS_LOCATION ? NULL : LOCATION_FILE (def);
  return def == BUILTINS_LOCATION || (file && !strcmp (file, _("<built-in>")))
	 ? b : NULL;
}

/* The expansion of one of the builtins LOC was produced by, the one
   nearest to where its token was spelt (a builtin in the argument of
   another belongs to the inner one), or NULL.  *NAME is its builtin.  */
static const line_map_macro *
expansion_of (location_t loc, const char **name)
{
  const line_map_macro *found = NULL;
  for (int depth = 0; depth < 64; depth++)
    {
      loc = get_pure_location (loc);
      if (!linemap_location_from_macro_expansion_p (line_table, loc))
	break;
      const line_map *map = linemap_lookup (line_table, loc);
      if (!map || !linemap_macro_expansion_map_p (map))
	break;
      const line_map_macro *m = linemap_check_macro (map);
      if (const char *b = builtin_name (MACRO_MAP_MACRO (m)))
	{
	  found = m;
	  *name = b;
	}
      loc = linemap_macro_map_loc_unwind_toward_spelling (line_table, m, loc);
    }
  return found;
}

/* Expansions that have had their error, by the first location of their
   map (the maps themselves move when the line table grows).  Few: one per
   misuse.  */
static vec<location_t> spent;

static bool
spent_p (const line_map_macro *m)
{
  for (location_t s : spent)
    if (s == MAP_START_LOCATION (m))
      return true;
  return false;
}

/* Whether DIAGNOSTIC is c_parser_type_name's "expected
   specifier-qualifier-list before ...": no type name could be read.  The
   C parser builds the message from that text and what follows; compared
   as translated, as the message was.  */
static bool
no_type_name_p (const diagnostic_info *diagnostic)
{
  const char *want = _("expected specifier-qualifier-list");
  const char *fmt = diagnostic->message.format_spec;
  return fmt && !strncmp (fmt, want, strlen (want));
}

static diagnostic_finalizer_fn gcc_finalizer;
static bool dropping;		/* the last diagnostic was dropped */
static bool adding;		/* our own "expected type name" is going out */

static void
finalize (diagnostic_context *dc, diagnostic_info *diagnostic,
	  diagnostic_t orig_kind)
{
  if (adding)
    {
      gcc_finalizer (dc, diagnostic, orig_kind);
      return;
    }
  /* A note belongs to the diagnostic before it.  */
  if (diagnostic->kind == DK_NOTE && dropping)
    {
      pp_clear_output_area (dc->printer);
      return;
    }
  dropping = false;
  const char *name = NULL;
  const line_map_macro *m = diagnostic->kind == DK_NOTE ? NULL
			    : expansion_of (diagnostic_location (diagnostic),
					    &name);
  if (m && spent_p (m))
    {
      /* Neither printed nor flushed: the starter's prefix and the message
	 are only in the printer's buffer yet.  Uncounted as well, as
	 diagnostic_report_diagnostic counted it, so that -fmax-errors
	 counts what is shown; the expansion's first error stays.  */
      pp_clear_output_area (dc->printer);
      if (diagnostic->kind == DK_ERROR && orig_kind == DK_WARNING)
	--diagnostic_kind_count (dc, DK_WERROR);
      else
	--diagnostic_kind_count (dc, diagnostic->kind);
      dropping = true;
      return;
    }
  gcc_finalizer (dc, diagnostic, orig_kind);
  if (!m || diagnostic->kind != DK_ERROR)
    return;
  spent.safe_push (MAP_START_LOCATION (m));
  if (!no_type_name_p (diagnostic) || dc->fatal_errors)
    return;
  /* diagnostic_report_diagnostic holds the lock while it calls us; this
     is the second half of the same report, made after the first is out.  */
  adding = true;
  dc->lock--;
  error_at (diagnostic_location (diagnostic), "expected type name in %qs",
	    name);
  dc->lock++;
  adding = false;
}

/* From PLUGIN_PRAGMAS, in cc1 for C, once.  Only over the C front end's
   text output: the other formats (-fdiagnostics-format=json, sarif) have
   their own finalizer and group callbacks, and the printer's buffer means
   something else to them.  */
void
kcfi_wrap_typeinfo_diagnostics (void)
{
  diagnostic_context *dc = global_dc;
  if (gcc_finalizer || !line_table || !dc
      || dc->begin_group_cb || dc->end_group_cb || !dc->printer
      || !diagnostic_finalizer (dc))
    return;
 
  gcc_finalizer = diagnostic_finalizer (dc);
  diagnostic_finalizer (dc) = finalize;
}

#else

void
kcfi_wrap_typeinfo_diagnostics (void)
{
}

#endif
