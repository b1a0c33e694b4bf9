/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi.so: the GCC side of kcfi-as.
 *
 * The plugin tells the assembler pass which C type every function has and
 * which type every indirect call expects, as directives in the -S output
 * (doc/directives.md).  It knows GCC's trees and RTL; it knows nothing about
 * hashes, mangling or instruction sequences.
 *
 * The type a call expects is decided once, in cc1, before inlining, and
 * rides through the optimizers as a private type attribute on
 * gimple_call_fntype.  Right after expand it becomes a marker in
 * CALL_INSN_FUNCTION_USAGE, which RTL passes copy faithfully and which keeps
 * differently typed calls from being merged.  Just before branch shortening
 * the markers become directives.  plugin.cc has the map of who does what.
 */
#ifndef KCFI_PLUGIN_H
#define KCFI_PLUGIN_H

#include "gcc-plugin.h"
#include "../common/kcfi-targets.h"
#include "gcc-compat.h"
#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "stringpool.h"
#include "attribs.h"
#include "diagnostic-core.h"
#include "cgraph.h"
#include "output.h"

/* Private attributes.  A space in the name keeps them out of C source;
   nothing looks up their specs, so they need no registration.  */
#define KCFI_ATTR_CALL "kcfi call"	/* on a call's fntype: the type it
					   expects, "" for unchecked */
#define KCFI_ATTR_FN "kcfi fn"		/* on a decl: its own type */
#define KCFI_ATTR_CALLS "kcfi calls"	/* on a decl: its calls' types */
#define KCFI_ATTR_NO_SANITIZE "kcfi no_sanitize"
#define KCFI_ATTR_NOCF "kcfi nocf_check"
#define KCFI_ATTR_VA_START "kcfi va_start"	/* on a decl: its body calls
					   va_start (arity.cc) */
#define KCFI_ATTR_LTO_UNIT "kcfi lto unit"	/* on what an -flto unit
					   defines: its mode, the words "stubs"
					   and "arity" or neither */

/* plugin.cc */
extern int kcfi_reserve;		/* -fplugin-arg-kcfi-reserve=K */
extern unsigned kcfi_prefix_nops;	/* M of -fpatchable-function-entry=N,M */
extern bool kcfi_active;		/* false: lto1 idles (follow-lto) */
bool kcfi_emitting_p (void);
bool kcfi_types_intact_p (void);

/* attrs.cc */
void kcfi_wrap_attribute_handlers (void *gcc_data, void *user_data);
const char *kcfi_attr_text (tree attrs, const char *name);
tree kcfi_attr_with (tree attrs, const char *name, const char *text);
bool kcfi_lto_mode_p (tree decl, const char *word);
bool kcfi_nocf_check_p (tree fndecl);

/* salt.cc: Clang's cfi_salt("...") on function types */
void kcfi_register_cfi_salt (void);
const char *kcfi_cfi_salt (const_tree fntype);	/* NULL: none */

/* texts.cc: type texts, interned per output file (cc1, or one ltrans),
   and their ids (below KCFI_MAX_TYPE_ID), given at first use.  */
#define KCFI_MAX_TYPE_ID (1u << 20)
struct kcfi_text
{
  unsigned len;
  unsigned id;			/* 0: not used yet */
  bool defined;			/* its .kcfi_type is out */
  char str[];			/* NUL-terminated */
};
kcfi_text *kcfi_text_intern (const char *str, size_t len);
void kcfi_texts_reserve (size_t n);
unsigned kcfi_type_id (kcfi_text *text);
kcfi_text *kcfi_type_of (unsigned id);
unsigned kcfi_intern (const char *text);

/* output.cc: directive lines (written at once), preambles.  */
void kcfi_define_type (unsigned id);
/* .kcfi_func; ARITY < 0: none (arity.cc).  */
void kcfi_write_func (tree decl, unsigned id, bool stub_alias, int arity);
void kcfi_write_extern (tree decl, unsigned id, const char *stub_target);
void kcfi_write_stub_alias (tree decl);	/* .kcfi_stub_alias */
						/* .kcfi_extern */
void kcfi_prefetch_symbol (tree decl, unsigned step);
void kcfi_write_reserved (const char *reg, const char *kind, const char *why);
/* The lines written while one exists go out together when it ends: no
   other output may come in between.  */
struct kcfi_batch
{
  kcfi_batch ();
  ~kcfi_batch ();
};
bool kcfi_wants_preamble (cgraph_node *node, bool early);

/* typename.cc: -fplugin-arg-kcfi-transparent-union=member (true, the
   default) or union.  */
extern bool kcfi_transparent_union_member;
/* -fplugin-arg-kcfi-arity, and the arity of the function being compiled
   (arity.cc).  */
extern bool kcfi_arity;
int kcfi_function_arity (void);
void kcfi_note_va_start (function *fun);
/* -fplugin-arg-kcfi-generalize-pointers (typename.cc).  */
extern bool kcfi_generalize_pointers;
/* typename.cc: a type as a C type name (doc/directives.md §4); a type the
   language cannot express is an error at LOC.  Texts are interned: they
   live as long as the process.  */
kcfi_text *kcfi_type_text (tree type, location_t loc);
const char *kcfi_type_name (tree type, location_t loc);
kcfi_text *kcfi_conversion_type_text (tree type);	/* NULL: no spelling */
kcfi_text *kcfi_record_function_type (tree fndecl);
bool kcfi_function_type_recorded_p (tree fndecl);
kcfi_text *kcfi_function_type (tree fndecl);
void kcfi_expect_function_types (size_t n);
void kcfi_prefetch_function_type (tree fndecl, unsigned step);

/* regs.cc: the registers the program keeps for itself (-ffixed-REG,
   -fcall-saved-REG, global register variables), once per output file
   before its first function.  */
void kcfi_write_reserved_regs (void);

/* conversions.cc: a function's address as a pointer of another type
   (.kcfi_conversion, doc/directives.md 2.7); -fplugin-arg-kcfi-no-conversions
   turns it off.  */
extern bool kcfi_conversions;
void kcfi_register_conversions (const char *plugin);
void kcfi_note_reached_conversions (void);	/* at the start of IPA */
void kcfi_write_conversions (void);
void kcfi_write_conversion (tree fn, const char *from, const char *to,
			    const char *file, int line, const char *context,
			    const char *kind);

/* typeinfo.cc: __builtin_linux_abi_kcfi_name/_hash (doc/directives.md 2.5) */
void kcfi_define_typeinfo_builtins (void *, void *);
unsigned kcfi_lower_typeinfo (function *);
void kcfi_emit_typeinfo (void);
/* trampolines.cc: the address of a nested function, refused */
void kcfi_refuse_trampolines (function *fun, bool unchecked);
/* extern-stubs.cc: -fplugin-arg-kcfi-extern-stubs (doc/extern-stubs.md) */
extern bool kcfi_extern_stubs;
void kcfi_rename_extern_stubs (void);	/* cc1 without LTO; ltrans */
const char *kcfi_extern_stub_target (tree decl);	/* NULL: not a stub */
bool kcfi_extern_stub_needed_p (cgraph_node *node);
/* typeinfo-diag.cc: their misuse, worded as GCC's built-ins word it */
void kcfi_wrap_typeinfo_diagnostics (void);

/* The passes; plugin.cc wraps and places them.  */
unsigned kcfi_tag_calls (function *);		/* gimple-passes.cc */
void kcfi_tag_unmarked_bodies (void);
unsigned kcfi_summarize_calls (function *);
unsigned kcfi_guard_tail_merge (function *);
unsigned kcfi_mark_calls (function *);		/* rtl-passes.cc */
unsigned kcfi_emit_directives (function *);
bool kcfi_checked_call_p (rtx_insn *call);
unsigned kcfi_pin_call_targets (function *);	/* call-reg.cc */
extern int kcfi_call_regno;		/* -fplugin-arg-kcfi-call-reg=REG */
int kcfi_parse_call_reg (const char *name);
unsigned kcfi_early_call_targets (function *);	/* early-target.cc */
extern bool kcfi_ipa_ra;		/* ipa-ra.cc; false: no-ipa-ra */
void kcfi_note_ipa_ra (void);
void kcfi_restore_ipa_ra (void);
unsigned kcfi_widen_clobbers (function *);

#endif
