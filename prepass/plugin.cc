// SPDX-License-Identifier: GPL-2.0-or-later
/* kcfi.so: plugin entry, options and the per-unit directives.
 *
 * Who does what, and where (cc1: in cc1 only, never in lto1):
 *
 *   PLUGIN_ATTRIBUTES          wrap no_sanitize, nocf_check;   attrs.cc
 *                              register cfi_salt               salt.cc
 *   PLUGIN_START_UNIT          .kcfi_version                   here
 *   after "cfg" (cc1)          tag indirect calls, before any  gimple-passes.cc
 *                              inlining; refuse the address of trampolines.cc
 *                              a nested function (trampoline)
 *   ALL_IPA_PASSES_START (cc1) record function types before    here
 *                              free_lang_data; LTO guard asm
 *   ALL_IPA_PASSES_START       rename extern functions to      extern-stubs.cc
 *     (cc1 without LTO, ltrans) their stubs (opt-in)
 *   ALL_IPA_PASSES_END         the same for the code of a fat  extern-stubs.cc
 *     (cc1, fat LTO)           LTO object, its IR written
 *   after "einline" (cc1)      ICF guard                       gimple-passes.cc
 *   before "pre"               tail-merge guard                gimple-passes.cc
 *   after "expand"             call markers                    rtl-passes.cc
 *   before "ira"               checked calls' targets into the call-reg.cc
 *                              register kcfi-gcc names
 *   after "sched2"             their targets set early         early-target.cc
 *     (not no-early-target)
 *   before "shorten"           .kcfi_type, .kcfi_func and the  rtl-passes.cc
 *                              call-site directives
 *   PLUGIN_START_UNIT,         -fipa-ra back under a patch     ipa-ra.cc
 *     after "final"            area before the entry; the
 *     (not no-ipa-ra)          flags in what a function clobbers
 *   PLUGIN_PRAGMAS (cc1, C),   typeinfo builtin macros         typeinfo.cc
 *   then entering <built-in>   (their misuse: a diagnostic     typeinfo-diag.cc
 *                              finalizer wrapper)
 *   after "cfg" (cc1)          typeinfo markers -> objects     typeinfo.cc
 *   PLUGIN_PRE_GENERICIZE,     a function's address converted  conversions.cc
 *     PLUGIN_FINISH_DECL (cc1) to another function-pointer type
 *   PLUGIN_FINISH_UNIT         .kcfi_extern, .kcfi_typeinfo,   here
 *                              .kcfi_conversion
 *
 * With -fplugin-arg-kcfi-follow-lto (kcfi-gcc's link lines without
 * -fsanitize=kcfi) the plugin works in lto1 only, and only on a share of
 * the program that came from units compiled with it: cc1 marks everything
 * an -flto unit defines (KCFI_ATTR_LTO_UNIT), as Clang keeps the choice in
 * the IR, so that a link line need not repeat the compile lines' flags.
 *
 * Every type lto1 prints was computed by cc1 and streamed in an attribute:
 * lto1's trees have lost typedef names and the identity of char.
 */
#include "kcfi-plugin.h"
#include "plugin-version.h"
#include "langhooks.h"
#include "prepass/plugin-opts.h"

int plugin_is_GPL_compatible;

#ifndef KCFI_TARGET_TRIPLE
#error "build with -DKCFI_TARGET_TRIPLE='\"<triple>\"'"
#endif

int kcfi_reserve = 1;

/* Statements each .kcfi_call reserves by default, per target architecture:
   the length budget of the check kcfi-as puts in front of the branch, in
   the unit GCC sizes an asm statement by (doc/directives.md 3.3).  The
   plugin knows lengths only; kcfi-as refuses a reservation that is short
   on targets whose assembler does not relax branches.  */
static const struct
{
  const char *arch;
  int statements;
} default_reserve[] = {
  { "x86_64", KCFI_CHECK_STATEMENTS_X86_64 },
  { "aarch64", KCFI_CHECK_STATEMENTS_AARCH64 },
  { "riscv64", KCFI_CHECK_STATEMENTS_RISCV64 },
  { "arm", KCFI_CHECK_STATEMENTS_ARM },
};

static int
target_reserve (void)
{
  size_t len = strcspn (KCFI_TARGET_TRIPLE, "-");
  for (const auto &r : default_reserve)
    if (strlen (r.arch) == len && !strncmp (r.arch, KCFI_TARGET_TRIPLE, len))
      return r.statements ? r.statements : 1;	/* 1: the branch alone */
  return 1;
}
unsigned kcfi_prefix_nops;

/* cc1's --output-pch= file; lto1 has no such symbol, hence weak.  */
extern const char *pch_file __attribute__ ((weak));

/* -fplugin-arg-kcfi-follow-lto: see the map above.  Until lto1 has found
   a mark, nothing is written and no pass does anything.  */
static bool follow_lto;
#define LTO_GUARD KCFI_DIR_REQUIRE_PLUGIN
bool kcfi_active = true;

/* Directives go to real assembly only: not to slim LTO objects (IR only),
   not from WPA, not while writing a PCH (cc1 compiles no functions then,
   and a .kcfi_version there would describe nothing).  */
bool
kcfi_emitting_p (void)
{
  bool writing_pch = &pch_file && pch_file;
  return kcfi_active && asm_out_file && !flag_wpa && !writing_pch
	 && !(flag_generate_lto && !flag_fat_lto_objects);
}

/* free_lang_data strips the front end's type information only when the
   IL is going to be streamed.  */
bool
kcfi_types_intact_p (void)
{
  return !in_lto_p && !flag_generate_lto && !flag_generate_offload;
}

/* M of -fpatchable-function-entry=N[,M].  */
static unsigned
prefix_nops (void)
{
  const char *s = flag_patchable_function_entry;
  const char *comma = s ? strchr (s, ',') : NULL;
  return comma ? strtoul (comma + 1, NULL, 10) : 0;
}

static void
write_version (void)
{
  fprintf (asm_out_file,
	   "\t" KCFI_DIR_VERSION " %d, \"%s\", ptr=%d, long=%d, char=%s, prefix=%u\n",
	   KCFI_PROTOCOL_VERSION, KCFI_TARGET_TRIPLE, (int) TYPE_PRECISION (ptr_type_node),
	   (int) TYPE_PRECISION (long_integer_type_node),
	   TYPE_UNSIGNED (char_type_node) ? "unsigned" : "signed",
	   kcfi_prefix_nops);
}

static void
start_unit (void *, void *)
{
  kcfi_prefix_nops = prefix_nops ();
  kcfi_restore_ipa_ra ();
  if (kcfi_emitting_p ())
    write_version ();
}

/* What an -flto unit defines carries its mode into the IR.  */
static void
mark_lto_unit (void)
{
  const char *mode = kcfi_extern_stubs ? (kcfi_arity ? "stubs arity" : "stubs")
				       : (kcfi_arity ? "arity" : "");
  cgraph_node *fn;
  FOR_EACH_DEFINED_FUNCTION (fn)
    DECL_ATTRIBUTES (fn->decl)
      = kcfi_attr_with (DECL_ATTRIBUTES (fn->decl), KCFI_ATTR_LTO_UNIT, mode);
  varpool_node *var;
  FOR_EACH_DEFINED_VARIABLE (var)
    DECL_ATTRIBUTES (var->decl)
      = kcfi_attr_with (DECL_ATTRIBUTES (var->decl), KCFI_ATTR_LTO_UNIT, mode);
}

/* follow-lto in lto1: work if anything this code generator emits came from
   a marked unit, or if it emits the guard asm (which GCC puts in one
   partition only), and stub what a marked unit asked for.  A partition
   without either holds no code of ours: it is written as plain GCC would.  */
static void
follow_marks (void)
{
  bool marked = false, stubs = false;
  auto note = [&] (tree decl) {
    if (kcfi_attr_text (DECL_ATTRIBUTES (decl), KCFI_ATTR_LTO_UNIT))
      {
	marked = true;
	stubs |= kcfi_lto_mode_p (decl, "stubs");
      }
  };
  cgraph_node *fn;
  FOR_EACH_DEFINED_FUNCTION (fn)
    note (fn->decl);
  varpool_node *var;
  FOR_EACH_DEFINED_VARIABLE (var)
    note (var->decl);
  for (asm_node *a = symtab->first_asm_symbol (); a; a = a->next)
    marked |= !strcmp (TREE_STRING_POINTER (a->asm_str), LTO_GUARD);
  kcfi_active = marked;
  kcfi_extern_stubs |= stubs;
  if (kcfi_emitting_p ())
    write_version ();
}

/* A function whose body this TU emits; extern inline bodies are only
   there for inlining, the symbol itself lives elsewhere.  */
static bool
defined_here_p (cgraph_node *node)
{
  return node->definition && !DECL_EXTERNAL (node->decl);
}

/* -fplugin-arg-kcfi-stats: the CPU time of the plugin's two walks over
   the TU's functions, which is what grows with its number of prototypes,
   measured inside cc1 so that a benchmark need not find a few ms in the
   noise of a whole compilation (bench/typeids.sh).  */
static bool stats;
static bool early_target = true;	/* no-early-target turns the mover off */
static double types_ms, directives_ms;

static double
thread_cpu_ms (void)
{
  struct timespec t;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void record_types (void);

static void
all_ipa_passes_start (void *, void *)
{
  if (in_lto_p)
    {
      if (follow_lto)
	follow_marks ();
      if (kcfi_active)
	{
	  kcfi_tag_unmarked_bodies ();
	  kcfi_rename_extern_stubs ();
	}
      return;
    }
  double start = stats ? thread_cpu_ms () : 0;
  record_types ();
  kcfi_note_reached_conversions ();
  if (!flag_generate_lto)
    kcfi_rename_extern_stubs ();
  if (stats)
    types_ms += thread_cpu_ms () - start;
}

static void
record_types (void)
{
  /* Fail closed under LTO: this asm travels in the IR to the code
     generator, and without the plugin there it reaches the assembler
     without a .kcfi_version, which kcfi-as (and plain as) refuse.  */
  if (flag_generate_lto)
    {
      symtab->finalize_toplevel_asm (build_string (sizeof LTO_GUARD - 1,
						   LTO_GUARD));
      mark_lto_unit ();
    }
  auto_vec<cgraph_node *> needed;
  cgraph_node *node;
  FOR_EACH_FUNCTION (node)
    if (!node->alias && (defined_here_p (node)
			 ? kcfi_wants_preamble (node, true)
			 : node->address_taken))
      needed.safe_push (node);
  /* In the order GCC made the nodes (the list has the newest first), which
     is the order of the functions' first mention: the order in which Clang
     first mangles their types, and so numbers their anonymous tags.  */
  needed.reverse ();
  kcfi_expect_function_types (needed.length ());
  /* How many functions ahead each step of the chain of loads is asked for
     (kcfi_prefetch_function_type).  */
  static const unsigned ahead[] = { 10, 7, 4, 3, 2, 1 };
  unsigned n = needed.length ();
  for (unsigned i = 0; i < n; i++)
    {
      for (unsigned step = 0; step < ARRAY_SIZE (ahead); step++)
	if (i + ahead[step] < n)
	  kcfi_prefetch_function_type (needed[i + ahead[step]]->decl, step);
      tree decl = needed[i]->decl;
      if (!kcfi_function_type_recorded_p (decl))
	kcfi_record_function_type (decl);
    }
}

/* An address-taken function this TU does not define gets .kcfi_extern so
   that assembly code can find its type as __kcfi_typeid_NAME; one renamed
   to its stub gets it whenever the unit uses the stub (extern-stubs.cc).  Builtins
   the user never declared have no symbol to speak of; an LTO partition's
   neighbours' functions are not external declarations.  */
static void
write_externs (void)
{
  auto_vec<cgraph_node *> externs;
  cgraph_node *node;
  FOR_EACH_FUNCTION (node)
    if (!node->alias && !defined_here_p (node) && !node->in_other_partition
	&& (kcfi_extern_stub_target (node->decl)
	    ? kcfi_extern_stub_needed_p (node) : node->address_taken))
      externs.safe_push (node);
  /* How many functions ahead each step of put_symbol's loads is asked
     for, as in all_ipa_passes_start.  */
  static const unsigned ahead[] = { 8, 5, 3, 1 };
  unsigned n = externs.length ();
  kcfi_batch lines;
  for (unsigned i = 0; i < n; i++)
    {
      for (unsigned step = 0; step < ARRAY_SIZE (ahead); step++)
	if (i + ahead[step] < n)
	  kcfi_prefetch_symbol (externs[i + ahead[step]]->decl, step);
      tree decl = externs[i]->decl;
      if (DECL_IS_UNDECLARED_BUILTIN (decl)
	  || fndecl_built_in_p (decl, BUILT_IN_MD))
	continue;
      kcfi_text *type = kcfi_function_type (decl);
      /* Under LTO, only units compiled without KCFI took its address.  */
      if (!type && in_lto_p)
	continue;
      if (!type)
	{
	  error_at (DECL_SOURCE_LOCATION (decl), "kcfi: no type was recorded "
		    "for %qD", decl);
	  continue;
	}
      unsigned id = kcfi_type_id (type);
      kcfi_define_type (id);
      kcfi_write_extern (decl, id, kcfi_extern_stub_target (decl));
    }
}

/* Under -fsanitize-kcfi-extern-stubs, a public alias the unit defines is
   one of the program's functions like those it defines with a body: units
   that only declare it must meet it, not a stub of their own.  An IFUNC
   is not: its address is the resolver's choice, which a stub reaches
   through the GOT as for a function of libc (doc/extern-stubs.md).
   Weakrefs and transparent aliases name other symbols, not new ones.  */
static void
write_stub_aliases (void)
{
  if (!kcfi_extern_stubs)
    return;
  cgraph_node *node;
  FOR_EACH_FUNCTION (node)
    if (node->alias && node->definition && !node->weakref
	&& !node->transparent_alias && !node->ifunc_resolver
	&& !node->in_other_partition && TREE_PUBLIC (node->decl)
	&& !DECL_EXTERNAL (node->decl))
      kcfi_write_stub_alias (node->decl);
}

/* A fat LTO object's IR is written by now, as it would be in a slim one:
   the code generator at link time stubs what no unit defines.  The code
   cc1 goes on to write for links without LTO gets its stubs here, after the
   IPA passes, as a unit compiled without LTO gets them before.  */
static void
all_ipa_passes_end (void *, void *)
{
  if (!in_lto_p && flag_generate_lto && flag_fat_lto_objects)
    kcfi_rename_extern_stubs ();
}

static void
finish_unit (void *, void *)
{
  if (!kcfi_emitting_p ())
    return;
  double start = stats ? thread_cpu_ms () : 0;
  write_externs ();
  write_stub_aliases ();
  kcfi_emit_typeinfo ();
  kcfi_write_conversions ();
  if (stats)
    {
      directives_ms += thread_cpu_ms () - start;
      fprintf (stderr, "kcfi: %s: recording types %.2f ms, writing directives "
	       "%.2f ms (CPU)\n", main_input_filename, types_ms, directives_ms);
    }
}

/* A pass that runs FN; T is GIMPLE_PASS or RTL_PASS, BASE its class.  */
template <opt_pass_type T, typename BASE, unsigned (*FN) (function *)>
class kcfi_pass : public BASE
{
public:
  kcfi_pass (const char *name, unsigned props)
    : BASE ({ T, name, OPTGROUP_NONE, TV_NONE, props, 0, 0, 0, 0 }, g) {}
  unsigned int execute (function *fun) final override { return FN (fun); }
  /* cc1's own allocator: the global operators would make the dynamic
     linker load libstdc++.so into every compilation just for them.  */
  static void *operator new (size_t size) { return xmalloc (size); }
  static void operator delete (void *p) { free (p); }
};

template <opt_pass_type T, typename BASE, unsigned (*FN) (function *)>
static void
add_pass (const char *plugin, const char *name, unsigned props,
	  const char *ref, pass_positioning_ops pos)
{
  register_pass_info info = { new kcfi_pass<T, BASE, FN> (name, props), ref,
			      1, pos };
  register_callback (plugin, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}

static plugin_info kcfi_info = {
  "0.1",
  "Annotates assembly for kcfi-as (doc/directives.md).\n"
  "  -fplugin-arg-kcfi-reserve=K   statements each .kcfi_call reserves "
  "(default: per target, see doc/directives.md)\n"
  "  -fplugin-arg-kcfi-extern-stubs   address-taken functions the unit "
  "only declares are reached through typed stubs (doc/extern-stubs.md)\n"
  "  -fplugin-arg-kcfi-follow-lto  only in lto1, only on code from units "
  "compiled with the plugin (link lines without -fsanitize=kcfi)\n"
  "  -fplugin-arg-kcfi-call-reg=REG   checked calls take their target in "
  "REG, the register the check reads it from (kcfi-gcc: %r11 behind x86_64 "
  "retpoline thunks)\n"
  "  -fplugin-arg-kcfi-arity       .kcfi_func says how many general registers "
  "carry the function's arguments (kcfi-gcc: -fsanitize-kcfi-arity)\n"
  "  -fplugin-arg-kcfi-generalize-pointers   tags behind the pointers "
  "kcfi-as generalizes are not numbered (kcfi-gcc: "
  "-fsanitize-cfi-icall-generalize-pointers)\n"
  "  -fplugin-arg-kcfi-no-conversions   no .kcfi_conversion lines (to compare "
  "code with and without them)\n"
  "  -fplugin-arg-kcfi-no-ipa-ra   leave -fipa-ra off under "
  "-fpatchable-function-entry=N,N, as GCC does (to compare code)\n"
  "  -fplugin-arg-kcfi-stats       report the CPU time of its two walks "
  "over the TU's functions\n"
  "  -fplugin-arg-kcfi-transparent-union=member|union   a transparent union "
  "parameter or return type counts as its first member (default, as Clang "
  "22 and later) or as the union (Clang 21 and earlier)\n"
};

/* The word of configure line MINE that tells it from OTHER, copied to
   BUF: its --target= option when TARGET, else the first word that differs
   ("" if none).  Words are split at blanks, as configure's own echo does. */
static const char *
config_difference (const char *mine, const char *other, bool target,
		   char *buf, size_t size)
{
  for (;;)
    {
      while (*mine == ' ')
	mine++;
      while (*other == ' ')
	other++;
      size_t lm = strcspn (mine, " "), lo = strcspn (other, " ");
      if (!lm)
	break;
      bool hit = target ? !strncmp (mine, "--target=", 9)
			: lm != lo || strncmp (mine, other, lm);
      if (hit)
	{
	  snprintf (buf, size, "%.*s", (int) lm, mine);
	  return buf;
	}
      mine += lm;
      other += lo;
    }
  return "";
}

/* GCC refuses a plugin when any of five build fields differs, not only
   the version number: two builds of GCC 12.2.0 (a native and a cross
   compiler, or two configurations) reject each other's plugins.  Naming
   the field that differs is what tells the user which plugin to install. */
static void
report_version_mismatch (const plugin_gcc_version *cc)
{
  const plugin_gcc_version *me = &gcc_version;
  const char *field = "basever", *mine = me->basever, *theirs = cc->basever;
  if (!strcmp (mine, theirs))
    {
      if (strcmp (me->datestamp, cc->datestamp))
	field = "datestamp", mine = me->datestamp, theirs = cc->datestamp;
      else if (strcmp (me->devphase, cc->devphase))
	field = "devphase", mine = me->devphase, theirs = cc->devphase;
      else if (strcmp (me->revision, cc->revision))
	field = "revision", mine = me->revision, theirs = cc->revision;
      else
	{
	  /* Configure lines run to a thousand characters: show the target
	     if that is what differs, else the first option that does.  */
	  char a[256], b[256];
	  const char *x = me->configuration_arguments;
	  const char *y = cc->configuration_arguments;
	  bool target = strcmp (config_difference (x, y, true, a, sizeof a),
				config_difference (y, x, true, b, sizeof b));
	  if (!target)
	    {
	      config_difference (x, y, false, a, sizeof a);
	      config_difference (y, x, false, b, sizeof b);
	    }
	  error ("kcfi: this plugin (for %s) was built for another GCC than "
		 "this compiler, GCC %s: their configure options differ, "
		 "the plugin was configured with %qs where the compiler was with %qs",
		 KCFI_TARGET_TRIPLE, cc->basever, a, b);
	  return;
	}
    }
  error ("kcfi: this plugin (for %s) was built for another GCC than this "
	 "compiler, GCC %s: %s is %qs in the plugin, %qs in the compiler",
	 KCFI_TARGET_TRIPLE, cc->basever, field, mine, theirs);
}

int
plugin_init (plugin_name_args *args, plugin_gcc_version *version)
{
  const char *name = args->base_name;
  /* follow-lto: cc1 on such a line compiles without KCFI, whatever this
     compiler is; lto1 waits for the marks (follow_marks).  */
  int ids[args->argc + 1];
  for (int i = 0; i < args->argc; i++)
    {
      /* The table (prepass/plugin.opt) spells each as KEY or KEY=VALUE.  */
      const plugin_argument &a = args->argv[i];
      char *arg = a.value ? concat (a.key, "=", a.value, NULL) : xstrdup (a.key);
      const kcfi_opt *o = kcfi_opt_find (kcfi_plugin_opts, arg, NULL);
      free (arg);
      ids[i] = o ? o->id : 0;
      follow_lto |= ids[i] == KCFI_PLUGIN_OPT_FOLLOW_LTO;
    }
  if (follow_lto && strcmp (lang_hooks.name, "GNU GIMPLE"))
    return 0;
  if (!plugin_default_version_check (version, &gcc_version))
    {
      report_version_mismatch (version);
      return 1;
    }
  kcfi_reserve = target_reserve ();
  for (int i = 0; i < args->argc; i++)
    {
      const plugin_argument &a = args->argv[i];
      char *end = NULL;
      bool bad = false;
      switch (ids[i])
	{
	case KCFI_PLUGIN_OPT_STATS:
	  stats = true;
	  break;
	case KCFI_PLUGIN_OPT_EXTERN_STUBS:
	  kcfi_extern_stubs = true;
	  break;
	case KCFI_PLUGIN_OPT_FOLLOW_LTO:
	  break;
	/* Only to compare code with and without the mover (tests,
	   bisecting a suspected miscompile): -fdisable-rtl- does not reach
	   passes a plugin adds, the option is read before they exist.  */
	case KCFI_PLUGIN_OPT_NO_EARLY_TARGET:
	  early_target = false;
	  break;
	/* Only to compare code with and without the records.  */
	/* Only to compare code with and without it (ipa-ra.cc).  */
	case KCFI_PLUGIN_OPT_NO_IPA_RA:
	  kcfi_ipa_ra = false;
	  break;
	case KCFI_PLUGIN_OPT_NO_CONVERSIONS:
	  kcfi_conversions = false;
	  break;
	case KCFI_PLUGIN_OPT_ARITY:
	  kcfi_arity = true;
	  break;
	case KCFI_PLUGIN_OPT_GENERALIZE_POINTERS:
	  kcfi_generalize_pointers = true;
	  break;
	case KCFI_PLUGIN_OPT_CALL_REG:
	  if ((kcfi_call_regno = kcfi_parse_call_reg (a.value)) < 0)
	    return 1;
	  break;
	case KCFI_PLUGIN_OPT_TRANSPARENT_UNION:
	  bad = strcmp (a.value, "member") && strcmp (a.value, "union");
	  kcfi_transparent_union_member = !strcmp (a.value, "member");
	  break;
	case KCFI_PLUGIN_OPT_RESERVE:
	  kcfi_reserve = strtol (a.value, &end, 10);
	  bad = !*a.value || *end || kcfi_reserve < 1 || kcfi_reserve > 64;
	  break;
	default:
	  bad = true;
	}
      if (bad)
	{
	  error ("kcfi: bad plugin argument %<-fplugin-arg-%s-%s%s%s%>; "
		 "the known ones are %s (%<reserve%> from 1 to 64)",
		 name, a.key, a.value ? "=" : "", a.value ? a.value : "",
		 KCFI_PLUGIN_OPTS_KNOWN);
	  return 1;
	}
    }

  if (follow_lto)
    kcfi_active = false;
  kcfi_note_ipa_ra ();
  register_callback (name, PLUGIN_INFO, NULL, &kcfi_info);
  register_callback (name, PLUGIN_ATTRIBUTES, kcfi_wrap_attribute_handlers,
		     NULL);
  register_callback (name, PLUGIN_START_UNIT, start_unit, NULL);
  register_callback (name, PLUGIN_ALL_IPA_PASSES_START, all_ipa_passes_start,
		     NULL);
  register_callback (name, PLUGIN_ALL_IPA_PASSES_END, all_ipa_passes_end,
		     NULL);
  register_callback (name, PLUGIN_FINISH_UNIT, finish_unit, NULL);
  register_callback (name, PLUGIN_PRAGMAS, kcfi_define_typeinfo_builtins,
		     (void *) name);
  kcfi_register_conversions (name);

  add_pass<GIMPLE_PASS, gimple_opt_pass, kcfi_tag_calls>
    (name, "kcfi_tag", PROP_cfg, "cfg", PASS_POS_INSERT_AFTER);
  add_pass<GIMPLE_PASS, gimple_opt_pass, kcfi_lower_typeinfo>
    (name, "kcfi_typeinfo", PROP_cfg, "cfg", PASS_POS_INSERT_AFTER);
  add_pass<GIMPLE_PASS, gimple_opt_pass, kcfi_summarize_calls>
    (name, "kcfi_icf", PROP_cfg, "einline", PASS_POS_INSERT_AFTER);
  add_pass<GIMPLE_PASS, gimple_opt_pass, kcfi_guard_tail_merge>
    (name, "kcfi_tail_merge", PROP_cfg, "pre", PASS_POS_INSERT_BEFORE);
  add_pass<RTL_PASS, rtl_opt_pass, kcfi_mark_calls>
    (name, "kcfi_mark", PROP_rtl, "expand", PASS_POS_INSERT_AFTER);
  add_pass<RTL_PASS, rtl_opt_pass, kcfi_pin_call_targets>
    (name, "kcfi_call_reg", PROP_rtl, "ira", PASS_POS_INSERT_BEFORE);
  if (early_target)
    add_pass<RTL_PASS, rtl_opt_pass, kcfi_early_call_targets>
      (name, "kcfi_early_target", PROP_rtl, "sched2", PASS_POS_INSERT_AFTER);
  add_pass<RTL_PASS, rtl_opt_pass, kcfi_emit_directives>
    (name, "kcfi_emit", PROP_rtl, "shorten", PASS_POS_INSERT_BEFORE);
  add_pass<RTL_PASS, rtl_opt_pass, kcfi_widen_clobbers>
    (name, "kcfi_ipa_ra", 0, "final", PASS_POS_INSERT_AFTER);
  return 0;
}
