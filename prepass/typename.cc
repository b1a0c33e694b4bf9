/* Print a function type as a C type name (doc/directives.md §4).
 *
 * Declarators are built inside out: each derived type wraps the text made
 * so far ("*", "[10]", "(int)") and the base type's specifiers go in front
 * last, which gives C's nesting for free: int (*(*)(int))(char).
 *
 * Typedefs are resolved, except that a typedef naming an anonymous tag
 * supplies the tag (the seeds' rule, also Clang's).  Arithmetic types are
 * identified by their main variant against GCC's global type nodes, so
 * char, signed char and unsigned char never collapse.  A type the protocol
 * cannot express is an error, never a guess: a guessed type id matches
 * nothing, or worse, the wrong thing.
 */
#include "kcfi-plugin.h"
#include "bversion.h"

#include <unordered_map>
#include <vector>

/* Truly anonymous tags are numbered per TU in the order first printed.
   Keyed by TYPE_UID, which is never reused, not by the (collectable) tree.
   The printer leaves ANON_MARK uid ANON_MARK where the number goes.  */
static std::unordered_map<unsigned, unsigned> anon_numbers;
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

/* The spelling of an integer or floating type, "" if it has none.  */
static std::string
arithmetic_name (tree m)
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
      return ints[k - itk_char];
  for (int i = 0; i < NUM_INT_N_ENTS; i++)
    if (int_n_enabled_p[i] && int_n_data[i].bitsize == 128
	&& (m == int_n_trees[i].signed_type
	    || m == int_n_trees[i].unsigned_type))
      return TYPE_UNSIGNED (m) ? "unsigned __int128" : "__int128";
  const std::pair<tree, const char *> reals[] = {
    { float_type_node, "float" }, { double_type_node, "double" },
    { long_double_type_node, "long double" },
    { dfloat32_type_node, "_Decimal32" }, { dfloat64_type_node, "_Decimal64" },
    { dfloat128_type_node, "_Decimal128" },
  };
  for (const auto &r : reals)
    if (m == r.first)
      return r.second;
  for (int i = 0; i < NUM_FLOATN_NX_TYPES; i++)
    if (FLOATN_NX_TYPE_NODE (i) && m == FLOATN_NX_TYPE_NODE (i))
      return "_Float" + std::to_string (floatn_nx_types[i].n)
	     + (floatn_nx_types[i].extended ? "x" : "");
  /* Target types GCC 12 has no global node for.  */
  tree n = TYPE_NAME (m);
  if (n && TREE_CODE (n) == TYPE_DECL && DECL_NAME (n))
    for (const char *b : { "__bf16", "__float128" })
      if (id_equal (DECL_NAME (n), b))
	return b;
  return "";
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
  const std::pair<tree, const char *> fixed[] = {
    KCFI_FIXED_KIND (fract, "_Fract"), KCFI_FIXED_KIND (accum, "_Accum"),
  };
  for (const auto &f : fixed)
    if (f.first && m == f.first)
      return f.second;
  return "";
}

/* "struct foo"; the innermost typedef of an anonymous tag; or "$_N".  */
static std::string
tag (tree t)
{
  std::string kw = TREE_CODE (t) == RECORD_TYPE ? "struct "
		   : TREE_CODE (t) == UNION_TYPE ? "union " : "enum ";
  tree name = TYPE_NAME (TYPE_MAIN_VARIANT (t));
  if (name && TREE_CODE (name) == TYPE_DECL && !DECL_ORIGINAL_TYPE (name))
    name = DECL_NAME (name);	/* a tag the back end made (__va_list_tag) */
  if (name && TREE_CODE (name) == IDENTIFIER_NODE)
    return kw + IDENTIFIER_POINTER (name);

  /* The main variant of an anonymous tag has no name; the variant we were
     handed may be a typedef (of a typedef...) of it.  */
  tree best = NULL_TREE;
  for (tree n; (n = TYPE_NAME (t)) && TREE_CODE (n) == TYPE_DECL
	       && DECL_ORIGINAL_TYPE (n); t = DECL_ORIGINAL_TYPE (n))
    best = DECL_NAME (n);
  if (best)
    return kw + IDENTIFIER_POINTER (best);
  /* Declarators are built inside out: number later, left to right.  */
  return kw + ANON_MARK + std::to_string (TYPE_UID (TYPE_MAIN_VARIANT (t)))
	 + ANON_MARK;
}

namespace {

class type_printer
{
public:
  type_printer (tree whole, location_t loc) : whole (whole), loc (loc) {}
  std::string print (tree t, const std::string &inner, bool strip_quals);

private:
  tree whole;
  location_t loc;
  bool failed = false;

  std::string fail (tree t);
  std::string specifier (tree t);
  std::string params (tree fntype);
  static std::string convention (tree fntype);
};

/* The calling conventions Clang encodes in function types.  */
std::string
type_printer::convention (tree fntype)
{
  return lookup_attribute ("ms_abi", TYPE_ATTRIBUTES (fntype))
	 ? " __attribute__((ms_abi))" : "";
}

std::string
type_printer::fail (tree t)
{
  if (!failed)
    error_at (loc, "kcfi: the function type %qT cannot be written in the "
	      "prototype language: no spelling for %qT%s", whole, t,
	      TYPE_ADDR_SPACE (t) ? " in a named address space" : "");
  failed = true;
  return "?";
}

/* The type specifier of a type that is not derived, without qualifiers.  */
std::string
type_printer::specifier (tree t)
{
  unsigned HOST_WIDE_INT lanes;
  switch (TREE_CODE (t))
    {
    case VOID_TYPE:
      return "void";
    case BOOLEAN_TYPE:
      return "_Bool";
    case INTEGER_TYPE:
    case REAL_TYPE:
      {
	std::string n = arithmetic_name (core_type (t));
	return n.empty () ? fail (t) : n;
      }
    case FIXED_POINT_TYPE:
      {
	std::string n = fixed_point_name (core_type (t));
	return n.empty () ? fail (t) : n;
      }
    case NULLPTR_TYPE:		/* C23 (GCC 13+) */
      return "nullptr_t";
#if BUILDING_GCC_MAJOR >= 14
    case BITINT_TYPE:
      return std::string (TYPE_UNSIGNED (t) ? "unsigned " : "") + "_BitInt("
	     + std::to_string (TYPE_PRECISION (t)) + ")";
#endif
    case COMPLEX_TYPE:
      return "_Complex " + specifier (TREE_TYPE (t));
    case VECTOR_TYPE:
      if (!TYPE_VECTOR_SUBPARTS (t).is_constant (&lanes))
	return fail (t);
      return "__vector(" + std::to_string (lanes) + ") "
	     + specifier (TREE_TYPE (t));
    case RECORD_TYPE:
    case UNION_TYPE:
    case ENUMERAL_TYPE:
      return tag (t);
    default:
      return fail (t);
    }
}

std::string
type_printer::params (tree fntype)
{
  tree args = TYPE_ARG_TYPES (fntype);
  if (!args)
    return "()";		/* unprototyped */
  if (args == void_list_node)
    return "(void)";
  std::string s;
  for (; args && args != void_list_node; args = TREE_CHAIN (args))
    s += (s.empty () ? "" : ", ") + print (TREE_VALUE (args), "", true);
  return "(" + s + (args ? ")" : ", ...)");
}

static std::string
bounds (tree array)
{
  tree dom = TYPE_DOMAIN (array);
  tree max = dom ? TYPE_MAX_VALUE (dom) : NULL_TREE;
  if (!max)
    /* GCC writes [0], [*] and [] as an open range; [0] and [*] have a
       zero size, and the C front end marks [*] as variably sized
       (C_TYPE_VARIABLE_SIZE).  */
    return !TYPE_SIZE (array) || !integer_zerop (TYPE_SIZE (array)) ? "[]"
	   : TYPE_LANG_FLAG_1 (array) ? "[*]" : "[0]";
  if (TREE_CODE (max) != INTEGER_CST)
    return "[*]";
  char buf[WIDE_INT_PRINT_BUFFER_SIZE];
  print_dec (wi::to_widest (max) + 1, buf, UNSIGNED);
  return "[" + std::string (buf) + "]";
}

/* T with declarator text INNER.  STRIP_QUALS drops T's own qualifiers,
   which are not part of a parameter's or a return value's type.  */
std::string
type_printer::print (tree t, const std::string &inner, bool strip_quals)
{
  if (TYPE_ADDR_SPACE (t) != ADDR_SPACE_GENERIC)
    return fail (t);
  std::string q;
  if (!strip_quals)
    for (auto qual : { std::make_pair (TYPE_QUAL_CONST, "const"),
		       std::make_pair (TYPE_QUAL_VOLATILE, "volatile"),
		       std::make_pair (TYPE_QUAL_RESTRICT, "restrict"),
		       std::make_pair (TYPE_QUAL_ATOMIC, "_Atomic") })
      if (TYPE_QUALS (t) & qual.first)
	q += (q.empty () ? "" : " ") + std::string (qual.second);

  switch (TREE_CODE (t))
    {
    case POINTER_TYPE:
      {
	std::string d = "*" + q + (q.empty () || inner.empty () ? "" : " ")
			+ inner;
	tree to = TREE_TYPE (t);
	if (TREE_CODE (to) == ARRAY_TYPE || TREE_CODE (to) == FUNCTION_TYPE)
	  d = "(" + d + ")";
	return print (to, d, false);
      }
    case ARRAY_TYPE:
      /* An array's qualifiers are its elements'.  */
      return print (TREE_TYPE (t), inner + bounds (t), false);
    case FUNCTION_TYPE:
      /* The return type's qualifiers are part of the function type for
	 Clang.  GCC's front end removes all but _Atomic (C11 DR 423), so
	 whatever is left is printed.  */
      return print (TREE_TYPE (t), inner + params (t) + convention (t), false);
    case METHOD_TYPE:
    case REFERENCE_TYPE:
    case OFFSET_TYPE:
      return fail (t);
    default:
      {
	std::string s = (q.empty () ? "" : q + " ") + specifier (t);
	return inner.empty () ? s : s + " " + inner;
      }
    }
}

} // namespace

std::string
kcfi_type_name (tree fntype, location_t loc)
{
  std::string s = type_printer (fntype, loc).print (fntype, "", false);
  for (size_t at; (at = s.find (ANON_MARK)) != std::string::npos;)
    {
      size_t end = s.find (ANON_MARK, at + 1);
      unsigned uid = std::stoul (s.substr (at + 1, end - at - 1));
      auto n = anon_numbers.emplace (uid, anon_numbers.size ()).first;
      s.replace (at, end - at + 1, "$_" + std::to_string (n->second));
    }
  return s;
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
  std::vector<tree> promoted;
  for (tree p = DECL_ARGUMENTS (fndecl); p; p = DECL_CHAIN (p))
    promoted.push_back (DECL_ARG_TYPE (p));
  tree args = void_list_node;
  for (size_t i = promoted.size (); i-- > 0;)
    args = tree_cons (NULL_TREE, promoted[i], args);
  tree proto = build_function_type (TREE_TYPE (fntype), args);
  return build_type_attribute_variant (proto, TYPE_ATTRIBUTES (fntype));
}

/* Print FNDECL's type into its KCFI_ATTR_FN, which LTO streams along.  */
const char *
kcfi_record_function_type (tree fndecl)
{
  std::string s = kcfi_type_name (definition_type (fndecl),
				  DECL_SOURCE_LOCATION (fndecl));
  DECL_ATTRIBUTES (fndecl) = kcfi_attr_with (DECL_ATTRIBUTES (fndecl),
					     KCFI_ATTR_FN, s.c_str ());
  return kcfi_attr_text (DECL_ATTRIBUTES (fndecl), KCFI_ATTR_FN);
}

/* FNDECL's recorded type; or, while the front end's types are intact,
   recorded now (for a function the IPA-start walk did not need); else
   NULL: after free_lang_data typedef names and char's identity are gone.  */
const char *
kcfi_function_type_text (tree fndecl)
{
  if (const char *text = kcfi_attr_text (DECL_ATTRIBUTES (fndecl),
					 KCFI_ATTR_FN))
    return text;
  return kcfi_types_intact_p () ? kcfi_record_function_type (fndecl) : NULL;
}
