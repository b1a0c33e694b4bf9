/* SPDX-License-Identifier: GPL-2.0-or-later */
/* .kcfi_* directive parser.  Strict on purpose: anything the protocol does
 * not define is an error, never a guess.
 *
 * One directive per type and per address-taken function makes this a
 * per-line path: the scanning loops work on a local copy of the cursor,
 * which the compiler may keep in a register (a store through a char pointer
 * could alias c->p, so a loop on c->p itself reloads it for every byte). */
#include "config.h"

#include <string.h>

#include "asmpass/directive.h"
#include "common/kcfi-targets.h"

#define STR_(x) #x
#define STR(x) STR_(x)

struct cursor {
	const char *base, *p, *end;
	const char *msg;
	size_t col;
};

/* What each byte may be part of: a table lookup a byte, not a chain of
 * comparisons. */
enum {
	CC_BLANK = 1,		/* white space between operands */
	CC_DIGIT = 2,
	CC_SYM = 4,		/* bare symbol names: [A-Za-z0-9_.$] */
	CC_WORD = 8,		/* directive names and keys: [a-z_] */
};
static const unsigned char char_class[256] = {
	[' '] = CC_BLANK, ['\t'] = CC_BLANK, ['\r'] = CC_BLANK,
	['0' ... '9'] = CC_DIGIT | CC_SYM,
	['A' ... 'Z'] = CC_SYM,
	['a' ... 'z'] = CC_SYM | CC_WORD,
	['_'] = CC_SYM | CC_WORD,
	['.'] = CC_SYM,
	['$'] = CC_SYM,
};

static inline bool is(char ch, unsigned cls)
{
	return char_class[(unsigned char)ch] & cls;
}

static inline void skip_blanks(struct cursor *c)
{
	const char *p = c->p;
	while (p < c->end && is(*p, CC_BLANK))
		p++;
	c->p = p;
}

static inline int fail(struct cursor *c, const char *msg)
{
	c->msg = msg;
	c->col = (size_t)(c->p - c->base) + 1;
	return -1;
}

static inline bool at_end(struct cursor *c)
{
	skip_blanks(c);
	return c->p >= c->end || *c->p == '\n' || *c->p == '#';
}

static inline int expect_comma(struct cursor *c)
{
	skip_blanks(c);
	if (c->p >= c->end || *c->p != ',')
		return fail(c, "expected ','");
	c->p++;
	return 0;
}

static inline int parse_uint(struct cursor *c, unsigned max, unsigned *out)
{
	skip_blanks(c);
	unsigned long v = 0;
	const char *s = c->p, *p = s;
	for (; p < c->end && is(*p, CC_DIGIT); p++) {
		v = v * 10 + (unsigned)(*p - '0');
		if (v > max) {
			c->p = p;
			return fail(c, "number out of range");
		}
	}
	c->p = p;
	if (p == s)
		return fail(c, "expected a decimal number");
	*out = (unsigned)v;
	return 0;
}

/* A quoted string: *OUT is its text, escapes kept; *ESCAPED (if not NULL)
 * tells whether it has any. */
static inline int parse_string(struct cursor *c, struct slice *out, size_t *col, bool *escaped)
{
	skip_blanks(c);
	if (c->p >= c->end || *c->p != '"')
		return fail(c, "expected a quoted string");
	const char *s = ++c->p, *p = s, *end = c->end;
	bool esc = false;
	/* Type texts are long and have no escapes: find the quote with memchr
	 * and scan byte by byte only when there is something to step over.
	 * strcspn stops at a NUL as well as at its set, and at the quote at the
	 * latest (it is in the set): one pass over the text checks all four. */
	const char *q = memchr(s, '"', (size_t)(end - s));
	if (q && strcspn(s, "\"\\\n") == (size_t)(q - s))
		p = q;
	for (; p < end && *p != '"' && *p != '\n'; p++) {
		if (*p == '\\' && p + 1 < end) {
			p++;
			esc = true;
		}
		if (*p == '\0') {	/* C strings downstream would end here */
			c->p = p;
			return fail(c, "NUL byte in a string");
		}
	}
	c->p = p;
	if (p >= end || *p != '"')
		return fail(c, "unterminated string");
	*out = (struct slice){ s, (size_t)(p - s) };
	if (col)
		*col = (size_t)(s - c->base) + 1;
	if (escaped)
		*escaped = esc;
	c->p++;
	return 0;
}

static inline int parse_name(struct cursor *c, struct slice *out)
{
	skip_blanks(c);
	if (c->p < c->end && *c->p == '"') {
		const char *s = c->p;
		struct slice inner;
		if (parse_string(c, &inner, NULL, NULL))
			return -1;
		if (inner.n == 0)
			return fail(c, "empty symbol name");
		*out = (struct slice){ s, (size_t)(c->p - s) };
		return 0;
	}
	const char *s = c->p, *p = s;
	while (p < c->end && is(*p, CC_SYM))
		p++;
	c->p = p;
	if (p == s)
		return fail(c, "expected a symbol name");
	*out = (struct slice){ s, (size_t)(c->p - s) };
	return 0;
}

static int parse_word(struct cursor *c, struct slice *out)
{
	const char *s = c->p;
	while (c->p < c->end && is(*c->p, CC_WORD))
		c->p++;
	*out = (struct slice){ s, (size_t)(c->p - s) };
	return out->n ? 0 : fail(c, "expected a key");
}

static int parse_version(struct cursor *c, struct kcfi_directive *d)
{
	if (parse_uint(c, 1000000, &d->version))
		return -1;
	if (d->version != KCFI_PROTOCOL_VERSION)
		return fail(c, "unsupported .kcfi_version (this kcfi-as implements version "
			    STR(KCFI_PROTOCOL_VERSION) ")");
	if (expect_comma(c) || parse_string(c, &d->triple, NULL, NULL))
		return -1;
	enum { K_PTR = 1, K_LONG = 2, K_CHAR = 4, K_PREFIX = 8 };
	unsigned seen = 0;
	while (!at_end(c)) {
		struct slice key;
		if (expect_comma(c))
			return -1;
		skip_blanks(c);
		if (parse_word(c, &key))
			return -1;
		skip_blanks(c);
		if (c->p >= c->end || *c->p != '=')
			return fail(c, "expected '=' after key");
		c->p++;
		skip_blanks(c);
		unsigned bit;
		if (slice_eq(key, "ptr") || slice_eq(key, "long")) {
			unsigned v;
			if (parse_uint(c, 64, &v))
				return -1;
			if (v != 32 && v != 64)
				return fail(c, "width must be 32 or 64");
			bit = slice_eq(key, "ptr") ? K_PTR : K_LONG;
			*(bit == K_PTR ? &d->ptr_bits : &d->long_bits) = v;
		} else if (slice_eq(key, "char")) {
			struct slice v;
			if (parse_word(c, &v))
				return -1;
			if (slice_eq(v, "signed"))
				d->char_signed = true;
			else if (slice_eq(v, "unsigned"))
				d->char_signed = false;
			else
				return fail(c, "char must be 'signed' or 'unsigned'");
			bit = K_CHAR;
		} else if (slice_eq(key, "prefix")) {
			if (parse_uint(c, 255, &d->prefix))
				return -1;
			bit = K_PREFIX;
		} else {
			c->p -= key.n;
			return fail(c, "unknown .kcfi_version key");
		}
		if (seen & bit)
			return fail(c, "duplicate .kcfi_version key");
		seen |= bit;
	}
	if (seen != (K_PTR | K_LONG | K_CHAR | K_PREFIX))
		return fail(c, ".kcfi_version needs ptr=, long=, char= and prefix=");
	return 0;
}

/* An optional ", KEY" operand: 1 with KEY read, 0 if no comma follows,
 * -1 on error. */
static int next_key(struct cursor *c, struct slice *key)
{
	skip_blanks(c);
	if (c->p >= c->end || *c->p != ',')
		return 0;
	c->p++;
	skip_blanks(c);
	return parse_word(c, key) ? -1 : 1;
}

/* At ", ID" (not ", stub") after .kcfi_func's name?  Looks ahead only. */
static bool func_has_id(const struct cursor *c)
{
	struct cursor ahead = *c;
	skip_blanks(&ahead);
	if (ahead.p >= ahead.end || *ahead.p != ',')
		return true;	/* expect_comma() reports it */
	ahead.p++;
	skip_blanks(&ahead);
	return ahead.p >= ahead.end || (*ahead.p >= '0' && *ahead.p <= '9');
}

/* The optional last operand of .kcfi_extern: ", stub"
 * (doc/extern-stubs.md). */
static int parse_extern_keys(struct cursor *c, struct kcfi_directive *d)
{
	struct slice key;
	int rc = next_key(c, &key);
	if (rc <= 0)
		return rc;
	if (!slice_eq(key, "stub")) {
		c->p -= key.n;
		return fail(c, "unknown .kcfi_extern key");
	}
	d->stub = true;
	return 0;
}

/* .kcfi_func's optional operands after the id, in any order, once each:
 * ", stub" and ", arity=N" (doc/directives.md 2.3). */
static int parse_func_keys(struct cursor *c, struct kcfi_directive *d)
{
	for (;;) {
		/* Not a key after the comma (an id after "stub"): the caller
		 * reports the text it does not expect there. */
		struct cursor ahead = *c;
		skip_blanks(&ahead);
		if (ahead.p < ahead.end && *ahead.p == ',') {
			ahead.p++;
			skip_blanks(&ahead);
			if (ahead.p >= ahead.end || !is(*ahead.p, CC_WORD))
				return 0;
		}
		struct slice key;
		int rc = next_key(c, &key);
		if (rc <= 0)
			return rc;
		bool arity = slice_eq(key, KCFI_KEY_ARITY);
		if (!arity && !slice_eq(key, "stub")) {
			c->p -= key.n;
			return fail(c, "unknown .kcfi_func key");
		}
		if (arity ? d->arity >= 0 : d->stub) {
			c->p -= key.n;
			return fail(c, "duplicate .kcfi_func key");
		}
		if (!arity) {
			d->stub = true;
			continue;
		}
		if (!d->has_id) {
			c->p -= key.n;
			return fail(c, "arity= needs the type id of a preamble");
		}
		skip_blanks(c);
		if (c->p >= c->end || *c->p != '=')
			return fail(c, "expected '=' after key");
		c->p++;
		unsigned v;
		if (parse_uint(c, KCFI_ARITY_STACK, &v))
			return -1;
		d->arity = (int)v;
	}
}

/* .kcfi_stub_alias NAME, BINDING: the binding NAME's own .globl or .weak
 * gives it, which the alias must share (doc/directives.md 2.3). */
static int parse_binding(struct cursor *c, struct kcfi_directive *d)
{
	struct slice key;
	int rc = next_key(c, &key);
	if (rc <= 0)
		return rc ? rc : fail(c, "expected \", globl\" or \", weak\"");
	if (slice_eq(key, "weak"))
		d->weak = true;
	else if (!slice_eq(key, "globl")) {
		c->p -= key.n;
		return fail(c, "expected globl or weak");
	}
	return 0;
}

/* .kcfi_call's optional operands after the id: ", chain=REG" (the register
 * the call passes a static chain in), ", arg=REG" once per register that
 * carries an argument. */
static int parse_call_keys(struct cursor *c, struct kcfi_directive *d)
{
	for (;;) {
		struct slice key;
		int rc = next_key(c, &key);
		if (rc <= 0)
			return rc;
		bool arg = slice_eq(key, "arg");
		if (!arg && !slice_eq(key, "chain")) {
			c->p -= key.n;
			return fail(c, "unknown .kcfi_call key");
		}
		skip_blanks(c);
		if (c->p >= c->end || *c->p != '=')
			return fail(c, "expected '=' after key");
		c->p++;
		if (arg) {
			if (d->nargs == sizeof(d->args) / sizeof(d->args[0]))
				return fail(c, "too many .kcfi_call arg= registers");
			if (parse_name(c, &d->args[d->nargs++]))
				return -1;
			continue;
		}
		if (d->chain.n) {
			c->p -= key.n + 1;
			return fail(c, "duplicate .kcfi_call key");
		}
		if (parse_name(c, &d->chain))
			return -1;
	}
}

/* .kcfi_reserved REG, KIND, "WHY" */
static int parse_reserved(struct cursor *c, struct kcfi_directive *d)
{
	struct slice kind;
	if (parse_name(c, &d->name) || expect_comma(c))
		return -1;
	skip_blanks(c);
	if (parse_word(c, &kind))
		return -1;
	if (slice_eq(kind, "option"))
		d->reserve_kind = KR_OPTION;
	else if (slice_eq(kind, "global"))
		d->reserve_kind = KR_GLOBAL;
	else {
		c->p -= kind.n;
		return fail(c, "unknown .kcfi_reserved kind (known: option, global)");
	}
	return expect_comma(c) || parse_string(c, &d->why, NULL, NULL);
}

/* .kcfi_conversion NAME, "FROM", "TO", "FILE", LINE, "CONTEXT", KIND
 * (doc/directives.md 2.7); KIND is a word, "void*" the one with a star. */
static int parse_conversion(struct cursor *c, struct kcfi_directive *d)
{
	if (parse_name(c, &d->name) || expect_comma(c) ||
	    parse_string(c, &d->type, &d->type_col, &d->type_escaped) || expect_comma(c) ||
	    parse_string(c, &d->to, &d->to_col, NULL) || expect_comma(c) ||
	    parse_string(c, &d->file, NULL, NULL) || expect_comma(c) ||
	    parse_uint(c, 100000000, &d->src_line) || expect_comma(c) ||
	    parse_string(c, &d->context, NULL, NULL) || expect_comma(c))
		return -1;
	skip_blanks(c);
	if (parse_word(c, &d->conv_kind))
		return -1;
	if (c->p < c->end && *c->p == '*') {
		c->p++;
		d->conv_kind.n++;
	}
	return 0;
}

/* The names without KCFI_DIRECTIVE_PREFIX, which the parser has passed. */
#define DIRECTIVE(name, kind) \
	{ name + KCFI_DIRECTIVE_PREFIX_LEN, sizeof(name) - 1 - KCFI_DIRECTIVE_PREFIX_LEN, kind }
static const struct {
	const char *name;
	size_t len;		/* compared first: most names differ in length */
	enum kcfi_dir kind;
} directives[] = {
	DIRECTIVE(KCFI_DIR_VERSION, KD_VERSION),
	DIRECTIVE(KCFI_DIR_TYPE, KD_TYPE),
	DIRECTIVE(KCFI_DIR_FUNC, KD_FUNC),
	DIRECTIVE(KCFI_DIR_EXTERN, KD_EXTERN),
	DIRECTIVE(KCFI_DIR_CALL, KD_CALL),
	DIRECTIVE(KCFI_DIR_CALL_UNCHECKED, KD_CALL_UNCHECKED),
	DIRECTIVE(KCFI_DIR_CALL_DIRECT, KD_CALL_DIRECT),
	DIRECTIVE(KCFI_DIR_BRANCH_NOCALL, KD_BRANCH_NOCALL),
	DIRECTIVE(KCFI_DIR_REQUIRE_PLUGIN, KD_REQUIRE_PLUGIN),
	DIRECTIVE(KCFI_DIR_TYPEINFO, KD_TYPEINFO),
	DIRECTIVE(KCFI_DIR_RESERVED, KD_RESERVED),
	DIRECTIVE(KCFI_DIR_STUB_ALIAS, KD_STUB_ALIAS),
	DIRECTIVE(KCFI_DIR_CONVERSION, KD_CONVERSION),
};
#undef DIRECTIVE
enum { NDIRECTIVES = sizeof(directives) / sizeof(directives[0]) };

/* The index of WORD in directives[], or NDIRECTIVES. */
static size_t directive_index(struct slice word)
{
	size_t i;
	for (i = 0; i < NDIRECTIVES; i++)
		if (word.n == directives[i].len && memcmp(word.p, directives[i].name, word.n) == 0)
			break;
	return i;
}

int kcfi_directive_parse(const char *line, size_t len, struct kcfi_directive *d,
			 const char **msg, size_t *col)
{
	struct cursor c = { line, line, line + len, NULL, 0 };
	memset(d, 0, sizeof(*d));
	d->arity = -1;
	skip_blanks(&c);
	if ((size_t)(c.end - c.p) < KCFI_DIRECTIVE_PREFIX_LEN ||
	    memcmp(c.p, KCFI_DIRECTIVE_PREFIX, KCFI_DIRECTIVE_PREFIX_LEN) != 0) {
		fail(&c, "not a kcfi directive");
		goto out;
	}
	c.p += KCFI_DIRECTIVE_PREFIX_LEN;
	struct slice word = { c.p, 0 };
	const char *p = c.p;
	while (p < c.end && is(*p, CC_WORD))
		p++;
	c.p = p;
	word.n = (size_t)(p - word.p);
	size_t i = directive_index(word);
	if (i == NDIRECTIVES ||
	    (c.p < c.end && !(*c.p == ' ' || *c.p == '\t' || *c.p == '\r' || *c.p == '\n' ||
			      *c.p == ';' || *c.p == '#'))) {
		c.p = word.p - KCFI_DIRECTIVE_PREFIX_LEN;
		fail(&c, "unknown kcfi directive");
		goto out;
	}
	d->kind = directives[i].kind;

	int rc = 0;
	switch (d->kind) {
	case KD_VERSION:
		rc = parse_version(&c, d);
		break;
	case KD_TYPE:
		d->has_id = true;
		rc = parse_uint(&c, KCFI_MAX_TYPE_ID - 1, &d->id) || expect_comma(&c) ||
		     parse_string(&c, &d->type, &d->type_col, &d->type_escaped);
		break;
	case KD_FUNC:
		/* NAME[, ID][, stub][, arity=N]: after the comma, a digit starts
		 * the id. */
		rc = parse_name(&c, &d->name);
		if (rc || at_end(&c))
			break;
		if (func_has_id(&c)) {
			d->has_id = true;
			rc = expect_comma(&c) || parse_uint(&c, KCFI_MAX_TYPE_ID - 1, &d->id);
		}
		if (!rc)
			rc = parse_func_keys(&c, d);
		break;
	case KD_EXTERN:
		d->has_id = true;
		rc = parse_name(&c, &d->name) || expect_comma(&c) ||
		     parse_uint(&c, KCFI_MAX_TYPE_ID - 1, &d->id) || parse_extern_keys(&c, d);
		break;
	case KD_CALL:
		d->has_id = true;
		rc = parse_uint(&c, KCFI_MAX_TYPE_ID - 1, &d->id) || parse_call_keys(&c, d);
		break;
	case KD_RESERVED:
		rc = parse_reserved(&c, d);
		break;
	case KD_STUB_ALIAS:
		rc = parse_name(&c, &d->name) || parse_binding(&c, d);
		break;
	case KD_CONVERSION:
		rc = parse_conversion(&c, d);
		break;
	case KD_TYPEINFO:
		rc = parse_name(&c, &d->name) || expect_comma(&c) ||
		     parse_string(&c, &d->type, &d->type_col, &d->type_escaped);
		break;
	default:
		break;
	}
	if (rc)
		goto out;

	/* Only .kcfi_call may carry reservation padding: empty statements. */
	d->reserve = 1;
	skip_blanks(&c);
	while (c.p < c.end && *c.p == ';' && d->kind == KD_CALL) {
		c.p++;
		d->reserve++;
		skip_blanks(&c);
	}
	if (!at_end(&c)) {
		fail(&c, "unexpected text after the directive");
		goto out;
	}
	return 0;
out:
	*msg = c.msg;
	*col = c.col;
	return -1;
}

size_t kcfi_unescape(struct slice s, char *buf, size_t cap)
{
	size_t o = 0;
	if (cap && (!s.n || !memchr(s.p, '\\', s.n))) {	/* the usual case: a plain copy */
		o = s.n < cap - 1 ? s.n : cap - 1;
		memcpy(buf, s.p, o);
		buf[o] = '\0';
		return o;
	}
	for (size_t i = 0; i < s.n && o + 1 < cap; i++) {
		if (s.p[i] == '\\' && i + 1 < s.n)
			i++;
		buf[o++] = s.p[i];
	}
	buf[o] = '\0';
	return o;
}

const char *kcfi_dir_name(enum kcfi_dir k)
{
	static const char *const names[] = {
		[KD_VERSION] = KCFI_DIR_VERSION, [KD_TYPE] = KCFI_DIR_TYPE,
		[KD_FUNC] = KCFI_DIR_FUNC, [KD_EXTERN] = KCFI_DIR_EXTERN,
		[KD_CALL] = KCFI_DIR_CALL, [KD_CALL_UNCHECKED] = KCFI_DIR_CALL_UNCHECKED,
		[KD_CALL_DIRECT] = KCFI_DIR_CALL_DIRECT,
		[KD_BRANCH_NOCALL] = KCFI_DIR_BRANCH_NOCALL,
		[KD_REQUIRE_PLUGIN] = KCFI_DIR_REQUIRE_PLUGIN,
		[KD_TYPEINFO] = KCFI_DIR_TYPEINFO, [KD_RESERVED] = KCFI_DIR_RESERVED,
		[KD_STUB_ALIAS] = KCFI_DIR_STUB_ALIAS, [KD_CONVERSION] = KCFI_DIR_CONVERSION,
	};
	return names[k];
}
