/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Call-site directives and branch classes; see annot.h. */
#include "config.h"

#include "asmpass/annot.h"

bool annot_kind_ok(enum kcfi_dir kind, enum insn_class cls)
{
	switch (kind) {
	case KD_CALL_DIRECT:
		return insn_is_branch(cls);
	case KD_BRANCH_NOCALL:
		return cls == INSN_IJUMP;
	default:
		return insn_is_indirect(cls);
	}
}

bool annot_lenient(enum kcfi_dir kind)
{
	return kind == KD_CALL_DIRECT || kind == KD_BRANCH_NOCALL;
}

const char *annot_class_name(enum insn_class cls)
{
	switch (cls) {
	case INSN_CALL: return "a direct call";
	case INSN_JUMP: return "a direct jump";
	case INSN_ICALL: return "an indirect call";
	case INSN_IJUMP: return "an indirect jump";
	default: return "not a branch";
	}
}

const char *annot_wants(enum kcfi_dir kind)
{
	return kind == KD_CALL_DIRECT ? "a call or jump" :
	       kind == KD_BRANCH_NOCALL ? "an indirect jump" : "an indirect branch";
}
