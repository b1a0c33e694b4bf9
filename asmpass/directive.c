/* .kcfi_* directive parser.  Strict on purpose: anything the protocol does
 * not define is an error, never a guess. */
#include "config.h"

#include <string.h>

#include "asmpass/directive.h"

struct cursor {
	const char *base, *p, *end;
	const char *msg;
	size_t col;
};

static void skip_blanks(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
}

static int fail(struct cursor *c, const char *msg)
{
	c->msg = msg;
	c->col = (size_t)(c->p - c->base) + 1;
	return -1;
}

static bool at_end(struct cursor *c)
{
	skip_blanks(c);
	return c->p >= c->end || *c->p == '\n' || *c->p == '#';
}

static int expect_comma(struct cursor *c)
{
	skip_blanks(c);
	if (c->p >= c->end || *c->p != ',')
		return fail(c, "expected ','");
	c->p++;
	return 0;
}

static int parse_uint(struct cursor *c, unsigned max, unsigned *out)
{
	skip_blanks(c);
	unsigned long v = 0;
	const char *s = c->p;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		v = v * 10 + (unsigned)(*c->p - '0');
		if (v > max)
			return fail(c, "number out of range");
		c->p++;
	}
	if (c->p == s)
		return fail(c, "expected a decimal number");
	*out = (unsigned)v;
	return 0;
}

static int parse_string(struct cursor *c, struct slice *out, size_t *col)
{
	skip_blanks(c);
	if (c->p >= c->end || *c->p != '"')
		return fail(c, "expected a quoted string");
	const char *s = ++c->p;
	while (c->p < c->end && *c->p != '"' && *c->p != '\n') {
		if (*c->p == '\\' && c->p + 1 < c->end)
			c->p++;
		if (*c->p == '\0')	/* C strings downstream would end here */
			return fail(c, "NUL byte in a string");
		c->p++;
	}
	if (c->p >= c->end || *c->p != '"')
		return fail(c, "unterminated string");
	*out = (struct slice){ s, (size_t)(c->p - s) };
	if (col)
		*col = (size_t)(s - c->base) + 1;
	c->p++;
	return 0;
}

static bool sym_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == '$';
}

static int parse_name(struct cursor *c, struct slice *out)
{
	skip_blanks(c);
	if (c->p < c->end && *c->p == '"') {
		const char *s = c->p;
		struct slice inner;
		if (parse_string(c, &inner, NULL))
			return -1;
		if (inner.n == 0)
			return fail(c, "empty symbol name");
		*out = (struct slice){ s, (size_t)(c->p - s) };
		return 0;
	}
	const char *s = c->p;
	while (c->p < c->end && sym_char(*c->p))
		c->p++;
	if (c->p == s)
		return fail(c, "expected a symbol name");
	*out = (struct slice){ s, (size_t)(c->p - s) };
	return 0;
}

static int parse_word(struct cursor *c, struct slice *out)
{
	const char *s = c->p;
	while (c->p < c->end && ((*c->p >= 'a' && *c->p <= 'z') || *c->p == '_'))
		c->p++;
	*out = (struct slice){ s, (size_t)(c->p - s) };
	return out->n ? 0 : fail(c, "expected a key");
}

static int parse_version(struct cursor *c, struct kcfi_directive *d)
{
	if (parse_uint(c, 1000000, &d->version))
		return -1;
	if (d->version != 1)
		return fail(c, "unsupported .kcfi_version (this kcfi-as implements version 1)");
	if (expect_comma(c) || parse_string(c, &d->triple, NULL))
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

static const struct {
	const char *name;
	enum kcfi_dir kind;
} directives[] = {
	{ "version", KD_VERSION },
	{ "type", KD_TYPE },
	{ "func", KD_FUNC },
	{ "extern", KD_EXTERN },
	{ "call", KD_CALL },
	{ "call_unchecked", KD_CALL_UNCHECKED },
	{ "call_direct", KD_CALL_DIRECT },
	{ "branch_nocall", KD_BRANCH_NOCALL },
	{ "require_plugin", KD_REQUIRE_PLUGIN },
	{ "typeinfo", KD_TYPEINFO },
};

int kcfi_directive_parse(const char *line, size_t len, struct kcfi_directive *d,
			 const char **msg, size_t *col)
{
	struct cursor c = { line, line, line + len, NULL, 0 };
	memset(d, 0, sizeof(*d));
	skip_blanks(&c);
	if ((size_t)(c.end - c.p) < 6 || memcmp(c.p, ".kcfi_", 6) != 0) {
		fail(&c, "not a kcfi directive");
		goto out;
	}
	c.p += 6;
	struct slice word = { c.p, 0 };
	while (c.p < c.end && ((*c.p >= 'a' && *c.p <= 'z') || *c.p == '_'))
		c.p++;
	word.n = (size_t)(c.p - word.p);
	size_t i;
	for (i = 0; i < sizeof(directives) / sizeof(directives[0]); i++)
		if (slice_eq(word, directives[i].name))
			break;
	if (i == sizeof(directives) / sizeof(directives[0]) ||
	    (c.p < c.end && !(*c.p == ' ' || *c.p == '\t' || *c.p == '\r' || *c.p == '\n' ||
			      *c.p == ';' || *c.p == '#'))) {
		c.p = word.p - 6;
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
		     parse_string(&c, &d->type, &d->type_col);
		break;
	case KD_FUNC:
		rc = parse_name(&c, &d->name);
		if (!rc && !at_end(&c)) {
			d->has_id = true;
			rc = expect_comma(&c) || parse_uint(&c, KCFI_MAX_TYPE_ID - 1, &d->id);
		}
		break;
	case KD_EXTERN:
		d->has_id = true;
		rc = parse_name(&c, &d->name) || expect_comma(&c) ||
		     parse_uint(&c, KCFI_MAX_TYPE_ID - 1, &d->id);
		break;
	case KD_CALL:
		d->has_id = true;
		rc = parse_uint(&c, KCFI_MAX_TYPE_ID - 1, &d->id);
		break;
	case KD_TYPEINFO:
		rc = parse_name(&c, &d->name) || expect_comma(&c) ||
		     parse_string(&c, &d->type, &d->type_col);
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
	for (size_t i = 0; i < s.n && o + 1 < cap; i++) {
		if (s.p[i] == '\\' && i + 1 < s.n)
			i++;
		buf[o++] = s.p[i];
	}
	buf[o] = '\0';
	return o;
}
