/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parsing of the .kcfi_* directives (doc/directives.md). */
#ifndef KCFI_ASMPASS_DIRECTIVE_H
#define KCFI_ASMPASS_DIRECTIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "asmpass/stmt.h"

enum kcfi_dir {
	KD_VERSION,
	KD_TYPE,
	KD_FUNC,
	KD_EXTERN,
	KD_CALL,
	KD_CALL_UNCHECKED,
	KD_CALL_DIRECT,
	KD_BRANCH_NOCALL,
	KD_REQUIRE_PLUGIN,
	KD_TYPEINFO,
	KD_RESERVED,
	KD_STUB_ALIAS,
	KD_CONVERSION,
};

/* What keeps a register from a check (.kcfi_reserved's KIND). */
enum kcfi_reserve_kind {
	KR_OPTION,			/* -ffixed-REG, -fcall-saved-REG */
	KR_GLOBAL,			/* a global register variable */
};

enum { KCFI_MAX_TYPE_ID = 1u << 20 };

struct kcfi_directive {
	enum kcfi_dir kind;
	bool has_id;
	unsigned id;			/* .kcfi_type/.kcfi_func/.kcfi_extern/.kcfi_call */
	struct slice name;		/* symbol, as written (quotes kept) */
	struct slice type;		/* .kcfi_type text, between the quotes, escapes kept */
	bool type_escaped;		/* it has escapes (else it is its own unescaped text) */
	size_t type_col;		/* 1-based column of that text in the line */
	unsigned reserve;		/* .kcfi_call: statements reserved (>= 1) */
	struct slice chain;		/* .kcfi_call chain=REG, quotes kept (empty: none) */
	struct slice args[8];		/* .kcfi_call arg=REG..., quotes kept */
	unsigned nargs;
	bool stub;			/* .kcfi_extern NAME, ID, stub; .kcfi_func ..., stub */
	int arity;			/* .kcfi_func NAME, ID, arity=N; -1: none */
	bool weak;			/* .kcfi_stub_alias NAME, weak */
	/* .kcfi_reserved REG, KIND, "WHY" (REG in name) */
	enum kcfi_reserve_kind reserve_kind;
	struct slice why;		/* between the quotes, escapes kept */
	/* .kcfi_conversion NAME, "FROM", "TO", "FILE", LINE, "CONTEXT", KIND
	 * (FROM in type; strings between their quotes, escapes kept) */
	struct slice to, file, context;
	size_t to_col;
	unsigned src_line;
	struct slice conv_kind;		/* as written: cast, init, ..., void*, decl */
	/* .kcfi_version */
	unsigned version;
	struct slice triple;
	unsigned ptr_bits, long_bits, prefix;
	bool char_signed;
};

/* Parse LINE[0..LEN), a line starting (after blanks) with ".kcfi_".
 * Returns 0, or -1 with *MSG and *COL (1-based) describing the problem. */
int kcfi_directive_parse(const char *line, size_t len, struct kcfi_directive *d,
			 const char **msg, size_t *col);

/* The directive's name as written, for messages (".kcfi_call"). */
const char *kcfi_dir_name(enum kcfi_dir k);

/* Copy TYPE without its escapes into BUF (at most CAP bytes incl. NUL). */
size_t kcfi_unescape(struct slice s, char *buf, size_t cap);

#endif
