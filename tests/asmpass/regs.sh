#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Registers a check must not overwrite (doc/directives.md 2.6, 3.7): the
# static chain a call passes (.kcfi_call ID, chain=REG) and the registers the
# program keeps (.kcfi_reserved).  Hand-written assembly for every backend,
# rewritten only (--kcfi-no-assemble): which registers each backend's check
# writes, with its target-dependent choices, and the directives' errors.
. "$top_srcdir/tests/lib.sh"

version() {
	case $1 in
	x86_64) echo '	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0' ;;
	aarch64) echo '	.kcfi_version 1, "aarch64-linux-gnu", ptr=64, long=64, char=unsigned, prefix=0' ;;
	riscv64) echo '	.kcfi_version 1, "riscv64-linux-gnu", ptr=64, long=64, char=unsigned, prefix=0' ;;
	esac
}

# unit NAME ARCH RESERVED CALL BRANCH: a function f whose one statement is
# BRANCH annotated with CALL, after the .kcfi_reserved lines RESERVED
# (';'-separated).  The branch is on line 8 + the number of those lines.
unit() {
	{ version "$2"
	  printf '\t.kcfi_type 1, "void (void)"\n'
	  printf '%s\n' "$3" | tr ';' '\n' | sed '/^$/d; s/^/\t./'
	  printf '\t.text\n\t.kcfi_func f, 1\n\t.globl f\nf:\n#APP\n\t%s\n#NO_APP\n\t%s\n' "$4" "$5"
	} >"$T/$1.s"
}
rewrite() { "$KCFI_AS" --kcfi-no-assemble --kcfi-save="$T/$1.out" "$T/$1.s" 2>"$T/$1.err"; }

# accepted NAME ARCH RESERVED CALL BRANCH
accepted() {
	unit "$@"
	if rewrite "$1" && grep -q 'Lkcfi0_call:' "$T/$1.out"; then
		pass "$1"
	else
		fail "$1: not checked"; sed 's/^/    /' "$T/$1.err"
	fi
}

# refused NAME ARCH RESERVED CALL BRANCH PATTERN: refused at the branch,
# with "file:line: error: ...PATTERN".
refused() {
	unit "$1" "$2" "$3" "$4" "$5"
	line=$(grep -nFx "	$5" "$T/$1.s" | cut -d: -f1)
	if rewrite "$1"; then
		fail "$1: accepted"
	elif grep -q "^$T/$1.s:$line: error: .*$6" "$T/$1.err"; then
		pass "$1"
	else
		fail "$1: expected '$1.s:$line: error: ...$6', got:"; sed 's/^/    /' "$T/$1.err"
	fi
}

# x86_64: movl $-H, %r10d, and the target in %r11 only when it is in
# memory, a thunk's, or in %r10 or %r12 (doc/abi.md 1).
refused x86-fixed-r10 x86_64 'kcfi_reserved r10, option, "-ffixed-r10"' '.kcfi_call 1' 'call	*%rax' \
	"the KCFI check of 'call	\*%rax' in f() would overwrite r10 (the x86_64 check writes r10), which -ffixed-r10 reserves"
refused x86-fixed-r11 x86_64 'kcfi_reserved r11, option, "-ffixed-r11"' '.kcfi_call 1' 'jmp	*8(%rdi)' \
	'overwrite r11 (the x86_64 check writes r10, r11), which -ffixed-r11 reserves'
refused x86-call-saved x86_64 'kcfi_reserved r11, option, "-fcall-saved-r11"' '.kcfi_call 1' 'call	*%r10' \
	'overwrite r11 .*, which -fcall-saved-r11 reserves'
refused x86-fixed-r11-r12 x86_64 'kcfi_reserved r11, option, "-ffixed-r11"' '.kcfi_call 1' 'call	*%r12' \
	'overwrite r11 .*, which -ffixed-r11 reserves'
# A target the check reads in place leaves %r11 alone: nothing to refuse.
accepted x86-r11-reserved-rdx x86_64 'kcfi_reserved r11, option, "-fcall-saved-r11"' '.kcfi_call 1' 'call	*%rdx'
check "... and its check does not touch %r11" sh -c "! grep -q '%r11' '$T/x86-r11-reserved-rdx.out'"
refused x86-global x86_64 'kcfi_reserved r10, global, "v (t.c:3)"' '.kcfi_call 1' 'call	*%rax' \
	'overwrite r10 .*, which holds the global register variable v (t.c:3)'
refused x86-thunk x86_64 'kcfi_reserved r11, option, "-ffixed-r11"' '.kcfi_call 1' 'call	__x86_indirect_thunk_rax' \
	'overwrite r11'
accepted x86-target-in-r11 x86_64 'kcfi_reserved r11, global, "g"' '.kcfi_call 1' 'call	*%r11'
accepted x86-other-regs x86_64 'kcfi_reserved r12, option, "-ffixed-r12";kcfi_reserved ax, global, "a";kcfi_reserved xmm3, option, "-ffixed-xmm3";kcfi_reserved sp, global, "current_stack_pointer"' \
	'.kcfi_call 1' 'call	*%rax'
refused x86-chain x86_64 '' '.kcfi_call 1, chain=r10' 'call	*%rax' \
	"overwrite r10 (the x86_64 check writes r10), which passes this call's static chain"
refused x86-chain-sibcall x86_64 '' '.kcfi_call 1, chain=r10 ; ;' 'jmp	*%rcx' 'static chain'
# Spellings: GCC's reg_names[] (ax, r10) and the assembler's.
refused x86-spelled-r10d x86_64 'kcfi_reserved r10d, option, "-ffixed-r10d"' '.kcfi_call 1' 'call	*%rax' 'overwrite r10'
refused x86-spelled-pct x86_64 'kcfi_reserved "%r10", option, "-ffixed-r10"' '.kcfi_call 1' 'call	*%rax' 'overwrite r10'

# Calls that get no check write nothing.
unit x86-unchecked x86_64 'kcfi_reserved r10, option, "-ffixed-r10"' '.kcfi_call_unchecked' 'call	*%rax'
check "an unchecked call with a reserved r10 passes" rewrite x86-unchecked
{ version x86_64; printf '\t.kcfi_reserved r10, option, "-ffixed-r10"\n\t.kcfi_type 2, "void ()"\n\t.text\nf:\n#APP\n\t.kcfi_call 2, chain=r10\n#NO_APP\n\tcall\t*%%rax\n'; } >"$T/x86-noproto.s"
check "... so does an unprototyped one, with a chain" rewrite x86-noproto

# aarch64: ldur w16; movk w17 (x9 instead of the target's own register).
refused a64-fixed-x16 aarch64 'kcfi_reserved x16, option, "-ffixed-x16"' '.kcfi_call 1 ; ; ; ; ;' 'blr	x3' \
	'overwrite x16 (the aarch64 check writes x16, x17), which -ffixed-x16 reserves'
refused a64-fixed-x17 aarch64 'kcfi_reserved x17, option, "-ffixed-x17"' '.kcfi_call 1 ; ; ; ; ;' 'blr	x3' \
	'overwrite x17 .*, which -ffixed-x17 reserves'
refused a64-global-w17 aarch64 'kcfi_reserved w17, global, "v"' '.kcfi_call 1 ; ; ; ; ;' 'br	x0' \
	'overwrite x17 .*, which holds the global register variable v'
accepted a64-x9-unused aarch64 'kcfi_reserved x9, option, "-ffixed-x9"' '.kcfi_call 1 ; ; ; ; ;' 'blr	x3'
refused a64-x9-for-x16 aarch64 'kcfi_reserved x9, option, "-ffixed-x9"' '.kcfi_call 1 ; ; ; ; ;' 'br	x16' \
	'overwrite x9 (the aarch64 check writes x9, x17), which -ffixed-x9 reserves'
refused a64-x9-for-x17 aarch64 'kcfi_reserved x9, option, "-ffixed-x9"' '.kcfi_call 1 ; ; ; ; ;' 'br	x17' \
	'overwrite x9 (the aarch64 check writes x9, x16)'
accepted a64-x18 aarch64 'kcfi_reserved x18, option, "-ffixed-x18";kcfi_reserved sp, global, "current_stack_pointer"' '.kcfi_call 1 ; ; ; ; ;' 'blr	x3'
# GCC's aarch64 static chain is x18, which no check writes.
accepted a64-chain aarch64 '' '.kcfi_call 1, chain=x18 ; ; ; ; ;' 'blr	x3'
refused a64-chain-x16 aarch64 '' '.kcfi_call 1, chain=x16 ; ; ; ; ;' 'blr	x3' 'static chain'

# riscv64: lw t1; lui/addiw t2 (t3..t6 instead of the target's own register).
refused rv-fixed-t1 riscv64 'kcfi_reserved t1, option, "-ffixed-t1"' '.kcfi_call 1 ; ; ; ;' 'jalr	a5' \
	'overwrite t1 (the riscv64 check writes t1, t2), which -ffixed-t1 reserves'
refused rv-fixed-x7 riscv64 'kcfi_reserved x7, option, "-ffixed-x7"' '.kcfi_call 1 ; ; ; ;' 'jr	a5' \
	'overwrite t2 .*, which -ffixed-x7 reserves'
accepted rv-t3-unused riscv64 'kcfi_reserved t3, option, "-ffixed-t3"' '.kcfi_call 1 ; ; ; ;' 'jalr	a5'
refused rv-t3-for-t1 riscv64 'kcfi_reserved t3, option, "-ffixed-t3"' '.kcfi_call 1 ; ; ; ;' 'jalr	t1' \
	'overwrite t3 (the riscv64 check writes t2, t3), which -ffixed-t3 reserves'
refused rv-x28-for-t2 riscv64 'kcfi_reserved x28, global, "w"' '.kcfi_call 1 ; ; ; ;' 'jr	t2' \
	'overwrite t3 (the riscv64 check writes t1, t3), which holds the global register variable w'
accepted rv-t4-for-t1 riscv64 'kcfi_reserved t4, option, "-ffixed-t4"' '.kcfi_call 1 ; ; ; ;' 'jalr	t1'
accepted rv-gp-tp riscv64 'kcfi_reserved gp, global, "gp_in_global";kcfi_reserved tp, global, "riscv_current_is_tp"' '.kcfi_call 1 ; ; ; ;' 'jalr	a5'
# GCC's riscv static chain is t2, where the check builds the expected id.
refused rv-chain riscv64 '' '.kcfi_call 1, chain=t2 ; ; ; ;' 'jalr	a5' \
	"overwrite t2 (the riscv64 check writes t1, t2), which passes this call's static chain"

# The C line of a refused branch, from the DWARF line program GCC prints
# with -g: ".file N" names (DWARF 5 with a directory, or not), the last
# ".loc" of the function.  No .loc in this function, or one naming no
# file: the .s line.
src_unit() {	# NAME FILE-LINES LOC-BEFORE-G: f has .loc 1 12 7; g LOC-BEFORE-G
	{ version x86_64
	  printf '\t.kcfi_reserved r10, option, "-ffixed-r10"\n\t.kcfi_type 1, "void (void)"\n'
	  printf "$2"
	  printf '\t.text\n\t.kcfi_func f, 1\n\t.type f, @function\nf:\n\t.loc 1 12 7 view -0\n\tnop\n\t.loc 2 40 3\n\tnop\n\t.loc 1 13 9\n\tret\n'
	  printf '\t.kcfi_func g, 1\n\t.type g, @function\ng:\n'
	  printf "$3"
	  printf '\t.kcfi_call 1\n\tcall\t*%%rax\n'
	} >"$T/$1.s"
}
src_refused() {	# NAME WANT: refused with "WANT: error: ..."
	"$KCFI_AS" --kcfi-no-assemble "$T/$1.s" 2>"$T/$1.err" && { echo accepted; return 1; }
	grep -q "^$2: error: the KCFI check of 'call	\*%rax' in g() would overwrite r10 .*-ffixed-r10 reserves.*" "$T/$1.err" ||
		{ cat "$T/$1.err"; return 1; }
}
branch_line() { grep -n '^	call	\*%rax$' "$T/$1.s" | cut -d: -f1; }
src_unit src-dwarf5 '\t.file 0 "/src" "t.c"\n\t.file 1 "t.c"\n\t.file 2 "/usr/include/x.h"\n' '\t.loc 1 31 5 view .LVU9\n'
check "a refused check is reported at the C line of its .loc (.file N \"name\")" src_refused src-dwarf5 't\.c:31:5'
check "... with the .s line after the message" grep -q "(assembly: $T/src-dwarf5\.s:$(branch_line src-dwarf5))\$" "$T/src-dwarf5.err"
src_unit src-dir '\t.file 1 "/src" "dir/t.c"\n\t.file 2 "/usr/include/x.h"\n' '\t.loc 1 31 5\n'
check "... as the name of .file N \"dir\" \"name\" says" src_refused src-dir 'dir/t\.c:31:5'
src_unit src-header '\t.file 1 "t.c"\n\t.file 2 "/usr/include/x.h"\n' '\t.loc 2 40 3\n'
check "... in the file its .loc names" src_refused src-header '/usr/include/x\.h:40:3'
src_unit src-nocol '\t.file 1 "t.c"\n' '\t.loc 1 31\n'
check "... without a column when the .loc has none" src_refused src-nocol 't\.c:31'
src_unit src-stale '\t.file 1 "t.c"\n' ''
check "... at the .s line when the function has no .loc of its own" src_refused src-stale "$T/src-stale\.s:$(branch_line src-stale)"
src_unit src-unnamed '\t.file 1 "t.c"\n' '\t.loc 3 31 5\n'
check "... at the .s line when the .loc names no .file" src_refused src-unnamed "$T/src-unnamed\.s:$(branch_line src-unnamed)"

# The directives themselves fail closed.
{ version x86_64; printf '\t.kcfi_type 1, "void (void)"\n\t.text\n\t.kcfi_func f, 1\nf:\n\t.kcfi_reserved r10, option, "-ffixed-r10"\n\tret\n'; } >"$T/late.s"
check "a .kcfi_reserved after the first .kcfi_func is refused" sh -c \
	"! '$KCFI_AS' --kcfi-no-assemble '$T/late.s' 2>'$T/late.err' && grep -q 'late.s:6: error: .kcfi_reserved after the first' '$T/late.err'"
{ printf '\t.kcfi_reserved r10, option, "-ffixed-r10"\n'; version x86_64; } >"$T/early.s"
check "a .kcfi_reserved before .kcfi_version is refused" sh -c \
	"! '$KCFI_AS' --kcfi-no-assemble '$T/early.s' 2>'$T/early.err' && grep -q 'early.s:1: error: .kcfi_reserved before .kcfi_version' '$T/early.err'"
bad() {	# NAME LINE PATTERN TEXT: refused at LINE
	{ version x86_64; printf "$4\n"; } >"$T/$1.s"
	check "$1" sh -c "! '$KCFI_AS' --kcfi-no-assemble '$T/$1.s' 2>'$T/$1.err' && grep -q '$1.s:$2:\([0-9]*:\)\{0,1\} error: .*$3' '$T/$1.err'"
}
bad reserved-unknown-kind 2 'unknown .kcfi_reserved kind' '\t.kcfi_reserved r10, fixed, "-ffixed-r10"'
bad reserved-no-why 2 "expected .,." '\t.kcfi_reserved r10, option'
bad reserved-trailing 2 'unexpected text' '\t.kcfi_reserved r10, option, "-ffixed-r10", x'
bad call-unknown-key 3 'unknown .kcfi_call key' '\t.kcfi_type 1, "void (void)"\n\t.kcfi_call 1, chian=r10'
bad call-duplicate-chain 3 'duplicate .kcfi_call key' '\t.kcfi_type 1, "void (void)"\n\t.kcfi_call 1, chain=r10, chain=r10'
bad call-chain-empty 3 'expected a symbol name' '\t.kcfi_type 1, "void (void)"\n\t.kcfi_call 1, chain= ; ;'
bad unchecked-chain 2 'unexpected text' '\t.kcfi_call_unchecked chain=r10'
bad call-chain-not-gpr 3 'no general register of x86_64' '\t.kcfi_type 1, "void (void)"\n\t.kcfi_call 1, chain=xmm0'
finish
