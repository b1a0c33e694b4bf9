// SPDX-License-Identifier: GPL-2.0-or-later
/* Print a function type as a C type name (doc/directives.md §4).
 *
 * Declarators nest inside out: each derived type wraps the text of the
 * types derived from it ("*", "[10]", "(int)"), and the base type's
 * specifiers go in front: int (*(*)(int))(char).
 *
 * Typedefs are resolved, except that the typedef that names an anonymous
 * tag for linkage purposes supplies the tag (the seeds' rule, and
 * Clang's).  Arithmetic types are identified by their main variant against
 * GCC's global type nodes, so char, signed char and unsigned char never
 * collapse.  A type the protocol cannot express is an error, never a
 * guess: a guessed type id matches nothing, or worse, the wrong thing.
 */
#include "kcfi-plugin.h"
#include "bversion.h"
#include "tables.h"

/* Truly anonymous tags are numbered per TU in the order Clang numbers
   them: the order they first appear in a mangled name (see
   number_in_mangling_order).  Keyed by TYPE_UID, which is never reused,
   not by the (collectable) tree.  The printer leaves ANON_MARK uid
   ANON_MARK where the number goes.  */
static kcfi_uid_map<unsigned> anon_numbers;	/* number + 1 */
static unsigned anon_count;
static const char ANON_MARK = '\001';

/* The node to compare with GCC's global ones: attribute variants (such as
   may_alias) are their own main variants but keep the canonical type.  */
static tree
core_type (tree t)
{
  tree m = TYPE_MAIN_VARIANT (t);
  if (TYPE_CANONICAL (m) && TYPE_CANONICAL (m) != m)
    m = TYPE_MAIN_VARIANT (TYPE_CANONICAL (m));
  return m;
}

/* Append the spelling of an integer or floating type to OUT; false if it
   has none.  The printer appends to one string throughout: a TU declares
   thousands of prototypes, and temporaries per node made it the plugin's
   main cost.  */
static bool
arithmetic_name (tree m, kcfi_buffer &out)
{
  static const char *const ints[] = {
    "char", "signed char", "unsigned char", "short", "unsigned short",
    "int", "unsigned int", "long", "unsigned long", "long long",
    "unsigned long long"
  };
  static_assert (itk_unsigned_long_long - itk_char + 1
		 == sizeof ints / sizeof *ints, "integer_type_kind changed");
  for (int k = itk_char; k <= itk_unsigned_long_long; k++)
    if (m == integer_types[k])
      {
	out += ints[k - itk_char];
	return true;
      }
  for (int i = 0; i < NUM_INT_N_ENTS; i++)
    if (int_n_enabled_p[i] && int_n_data[i].bitsize == 128
	&& (m == int_n_trees[i].signed_type
	    || m == int_n_trees[i].unsigned_type))
      {
	out += TYPE_UNSIGNED (m) ? "unsigned __int128" : "__int128";
	return true;
      }
  const struct
  {
    tree node;
    const char *name;
  } reals[] = {
    { float_type_node, "float" }, { double_type_node, "double" },
    { long_double_type_node, "long double" },
    { dfloat32_type_node, "_Decimal32" }, { dfloat64_type_node, "_Decimal64" },
    { dfloat128_type_node, "_Decimal128" },
  };
  for (const auto &r : reals)
    if (m == r.node)
      {
	out += r.name;
	return true;
      }
  for (int i = 0; i < NUM_FLOATN_NX_TYPES; i++)
    if (FLOATN_NX_TYPE_NODE (i) && m == FLOATN_NX_TYPE_NODE (i))
      {
	out += "_Float";
	out.put_uint (floatn_nx_types[i].n);
	if (floatn_nx_types[i].extended)
	  out += 'x';
	return true;
      }
  /* Target types GCC 12 has no global node for.  */
  tree n = TYPE_NAME (m);
  if (n && TREE_CODE (n) == TYPE_DECL && DECL_NAME (n))
    for (const char *b : { "__bf16", "__float128" })
      if (id_equal (DECL_NAME (n), b))
	{
	  out += b;
	  return true;
	}
  return false;
}

/* The spelling of a fixed-point type (ISO/IEC TR 18037), "" if none.  */
#define KCFI_FIXED_SIZES(pre, kind, K)					\
  { pre##short_##kind##_type_node, "short " K }, { pre##kind##_type_node, K },	\
  { pre##long_##kind##_type_node, "long " K },				\
  { pre##long_long_##kind##_type_node, "long long " K }
#define KCFI_FIXED_KIND(kind, K)					\
  KCFI_FIXED_SIZES (, kind, K), KCFI_FIXED_SIZES (unsigned_, kind, "unsigned " K), \
  KCFI_FIXED_SIZES (sat_, kind, "_Sat " K),				\
  KCFI_FIXED_SIZES (sat_unsigned_, kind, "_Sat unsigned " K)

static const char *
fixed_point_name (tree m)
{
  const struct
  {
    tree node;
    const char *name;
  } fixed[] = {
    KCFI_FIXED_KIND (fract, "_Fract"), KCFI_FIXED_KIND (accum, "_Accum"),
  };
  for (const auto &f : fixed)
    if (f.node && m == f.node)
      return f.name;
  return "";
}

/* The name an anonymous tag has for linkage purposes, as Clang gives it
   (the C++ rule for a typedef of an unnamed class, which Clang applies to
   C as well): the first typedef name declared as exactly that type,
   unqualified.  In `typedef struct { int a; } *P_t, A_t, B_t[4];` that is
   A_t, whichever of the three names a declaration uses;
   `typedef const struct {...} C_t;` names none, and the tag stays
   anonymous.  GCC keeps the typedef on a
   variant of the tag's main variant whose TYPE_NAME is the TYPE_DECL and
   whose DECL_ORIGINAL_TYPE is what the typedef was declared as; the
   earliest (lowest DECL_UID) such TYPE_DECL whose original is M itself
   is the one.  NULL_TREE if there is none.  */
static tree
linkage_typedef (tree m)
{
  tree best = NULL_TREE;
  for (tree v = TYPE_NEXT_VARIANT (m); v; v = TYPE_NEXT_VARIANT (v))
    {
      tree n = TYPE_NAME (v);
      if (n && TREE_CODE (n) == TYPE_DECL && DECL_NAME (n)
	  && DECL_ORIGINAL_TYPE (n) == m
	  && (!best || DECL_UID (n) < DECL_UID (best)))
	best = n;
    }
  return best;
}

/* The name of tag T: its tag, the typedef name an anonymous tag has for
   linkage purposes, or NULL_TREE for a truly anonymous tag.  */
static tree
tag_name (tree t)
{
  tree m = TYPE_MAIN_VARIANT (t);
  tree name = TYPE_NAME (m);
  if (name && TREE_CODE (name) == TYPE_DECL && !DECL_ORIGINAL_TYPE (name))
    name = DECL_NAME (name);	/* a tag the back end made (__va_list_tag) */
  if (name && TREE_CODE (name) == IDENTIFIER_NODE)
    return name;
  tree typedef_decl = linkage_typedef (m);
  return typedef_decl ? DECL_NAME (typedef_decl) : NULL_TREE;
}

/* Append "struct foo", or the marks of a truly anonymous tag, which
   kcfi_type_text makes "$_N".  */
static void
tag (tree t, kcfi_buffer &out)
{
  out += TREE_CODE (t) == RECORD_TYPE ? "struct "
	 : TREE_CODE (t) == UNION_TYPE ? "union " : "enum ";
  if (tree name = tag_name (t))
    {
      out += IDENTIFIER_POINTER (name);
      return;
    }
  out += ANON_MARK;
  out.put_uint (TYPE_UID (TYPE_MAIN_VARIANT (t)));
  out += ANON_MARK;
}

/* The C front end's names of address spaces (only cc1 prints types).  */
extern const char *c_addr_space_name (addr_space_t) __attribute__ ((weak));

/* The spelling of T's named address space, "" for the generic one, NULL
   for one the language has none for.  Of the targets kcfi-as supports only
   x86 has named address spaces in GCC's C, __seg_fs and __seg_gs; the
   language spells them as GCC does and mangles them as Clang numbers
   them (257, 256).  */
static const char *
address_space_name (tree t)
{
  addr_space_t as = TYPE_ADDR_SPACE (t);
  if (as == ADDR_SPACE_GENERIC)
    return "";
  const char *name = c_addr_space_name ? c_addr_space_name (as) : NULL;
  if (name && (!strcmp (name, "__seg_fs") || !strcmp (name, "__seg_gs")))
    return name;
  return NULL;
}

/* -fplugin-arg-kcfi-transparent-union=member|union.  */
bool kcfi_transparent_union_member = true;

/* -fplugin-arg-kcfi-generalize-pointers: Clang 22 under
   -fsanitize-cfi-icall-generalize-pointers mangles void pointers in place
   of the pointer parameters and pointer return type of the function type
   whose id it computes (kcfi-as does the same with the printed type), so
   its mangler never meets the tags behind them, nor numbers them.  */
bool kcfi_generalize_pointers;

/* The type Clang puts in the place of T, a parameter or the return type of
   the function type whose id it computes: since Clang 22, a transparent
   union's first member (GCC passes the union as that member; Clang's
   GeneralizeTransparentUnion).  Only the function type itself is
   affected, not the function types in its parameters.  Clang 21 and
   earlier keep the union: -fplugin-arg-kcfi-transparent-union=union.
   Clang drops the attribute in more cases than GCC does: when the first
   member is floating or a vector, or another member differs from it in
   size or asks for more alignment; then the union stays.  */
static tree
clang_passed_as (tree t)
{
  if (!kcfi_transparent_union_member || TREE_CODE (t) != UNION_TYPE
      || !TYPE_TRANSPARENT_AGGR (TYPE_MAIN_VARIANT (t)))
    return t;
  tree first = first_field (t);
  if (!first)
    return t;
  auto declared = [] (tree field) {
    return DECL_BIT_FIELD_TYPE (field) ? DECL_BIT_FIELD_TYPE (field)
				       : TREE_TYPE (field);
  };
  tree member = declared (first);
  if (FLOAT_TYPE_P (member) || VECTOR_TYPE_P (member)
      || !TYPE_SIZE (member))
    return t;
  for (tree f = first; f; f = DECL_CHAIN (f))
    {
      if (TREE_CODE (f) != FIELD_DECL)
	continue;
      tree ft = declared (f);
      if (!TYPE_SIZE (ft) || !tree_int_cst_equal (TYPE_SIZE (ft),
						   TYPE_SIZE (member))
	  || TYPE_ALIGN (ft) > TYPE_ALIGN (member))
	return t;
    }
  return member;
}

namespace {

/* Printed parts of types, by TYPE_UID, as raw text (anonymous tags not yet
   numbered): a TU's prototypes have far fewer distinct parameter and
   return types than parameters and return types.  */
struct raw_text
{
  size_t len;
  char str[];
};
static kcfi_uid_map<raw_text *> param_texts;	/* print (T, true) */
static kcfi_uid_map<raw_text *> return_prefixes;	/* prefix (T, false, false) */
static kcfi_uid_map<raw_text *> return_suffixes;	/* suffix (T) */

class type_printer
{
public:
  type_printer (tree whole, location_t loc) : whole (whole), loc (loc) {}
  void print (tree t, kcfi_buffer &out, bool strip_quals);
  bool failed () const { return failures; }

private:
  tree whole;
  location_t loc;
  unsigned failures = 0;	/* "?"s printed */

  const char *fail (tree t);
  template <typename F>
  void remembered (kcfi_uid_map<raw_text *> &texts, tree t, kcfi_buffer &out,
		   F print_t);
  void specifier (tree t, kcfi_buffer &out);
  void params (tree fntype, kcfi_buffer &out);
  void prefix (tree t, kcfi_buffer &out, bool strip_quals, bool bare);
  void suffix (tree t, kcfi_buffer &out);
};

/* kcfi_conversion_type_text: a type without a spelling is no error.  */
static bool quiet_failures;

const char *
type_printer::fail (tree t)
{
  if (!failures++ && !quiet_failures)
    error_at (loc, "kcfi: the function type %qT cannot be written in the "
	      "prototype language: no spelling for %qT%s", whole, t,
	      TYPE_ADDR_SPACE (t) ? " in this named address space" : "");
  return "?";
}

/* Append what PRINT_T appends to OUT, T's text in TEXTS: from there if it
   is known, else printed and kept there.  A text with a "?" in it is never
   kept: its error belongs to each prototype that has it.  */
template <typename F>
void
type_printer::remembered (kcfi_uid_map<raw_text *> &texts, tree t,
			  kcfi_buffer &out, F print_t)
{
  if (raw_text *known = texts.get (TYPE_UID (t)))
    {
      out.append (known->str, known->len);
      return;
    }
  size_t start = out.size ();
  unsigned failures_before = failures;
  print_t ();
  if (failures != failures_before)
    return;
  size_t len = out.size () - start;
  raw_text *text = (raw_text *) kcfi_permanent (sizeof *text + len);
  text->len = len;
  memcpy (text->str, out.data () + start, len);
  texts.put (TYPE_UID (t), text);
}

/* Append the type specifier of a type that is not derived, without
   qualifiers.  */
void
type_printer::specifier (tree t, kcfi_buffer &out)
{
  unsigned HOST_WIDE_INT lanes;
  switch (TREE_CODE (t))
    {
    case VOID_TYPE:
      out += "void";
      return;
    case BOOLEAN_TYPE:
      out += "_Bool";
      return;
    case INTEGER_TYPE:
    case REAL_TYPE:
      if (!arithmetic_name (core_type (t), out))
	out += fail (t);
      return;
    case FIXED_POINT_TYPE:
      {
	const char *n = fixed_point_name (core_type (t));
	out += *n ? n : fail (t);
	return;
      }
    case NULLPTR_TYPE:		/* C23 (GCC 13+) */
      out += "nullptr_t";
      return;
#if KCFI_HAVE_BITINT_TYPE
    case BITINT_TYPE:
      if (TYPE_UNSIGNED (t))
	out += "unsigned ";
      out += "_BitInt(";
      out.put_uint (TYPE_PRECISION (t));
      out += ')';
      return;
#endif
    case COMPLEX_TYPE:
      out += "_Complex ";
      specifier (TREE_TYPE (t), out);
      return;
    case VECTOR_TYPE:
      if (!TYPE_VECTOR_SUBPARTS (t).is_constant (&lanes))
	{
	  out += fail (t);
	  return;
	}
      out += "__vector(";
      out.put_uint (lanes);
      out += ") ";
      specifier (TREE_TYPE (t), out);
      return;
    case RECORD_TYPE:
    case UNION_TYPE:
    case ENUMERAL_TYPE:
      tag (t, out);
      return;
    default:
      out += fail (t);
      return;
    }
}

/* Append FNTYPE's parameter list.  */
void
type_printer::params (tree fntype, kcfi_buffer &out)
{
  tree args = TYPE_ARG_TYPES (fntype);
  if (!args)
    {
      out += "()";		/* unprototyped */
      return;
    }
  if (args == void_list_node)
    {
      out += "(void)";
      return;
    }
  out += '(';
  for (tree first = args; args && args != void_list_node;
       args = TREE_CHAIN (args))
    {
      if (args != first)
	out += ", ";
      tree param = TREE_VALUE (args);
      if (fntype == whole)
	param = clang_passed_as (param);
      remembered (param_texts, param, out,
		  [&] { print (param, out, true); });
    }
  out += args ? ")" : ", ...)";
}

/* Append the bounds of ARRAY.  */
static void
bounds (tree array, kcfi_buffer &out)
{
  tree dom = TYPE_DOMAIN (array);
  tree max = dom ? TYPE_MAX_VALUE (dom) : NULL_TREE;
  if (!max)
    {
      /* GCC writes [0], [*] and [] as an open range; [0] and [*] have a
	 zero size, and the C front end marks [*] as variably sized
	 (C_TYPE_VARIABLE_SIZE).  */
      out += !TYPE_SIZE (array) || !integer_zerop (TYPE_SIZE (array)) ? "[]"
	     : TYPE_LANG_FLAG_1 (array) ? "[*]" : "[0]";
      return;
    }
  if (TREE_CODE (max) != INTEGER_CST)
    {
      out += "[*]";
      return;
    }
  char buf[WIDE_INT_PRINT_BUFFER_SIZE];
  print_dec (wi::to_widest (max) + 1, buf, UNSIGNED);
  out += '[';
  out += buf;
  out += ']';
}

/* Append T's type name to OUT.  C writes a declarator inside out: each
   derived type puts a part in front of the declarator of what it is derived
   from and a part behind it ("(*" and ")" for a pointer to a function, the
   bounds behind an array, the parameters behind a function), around the
   parts of the types derived from it: in `int (*(*)[3])(char)`, "int "
   and "(char)" enclose "(*" and ")", which enclose "(*)[3]".  Prefixes
   are therefore appended from the base type out, suffixes from the
   outermost type in: one string, no temporaries.  STRIP_QUALS drops T's own qualifiers, which
   are not part of a parameter's or a return value's type.  */
void
type_printer::print (tree t, kcfi_buffer &out, bool strip_quals)
{
  prefix (t, out, strip_quals, true);
  suffix (t, out);
}

static const struct
{
  int flag;
  const char *name;
} quals[] = {
  { TYPE_QUAL_CONST, "const" }, { TYPE_QUAL_VOLATILE, "volatile" },
  { TYPE_QUAL_RESTRICT, "restrict" }, { TYPE_QUAL_ATOMIC, "_Atomic" },
};

/* BARE: nothing is derived from T, its declarator is empty.  */
void
type_printer::prefix (tree t, kcfi_buffer &out, bool strip_quals, bool bare)
{
  const char *as = address_space_name (t);
  if (!as)
    {
      out += fail (t);
      return;
    }
  /* At most "const volatile restrict _Atomic __seg_gs".  */
  char q[56];
  size_t qlen = 0;
  if (!strip_quals)
    {
      for (const auto &qual : quals)
	if (TYPE_QUALS (t) & qual.flag)
	  {
	    if (qlen)
	      q[qlen++] = ' ';
	    size_t n = strlen (qual.name);
	    memcpy (q + qlen, qual.name, n);
	    qlen += n;
	  }
      if (*as)
	{
	  if (qlen)
	    q[qlen++] = ' ';
	  memcpy (q + qlen, as, strlen (as));
	  qlen += strlen (as);
	}
    }

  switch (TREE_CODE (t))
    {
    case POINTER_TYPE:
      {
	tree to = TREE_TYPE (t);
	prefix (to, out, false, false);
	if (TREE_CODE (to) == ARRAY_TYPE || TREE_CODE (to) == FUNCTION_TYPE)
	  out += '(';
	out += '*';
	out.append (q, qlen);
	if (qlen && !bare)
	  out += ' ';
	return;
      }
    case ARRAY_TYPE:
      /* An array's qualifiers are its elements'.  */
      prefix (TREE_TYPE (t), out, false, false);
      return;
    case FUNCTION_TYPE:
      /* The return type's qualifiers are part of the function type for
	 Clang.  GCC's front end removes all but _Atomic (C11 DR 423), so
	 whatever is left is printed.  */
      {
	tree ret = t == whole ? clang_passed_as (TREE_TYPE (t)) : TREE_TYPE (t);
	/* Clang returns the array a transparent union begins with: C has
	   no such function type.  */
	if (TREE_CODE (ret) == ARRAY_TYPE)
	  {
	    out += fail (TREE_TYPE (t));
	    return;
	  }
	remembered (return_prefixes, ret, out,
		    [&] { prefix (ret, out, false, false); });
	return;
      }
    case METHOD_TYPE:
    case REFERENCE_TYPE:
    case OFFSET_TYPE:
      out += fail (t);
      return;
    default:
      if (qlen)
	{
	  out.append (q, qlen);
	  out += ' ';
	}
      specifier (t, out);
      if (!bare)
	out += ' ';
      return;
    }
}

/* Append ` __attribute__((cfi_salt("SALT")))`: '"' and '\\' escaped, every
   byte that is not printable ASCII as \ooo, so that any salt stays on the
   directive's line.  */
static void
salt_attribute (const char *salt, kcfi_buffer &out)
{
  out += " __attribute__((cfi_salt(\"";
  for (const unsigned char *p = (const unsigned char *) salt; *p; p++)
    if (*p == '"' || *p == '\\')
      {
	out += '\\';
	out += (char) *p;
      }
    else if (*p >= ' ' && *p < 0x7f)
      out += (char) *p;
    else
      {
	char esc[5] = { '\\', (char) ('0' + (*p >> 6)),
			(char) ('0' + ((*p >> 3) & 7)), (char) ('0' + (*p & 7)),
			0 };
	out += esc;
      }
  out += "\")))";
}

void
type_printer::suffix (tree t, kcfi_buffer &out)
{
  if (!address_space_name (t))
    return;
  switch (TREE_CODE (t))
    {
    case POINTER_TYPE:
      if (TREE_CODE (TREE_TYPE (t)) == ARRAY_TYPE
	  || TREE_CODE (TREE_TYPE (t)) == FUNCTION_TYPE)
	out += ')';
      suffix (TREE_TYPE (t), out);
      return;
    case ARRAY_TYPE:
      bounds (t, out);
      suffix (TREE_TYPE (t), out);
      return;
    case FUNCTION_TYPE:
      params (t, out);
      /* The calling conventions Clang encodes in function types (GCC
	 keeps stdcall and fastcall on i386 types only).  */
      if (lookup_attribute ("ms_abi", TYPE_ATTRIBUTES (t)))
	out += " __attribute__((ms_abi))";
      else if (lookup_attribute ("stdcall", TYPE_ATTRIBUTES (t)))
	out += " __attribute__((stdcall))";
      else if (lookup_attribute ("fastcall", TYPE_ATTRIBUTES (t)))
	out += " __attribute__((fastcall))";
      /* A salt is part of every function type it is on (Clang substitutes
	 none for an unsalted one), though only the outermost one's is
	 hashed.  */
      if (const char *salt = kcfi_cfi_salt (t))
	salt_attribute (salt, out);
      {
	tree ret = t == whole ? clang_passed_as (TREE_TYPE (t)) : TREE_TYPE (t);
	if (TREE_CODE (ret) != ARRAY_TYPE)
	  remembered (return_suffixes, ret, out, [&] { suffix (ret, out); });
	return;
      }
    default:
      return;
    }
}

} // namespace

/* Number the truly anonymous tags in T, the WHOLE type or a part of it,
   that have no number yet, in the order Clang's mangler meets them: it
   numbers a tag when it first mangles it, and an Itanium name puts a
   function's return type before its parameters, where C's declarator
   puts it around them.  In `struct A (*(struct B))(struct C)` the text
   has A, B, C; the mangled name F PF A C E B E.  */
static void
number_in_mangling_order (tree t, tree whole)
{
  switch (TREE_CODE (t))
    {
    case POINTER_TYPE:
    case ARRAY_TYPE:
    case COMPLEX_TYPE:
    case VECTOR_TYPE:
      number_in_mangling_order (TREE_TYPE (t), whole);
      return;
    case FUNCTION_TYPE:
      {
	auto part = [&] (tree p) {
	  if (t != whole)
	    return number_in_mangling_order (p, whole);
	  p = clang_passed_as (p);
	  if (!kcfi_generalize_pointers || TREE_CODE (p) != POINTER_TYPE)
	    number_in_mangling_order (p, whole);
	};
	part (TREE_TYPE (t));
	for (tree a = TYPE_ARG_TYPES (t); a && a != void_list_node;
	     a = TREE_CHAIN (a))
	  part (TREE_VALUE (a));
	return;
      }
    case RECORD_TYPE:
    case UNION_TYPE:
    case ENUMERAL_TYPE:
      if (!tag_name (t))
	{
	  unsigned uid = TYPE_UID (TYPE_MAIN_VARIANT (t));
	  if (!anon_numbers.get (uid))
	    anon_numbers.put (uid, ++anon_count);
	}
      return;
    default:
      return;
    }
}

/* Replace each ANON_MARK uid ANON_MARK of RAW by "$_N" in DONE, the
   numbers number_in_mangling_order gave.  */
static void
number_anonymous (const kcfi_buffer &raw, kcfi_buffer &done)
{
  done.clear ();
  const char *p = raw.data (), *end = p + raw.size ();
  for (const char *mark; (mark = (const char *) memchr (p, ANON_MARK,
							 end - p));)
    {
      done.append (p, mark - p);
      unsigned uid = strtoul (mark + 1, (char **) &p, 10);
      p++;			/* the closing ANON_MARK */
      unsigned n = anon_numbers.get (uid);
      /* Behind a generalized pointer the tag is mangled away: a name of
	 its own, which takes no number from the tags Clang numbers.  */
      if (!n && kcfi_generalize_pointers)
	{
	  done += "$_g";
	  done.put_uint (uid);
	  continue;
	}
      if (!n)
	anon_numbers.put (uid, n = ++anon_count);
      done += "$_";
      done.put_uint (n - 1);
    }
  done.append (p, end - p);
}

/* The finished texts of whole types, by TYPE_UID: a TU declares many
   functions of one type (GCC shares equal function types).  A text with
   a "?" is not kept: each use reports its error.  */
static kcfi_uid_map<kcfi_text *> type_texts;

kcfi_text *
kcfi_type_text (tree type, location_t loc)
{
  if (kcfi_text *known = type_texts.get (TYPE_UID (type)))
    return known;
  static kcfi_buffer raw, done;
  raw.clear ();
  type_printer printer (type, loc);
  printer.print (type, raw, false);
  kcfi_text *text;
  if (!memchr (raw.data (), ANON_MARK, raw.size ()))
    text = kcfi_text_intern (raw.data (), raw.size ());
  else
    {
      number_in_mangling_order (type, type);
      number_anonymous (raw, done);
      text = kcfi_text_intern (done.data (), done.size ());
    }
  if (!printer.failed ())
    type_texts.put (TYPE_UID (type), text);
  return text;
}

/* The text of TYPE for a .kcfi_conversion, or NULL if it has none: a
   conversion to a type the language cannot spell is not reported, and
   not an error (a call through it would be).  */
kcfi_text *
kcfi_conversion_type_text (tree type)
{
  quiet_failures = true;
  kcfi_text *text = kcfi_type_text (type, UNKNOWN_LOCATION);
  quiet_failures = false;
  return memchr (text->str, '?', text->len) ? NULL : text;
}

const char *
kcfi_type_name (tree type, location_t loc)
{
  return kcfi_type_text (type, loc)->str;
}

/* The type a function definition has for Clang.  A K&R definition
   (`int g (a) char a; {...}`) gets the prototype of its promoted parameter
   types, `int (int)`; `int f () {...}` stays unprototyped.  */
static tree
definition_type (tree fndecl)
{
  tree fntype = TREE_TYPE (fndecl);
  if (prototype_p (fntype) || !DECL_ARGUMENTS (fndecl))
    return fntype;
  auto_vec<tree> promoted;
  for (tree p = DECL_ARGUMENTS (fndecl); p; p = DECL_CHAIN (p))
    promoted.safe_push (DECL_ARG_TYPE (p));
  tree args = void_list_node;
  for (unsigned i = promoted.length (); i-- > 0;)
    args = tree_cons (NULL_TREE, promoted[i], args);
  tree proto = build_function_type (TREE_TYPE (fntype), args);
  return build_type_attribute_variant (proto, TYPE_ATTRIBUTES (fntype));
}

/* The types recorded for functions, by the uid of their cgraph node:
   dense and never reused, and both walks over all functions (IPA start,
   end of unit) go through it in order.  A decl without a node is not
   remembered.  */
static kcfi_text **node_types;
static size_t node_types_size;

static kcfi_text *
recorded_type (tree fndecl)
{
  cgraph_node *node = cgraph_node::get (fndecl);
  size_t uid = node ? node->get_uid () : node_types_size;
  return uid < node_types_size ? node_types[uid] : NULL;
}

static void
remember_type (tree fndecl, kcfi_text *text)
{
  cgraph_node *node = cgraph_node::get (fndecl);
  if (!node)
    return;
  size_t uid = node->get_uid ();
  if (uid >= node_types_size)
    {
      size_t size = MAX (2 * node_types_size,
			 MAX ((size_t) symtab->cgraph_max_uid, uid + 1));
      node_types = XRESIZEVEC (kcfi_text *, node_types, size);
      memset (node_types + node_types_size, 0,
	      (size - node_types_size) * sizeof *node_types);
      node_types_size = size;
    }
  node_types[uid] = text;
}

/* Ask for the memory that recording FNDECL's type reads, one step of a
   chain of loads at a time: STEP 0 the decl, 1 its type, 2 the first
   parameter (and the memo's slot), 3 and on the next parameters.  A walk
   over many functions asks for step S of a function some iterations
   before it needs the step S + 1: each load then finds its address
   arrived, and the cache misses of many functions overlap instead of
   queueing one after another (GCC made these trees long before, while
   parsing; they are cold).  */
void
kcfi_prefetch_function_type (tree fndecl, unsigned step)
{
  if (step == 0)
    {
      __builtin_prefetch (&TREE_TYPE (fndecl));
      __builtin_prefetch (&DECL_ATTRIBUTES (fndecl));
      __builtin_prefetch (&fndecl->decl_with_vis.symtab_node);
      return;
    }
  tree fntype = TREE_TYPE (fndecl);
  if (step == 1)
    {
      __builtin_prefetch (&TREE_TYPE (fntype));
      __builtin_prefetch (&TYPE_ATTRIBUTES (fntype));
      __builtin_prefetch (&TYPE_ARG_TYPES (fntype));
      return;
    }
  if (step == 2)
    type_texts.prefetch (TYPE_UID (fntype));
  tree arg = TYPE_ARG_TYPES (fntype);
  for (; arg && step > 2; step--)
    arg = TREE_CHAIN (arg);
  if (arg)
    __builtin_prefetch (arg);
}

/* Before a walk that records the types of up to N functions: room for
   them all at once.  */
void
kcfi_expect_function_types (size_t n)
{
  type_texts.reserve (n);
  kcfi_texts_reserve (n);
}

/* Print FNDECL's type.  Into its KCFI_ATTR_FN as well where something
   else needs it there: LTO streams it along, and IPA-ICF, comparing the
   attributes of definitions, keeps bodies of different types apart.
   Declarations without a body do without it when not streamed: the
   attribute made GCC's own attribute lookups on them measurably slower.  */
kcfi_text *
kcfi_record_function_type (tree fndecl)
{
  kcfi_text *text = kcfi_type_text (definition_type (fndecl),
				    DECL_SOURCE_LOCATION (fndecl));
  remember_type (fndecl, text);
  cgraph_node *node = cgraph_node::get (fndecl);
  if (!kcfi_types_intact_p () || (node && node->definition))
    DECL_ATTRIBUTES (fndecl) = kcfi_attr_with (DECL_ATTRIBUTES (fndecl),
					       KCFI_ATTR_FN, text->str);
  return text;
}

bool
kcfi_function_type_recorded_p (tree fndecl)
{
  return recorded_type (fndecl)
	 || kcfi_attr_text (DECL_ATTRIBUTES (fndecl), KCFI_ATTR_FN);
}

/* FNDECL's recorded type; or, while the front end's types are intact,
   recorded now (for a function the IPA-start walk did not need); else
   NULL: after free_lang_data typedef names and char's identity are gone.  */
kcfi_text *
kcfi_function_type (tree fndecl)
{
  if (kcfi_text *known = recorded_type (fndecl))
    return known;
  if (const char *text = kcfi_attr_text (DECL_ATTRIBUTES (fndecl),
					 KCFI_ATTR_FN))
    {
      kcfi_text *interned = kcfi_text_intern (text, strlen (text));
      remember_type (fndecl, interned);
      return interned;
    }
  return kcfi_types_intact_p () ? kcfi_record_function_type (fndecl) : NULL;
}
