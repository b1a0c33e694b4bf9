#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-audit on x86_64 code from kcfi-gcc: exit 0 with exact counts on good
# output (object, ld -r, shared library); then deliberately broken outputs,
# each named by its exact finding: a check removed by hand from the
# rewritten assembly, a .debug record removed, a preamble with the
# wrong id, a .kcfi_traps entry pointing beside its ud2, a check guarding
# another register.  Offsets come from objdump and nm, not from kcfi-audit.
# The exit status of each class of finding, with and without --strict:
# hand-written assembly, plain gcc, a stripped object and a function
# whose address is taken without a preamble exit 0 (1 under --strict); a
# lost check or trap entry, a wrong id and malformed records exit 1.
. "$top_srcdir/tests/audit/lib.sh"
case ${NATIVE_TRIPLE:-} in
x86_64-*) ;;
*) skip "x86_64 code, not ${NATIVE_TRIPLE:-unknown}" ;;
esac
[ -f "${KCFI_PLUGIN:-}" ] || skip "the plugin is not built"
OBJDUMP=${OBJDUMP:-objdump}

# The address (hex, no 0x) of the first instruction matching PATTERN in
# function FN of FILE's disassembly.
insn_in() {
	"$OBJDUMP" -d --no-show-raw-insn "$1" |
		awk -v fn="<$2>:" -v pat="$3" '$2 == fn { on = 1; next } /^$/ { on = 0 }
			on && $0 ~ pat { sub(":", "", $1); print $1; exit }'
}

rewritten "$KCFI_GCC" prog "$A/prog.c" -O2 || { fail "kcfi-gcc/kcfi-as on prog.c"; finish; }
rewritten "$KCFI_GCC" target "$A/target.c" -O2 || { fail "kcfi-gcc/kcfi-as on target.c"; finish; }
as -o "$T/prog.o" "$T/prog.k.s" && as -o "$T/target.o" "$T/target.k.s" ||
	{ fail "assembling the rewritten text"; finish; }

# -- good output ------------------------------------------------------------
GOOD="2 checked, 3 exempt (inline-asm 1, no-sanitize 1, jump-table 1), 0 unchecked, 0 outside instrumented code"
# Functions GCC wrote (every one gets a range record): counted from the
# symbol table, since GCC versions inline and clone differently.
funcs() { readelf -sW "$1" | awk '$4 == "FUNC" && $8 !~ /^(__cfi_|__kcfi_)/' | wc -l; }
NF=$(funcs "$T/prog.o") NF2=$(( NF + $(funcs "$T/target.o") ))

check "prog.o: exit 0, the counts of prog.c" sh -c \
	". '$A/lib.sh'; audited '$T/prog.o' 0 && has_line '$T/prog.o' \
	 '$T/prog.o: x86_64: $GOOD, $NF instrumented functions, 9 preambles, 2 traps, 0 findings'"
check "prog.o: the same through kcfi-gcc -c (kcfi-as runs as the assembler)" sh -c \
	"'$KCFI_GCC' -fsanitize=kcfi -O2 -c -o '$T/prog-c.o' '$A/prog.c' && . '$A/lib.sh' &&
	 audited '$T/prog-c.o' 0 && has_line '$T/prog-c.o' \
	 '$T/prog-c.o: x86_64: $GOOD, $NF instrumented functions, 9 preambles, 2 traps, 0 findings'"
check "with -gz (the record compressed like the DWARF): the same counts" sh -c \
	"'$KCFI_GCC' -fsanitize=kcfi -O2 -g -gz -c -o '$T/prog-gz.o' '$A/prog.c' && . '$A/lib.sh' &&
	 audited '$T/prog-gz.o' 0 && has_line '$T/prog-gz.o' \
	 '$T/prog-gz.o: x86_64: $GOOD, $NF instrumented functions, 9 preambles, 2 traps, 0 findings'"
# objcopy compresses the records with the DWARF in either style: gABI
# (SHF_COMPRESSED) or GNU's legacy one, which keeps the name .debug and
# prefixes the data with "ZLIB".
for z in zlib zlib-gnu; do
	objcopy --compress-debug-sections=$z "$T/prog.o" "$T/prog-$z.o"
	check "objcopy --compress-debug-sections=$z: the same counts" sh -c \
		". '$A/lib.sh'; audited '$T/prog-$z.o' 0 && has_line '$T/prog-$z.o' \
		 '$T/prog-$z.o: x86_64: $GOOD, $NF instrumented functions, 9 preambles, 2 traps, 0 findings'"
done
check "... and the GNU style really compressed them" sh -c \
	"$READELF -x .debug '$T/prog-zlib-gnu.o' | grep -q 'ZLIB'"
ld -r -o "$T/both.o" "$T/prog.o" "$T/target.o"
check "ld -r of prog.o and target.o: exit 0, ten preambles" sh -c \
	". '$A/lib.sh'; audited '$T/both.o' 0 && has_line '$T/both.o' \
	 '$T/both.o: x86_64: $GOOD, $NF2 instrumented functions, 10 preambles, 2 traps, 0 findings'"
"$KCFI_GCC" -fsanitize=kcfi -O2 -shared -fPIC -nostartfiles -o "$T/lib.so" "$A/prog.c" "$A/target.c"
check "a shared library (no start files): exit 0, the same counts" sh -c \
	". '$A/lib.sh'; audited '$T/lib.so' 0 && has_line '$T/lib.so' \
	 '$T/lib.so: x86_64: $GOOD, $NF2 instrumented functions, 10 preambles, 2 traps, 0 findings'"
# The records under the names kcfi-as used before (.debug_kcfi_exempt, placed
# in Linux by a patch of ours; .debug_srcinfo): still read, the same counts.
objcopy --rename-section .debug=.debug_kcfi_exempt "$T/prog.o" "$T/oldname.o"
objcopy --rename-section .debug=.debug_srcinfo "$T/prog.o" "$T/srcinfo.o"
for o in oldname srcinfo; do
	check "the records under the old section name of $o.o: exit 0, the same counts" sh -c \
		". '$A/lib.sh'; audited '$T/$o.o' 0 && has_line '$T/$o.o' \
		 '$T/$o.o: x86_64: $GOOD, $NF instrumented functions, 9 preambles, 2 traps, 0 findings'"
done
# strip --strip-debug takes the records with the DWARF: the calls kcfi-as
# exempted on purpose now count as outside instrumented code, and one line
# says why (a file as built never gets that line).
strip --strip-debug -o "$T/stripped.o" "$T/prog.o"
"$AUDIT" "$T/stripped.o" > "$T/stripped.out" 2>&1
echo "status $?" >> "$T/stripped.out"
check "stripped of its debug sections: exit 0, the exempt calls counted outside, one line naming strip" sh -c \
	"grep -qx 'status 0' '$T/stripped.out' &&
	 grep -q '^$T/stripped.o: x86_64: 2 checked, 0 exempt (), 0 unchecked, 3 outside instrumented code, 0 instrumented functions, ' '$T/stripped.out' &&
	 grep -qx '$T/stripped.o: x86_64: KCFI checks but no .debug records: built by another compiler, or stripped of its debug sections (strip --strip-debug, INSTALL_MOD_STRIP=1); the 3 branches outside instrumented code may include calls kcfi-as left unchecked on purpose: audit the file as built' '$T/stripped.out'"
check "as built: no such line" sh -c "! '$AUDIT' '$T/prog.o' | grep -q 'no .debug records'"
check "stripped: nothing can be judged lost, so --strict alone fails it" sh -c \
	". '$A/lib.sh'; uncounted_only '$T/stripped.o' 3"
# A linker script that places only what binutils' default script places (no
# rule of ours), orphans reported as Linux reports them (an error under
# CONFIG_WERROR): the records are no orphan and reach the output, where the
# old name was one.  (.kcfi_traps is Linux's to place, an orphan here.)
ld --verbose | sed -n '/^=======/,/^=======/p' | sed '1d;$d' > "$T/stock.ld"
for o in prog oldname; do
	ld -o "$T/stock-$o" -T "$T/stock.ld" --orphan-handling=warn --unresolved-symbols=ignore-all \
		-e 0 "$T/$o.o" 2> "$T/stock-$o.err"
done
check "a link with the stock script: the records are no orphan and reach the output" sh -c \
	"grep -q 'orphan section .\\.kcfi_traps' '$T/stock-prog.err' &&
	 ! grep -q 'orphan section .\\.debug.' '$T/stock-prog.err' &&
	 [ \"\$(readelf -SW '$T/stock-prog' | grep -c ' \\.debug ')\" = 1 ]"
check "the same link with the old section name: an orphan" \
	grep -q 'orphan section .\.debug_kcfi_exempt' "$T/stock-oldname.err"
check "an object built without -fsanitize=kcfi: its calls are named, as outside instrumented code" sh -c \
	"gcc -O2 -w -c -o '$T/plain.o' '$A/prog.c' && . '$A/lib.sh' && uncounted_only '$T/plain.o' 9 &&
	 grep -q '<apply>: indirect call .* outside the code kcfi-as instrumented (assembly source, or built without -fsanitize=kcfi)\$' '$T/plain.o.audit' &&
	 grep -q ': 0 checked, 0 exempt (), 0 unchecked, 5 outside instrumented code, 0 instrumented functions, ' '$T/plain.o.audit'"
# A hand-written function in the same object: outside, the C code checked.
cat "$T/prog.k.s" > "$T/mixed.s"
printf '\t.text\n\t.globl\thand\n\t.type\thand, @function\nhand:\n\tjmp\t*%%rdi\n\t.size\thand, 2\n' >> "$T/mixed.s"
as -o "$T/mixed.o" "$T/mixed.s"
hand=$(nm "$T/mixed.o" | awk '$3 == "hand" { print $1 }')
check "hand-written assembly next to C: named as outside, the rest holds" sh -c \
	". '$A/lib.sh'; uncounted_only '$T/mixed.o' 1 && has_line '$T/mixed.o' \
	 \"$T/mixed.o: .text+$(hex "$hand") <hand>: indirect jump 'jmp rdi' outside the code kcfi-as instrumented (assembly source, or built without -fsanitize=kcfi)\" &&
	 grep -q ': 2 checked, 3 exempt (inline-asm 1, no-sanitize 1, jump-table 1), 0 unchecked, 1 outside instrumented code, $NF instrumented functions, ' '$T/mixed.o.audit'"

# Code past the end of the last function symbol, under a label with no
# type (Linux's head_64.S: SYM_CODE_START_LOCAL(common_startup_64) follows
# load_trampoline_pgtable and holds call *initial_code(%rip)): named by
# that label, not by the function before it.
printf '\t.text\n\t.globl\tsized\n\t.type\tsized, @function\nsized:\n\tret\n\t.size\tsized, 1\nuntyped_code:\n\txorl\t%%ebp, %%ebp\n\tcall\t*initial(%%rip)\n\tud2\n\t.data\ninitial:\n\t.quad\tsized\n' > "$T/untyped.s"
as -o "$T/untyped.o" "$T/untyped.s"
check "a branch under an untyped label after a function: named by the label" sh -c \
	". '$A/lib.sh'; uncounted_only '$T/untyped.o' 2 &&
	 grep -q \"^$T/untyped.o: .text+0x3 <untyped_code>: indirect call 'call qword ptr \\[rip\\]' outside the code kcfi-as instrumented\" '$T/untyped.o.audit'"

# -- a check removed by hand ------------------------------------------------
# apply's check: the four instructions from its movl to its ud2 (labels and
# the .kcfi_traps entry stay, so that entry now names the call).
awk '/^\tmovl\t\$[0-9]+, %r10d$/ && !done { skip = 1 }
     skip && /^\tud2$/ { skip = 0; done = 1; next }
     skip && /^\t/ { next } { print }' "$T/prog.k.s" > "$T/nocheck.s"
as -o "$T/nocheck.o" "$T/nocheck.s"
# The register apply's call goes through (its check reads it: doc/abi.md 1).
areg=$(sed -n 's/^	addl	-[0-9]*(%\([a-z0-9]*\)), %r10d$/\1/p' "$T/prog.k.s" | head -1)
call=$(insn_in "$T/nocheck.o" apply "call +\\\\*%$areg")
check "check removed: the bare call is named, exit 1" sh -c \
	". '$A/lib.sh'; audited '$T/nocheck.o' 1 && has_line '$T/nocheck.o' \
	 \"$T/nocheck.o: .text+$(hex "$call") <apply>: indirect call 'call $areg' without a KCFI check\""
check "check removed: its orphaned .kcfi_traps entry is named" has_line "$T/nocheck.o" \
	"$T/nocheck.o: .text+$(hex "$call") <apply>: a .kcfi_traps entry points here, at no ud2"
check "check removed: one unchecked, two findings" sh -c \
	"grep -q ': 1 checked, .*, 1 unchecked, .*, 2 findings\$' '$T/nocheck.o.audit' &&
	 [ \$(. '$A/lib.sh'; findings '$T/nocheck.o') -eq 2 ]"

# -- with -g: the finding names the source line -----------------------------
rewritten "$KCFI_GCC" progg "$A/prog.c" -O2 -g
awk '/^\tmovl\t\$[0-9]+, %r10d$/ && !done { skip = 1 }
     skip && /^\tud2$/ { skip = 0; done = 1; next }
     skip && /^\t/ { next } { print }' "$T/progg.k.s" > "$T/nocheckg.s"
as -o "$T/nocheckg.o" "$T/nocheckg.s"
callg=$(insn_in "$T/nocheckg.o" apply "call +\\\\*%$areg")
line=$(grep -n 'return f(x) + 3;' "$A/prog.c" | cut -d: -f1)
check "check removed, -g: the finding has prog.c's line" sh -c \
	". '$A/lib.sh'; audited '$T/nocheckg.o' 1 && grep -qxE \
	 \"$T/nocheckg.o: \\.text\\+$(hex "$callg") <apply> \\(.*prog\\.c:$line\\): indirect call 'call $areg' without a KCFI check\" '$T/nocheckg.o.audit'"

# -- an exemption record removed --------------------------------------------
grep -v '^	\.quad	\.Lkcfi_exempt\([0-9]*\), \.Lkcfi_exempt\1, 2$' "$T/prog.k.s" > "$T/noexempt.s"
as -o "$T/noexempt.o" "$T/noexempt.s"
rawcall=$(insn_in "$T/noexempt.o" raw 'call +\\*%')
check "no_sanitize record removed: raw's call is named" sh -c \
	". '$A/lib.sh'; audited '$T/noexempt.o' 1 && grep -qxE \
	 \"$T/noexempt.o: \\.text\\+$(hex "$rawcall") <raw>: indirect call 'call r[a-z0-9]+' without a KCFI check\" '$T/noexempt.o.audit'"
check "no_sanitize record removed: exempt 2 (inline-asm, jump-table), 1 unchecked" \
	grep -q ': 2 checked, 2 exempt (inline-asm 1, jump-table 1), 1 unchecked, ' "$T/noexempt.o.audit"

# -- a preamble with the wrong id --------------------------------------------
# target.c's preamble says ext_target is void (void); prog.c's
# __kcfi_typeid_ext_target says int (int).
VV=$(printf '%u' "$(fnv1a _ZTSFvvE)") II=$(fnv1a _ZTSFiiE)
sed "s/^	movl	\\\$$(printf '%u' "$II"), %eax\$/	movl	\$$VV, %eax/" "$T/target.k.s" > "$T/badid.s"
check "wrong id: the edit took" sh -c "! cmp -s '$T/target.k.s' '$T/badid.s'"
as -o "$T/badid.o" "$T/badid.s" && ld -r -o "$T/badid-both.o" "$T/prog.o" "$T/badid.o"
ext=$(nm "$T/badid-both.o" | awk '$3 == "ext_target" { print $1 }')
check "wrong id: ext_target's preamble is named against __kcfi_typeid_ext_target" sh -c \
	". '$A/lib.sh'; audited '$T/badid-both.o' 1 && has_line '$T/badid-both.o' \
	 '$T/badid-both.o: .text+$(hex "$ext") <ext_target>: preamble id $(fnv1a _ZTSFvvE) differs from __kcfi_typeid_ext_target = $II'"

# -- a .kcfi_traps entry beside its trap -------------------------------------
sed 's/^	\.long	\.Lkcfi1_trap-\.Lkcfi1_entry$/	.long	.Lkcfi1_trap-.Lkcfi1_entry-2/' "$T/prog.k.s" > "$T/badtrap.s"
as -o "$T/badtrap.o" "$T/badtrap.s"
ud2=$(insn_in "$T/badtrap.o" run 'ud2')
jmp=$(insn_in "$T/badtrap.o" run 'jmp +\\*%r[a-z0-9]+')
check "trap entry moved: the place it names is no ud2" sh -c \
	". '$A/lib.sh'; audited '$T/badtrap.o' 1 && has_line '$T/badtrap.o' \
	 '$T/badtrap.o: .text+$(hex "$(printf '%x' $((0x$ud2 - 2)))") <run>: a .kcfi_traps entry points here, at no ud2'"
check "trap entry moved: run's check has its ud2 unlisted" has_line "$T/badtrap.o" \
	"$T/badtrap.o: .text+$(hex "$jmp") <run>: the ud2 of its KCFI check (.text+$(hex "$ud2")) is not listed in .kcfi_traps"

# -- a check guarding another register ---------------------------------------
# run's tail call: the check reads the register, the jump then goes
# through another.
rreg=$(sed -n '/^\.Lkcfi1_call:$/{n;s/^	jmp	\*%\([a-z0-9]*\)$/\1/p}' "$T/prog.k.s")
other=rsi; [ "$rreg" != rsi ] || other=rdx
sed "/^\.Lkcfi1_call:\$/{n;s/^	jmp	\*%$rreg\$/	jmp	*%$other/}" "$T/prog.k.s" > "$T/badreg.s"
check "badreg: the edit took" sh -c "! cmp -s '$T/prog.k.s' '$T/badreg.s'"
as -o "$T/badreg.o" "$T/badreg.s"
jother=$(insn_in "$T/badreg.o" run "jmp +\\\\*%$other")
check "check before a branch through another register: named" sh -c \
	". '$A/lib.sh'; audited '$T/badreg.o' 1 && has_line '$T/badreg.o' \
	 \"$T/badreg.o: .text+$(hex "$jother") <run>: indirect jump 'jmp $other': the KCFI check in front of it tests %$rreg, but the branch does not go through %$rreg\""

# -- a check that reads its scratch -----------------------------------------
# "addl -4(%r10), %r10d" reads through what the movl just overwrote: no check.
sed "/^	addl	-4(%$areg), %r10d\$/{s//	addl	-4(%r10), %r10d/;:a;n;s/^	call	\*%$areg\$/	call	*%r10/;Ta}" \
	"$T/prog.k.s" > "$T/scratch.s"
check "scratch: the edit took" sh -c "grep -q 'call	\*%r10\$' '$T/scratch.s' && grep -q 'addl	-4(%r10)' '$T/scratch.s'"
as -o "$T/scratch.o" "$T/scratch.s"
c10=$(insn_in "$T/scratch.o" apply 'call +\\*%r10')
check "a check through %r10 is no check: the call is named" sh -c \
	". '$A/lib.sh'; audited '$T/scratch.o' 1 && has_line '$T/scratch.o' \
	 \"$T/scratch.o: .text+$(hex "$c10") <apply>: indirect call 'call r10' without a KCFI check\""

# -- an address taken only by code, in a linked program -----------------------
# A linked program keeps no relocation for "lea f(%rip)" (PIE) or "mov $f"
# (non-PIE): the decoder reports what the code loads.  taken_plain has no
# preamble (built without KCFI); the finding must name main's instruction,
# whose offset in .text comes from objdump and readelf here.
echo 'int taken_plain(int x) { return x + 1; }' > "$T/plain-fn.c"
gcc -O2 -c -o "$T/plain-fn.o" "$T/plain-fn.c"
# A static program keeps a loaded .rela.plt (IRELATIVE) against .got: the
# dynamic relocations, which say nothing about the code.
for mode in pie nopie static; do
	case $mode in pie) fl="-fPIE -pie" pat='lea .*<taken_plain>' ;;
	nopie) fl="-fno-pie -no-pie" pat='mov.*[$]0x[0-9a-f]+,' ;;
	static) fl=-static pat='(lea .*<taken_plain>|mov.*[$]0x[0-9a-f]+,)' ;; esac
	# shellcheck disable=SC2086
	"$KCFI_GCC" -fsanitize=kcfi -O2 $fl -o "$T/taker-$mode" "$A/taker.c" "$T/plain-fn.o"
	at=$(insn_in "$T/taker-$mode" main "$pat")
	text=$(readelf -SW "$T/taker-$mode" | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == ".text" { print $3 }')
	fn=$(nm "$T/taker-$mode" | awk '$3 == "taken_plain" { print $1 }')
	check "$mode: taken_plain's address taken by main's code, no preamble: named with the instruction" sh -c \
		"[ -n '$at' ] && [ -n '$text' ] && . '$A/lib.sh' && audited '$T/taker-$mode' 0 &&
		 grep -qx '$T/taker-$mode: .text+$(printf '0x%x' $((0x${fn:-0} - 0x${text:-0}))) <taken_plain>: address taken (.text+$(printf '0x%x' $((0x${at:-0} - 0x${text:-0})))) but no KCFI preamble' '$T/taker-$mode.audit'"
done

# -- a weak definition that another unit's replaces ---------------------------
# Linux's kernel/sys_ni.c defines weak __x64_sys_* stubs that the real ones
# replace.  The weak unit's range record must start at its own code, not at
# the function's name, which the linker binds to the other unit's
# definition: a range from that one to the weak unit's end would cover the
# hand-written code linked between them (ibt_selftest in a defconfig
# vmlinux), whose unchecked jump is then no longer "outside".
printf 'int wk(int x) { return x + 1; }\n' > "$T/strong.c"
printf '__attribute__((weak)) int wk(int x) { return x - 1; }\nint wk_use(int (*p)(int)) { return p(2); }\n' > "$T/weak.c"
printf '\t.text\n\t.globl hand\n\t.type hand, @function\nhand:\n\tjmp *%%rax\n\t.size hand, .-hand\n\t.section .note.GNU-stack,"",@progbits\n' > "$T/hand.s"
"$KCFI_GCC" -fsanitize=kcfi -O2 -c -o "$T/strong.o" "$T/strong.c" &&
	"$KCFI_GCC" -fsanitize=kcfi -O2 -c -o "$T/weak.o" "$T/weak.c" && as -o "$T/hand.o" "$T/hand.s" &&
	ld -r -o "$T/weakover.o" "$T/strong.o" "$T/hand.o" "$T/weak.o"
check "weak definition replaced: the hand-written jump between is outside, not unchecked" sh -c \
	". '$A/lib.sh'; uncounted_only '$T/weakover.o' 1 &&
	 grep -q '<hand>: indirect jump .jmp rax. outside the code kcfi-as instrumented' '$T/weakover.o.audit' &&
	 grep -q ': 1 checked, 0 exempt (), 0 unchecked, 1 outside instrumented code, ' '$T/weakover.o.audit'"

# -- the exit status of each class (doc/kcfi-audit.md 1, "Exit status") -------
# Good output passes --strict too; what means a lost or forged check exits
# 1 with or without it; what lies outside instrumented code (above) exits 0
# unless --strict.
check "good output: --strict exits 0 as well, no line about uncounted findings" sh -c \
	". '$A/lib.sh'; audited '$T/prog.o' 0 --strict && ! grep -q 'counted in the exit status' '$T/prog.o.audit'"
check "plain gcc's object: its functions without preambles are named and not counted either" sh -c \
	"[ \$(grep -c '<[a-z_]*>: address taken (.*) but no KCFI preamble\$' '$T/plain.o.audit') -eq 4 ] &&
	 grep -q ': 9 findings not counted in the exit status (--strict counts them): 5 indirect branches outside instrumented code (assembly source, or built without -fsanitize=kcfi), 4 functions whose address is taken without a preamble (a checked call of one traps)\$' '$T/plain.o.audit'"
for o in nocheck badid-both badtrap badreg; do
	check "$o.o: exit 1 under --strict too, and no line about uncounted findings" sh -c \
		". '$A/lib.sh'; audited '$T/$o.o' 1 --strict && ! grep -q 'counted in the exit status' '$T/$o.o.audit'"
done
# A function kcfi-as instrumented whose preamble is gone (the __cfi_ symbol
# and its bytes), its address taken by prog.c's table: named, but it fails
# closed (a checked call of it traps), so only --strict counts it, as for
# the start files' functions and constructors without one.
awk '/^\t\.globl\t__cfi_inc$/ { skip = 1 } skip && /^\t\.size\t__cfi_inc, / { skip = 0; next }
     !skip' "$T/prog.k.s" > "$T/nopre.s"
as -o "$T/nopre.o" "$T/nopre.s"
inc=$(nm "$T/nopre.o" | awk '$3 == "inc" { print $1 }')
check "an instrumented function's preamble removed: named, exit 0 (1 under --strict)" sh -c \
	"[ -n '$inc' ] && . '$A/lib.sh' && uncounted_only '$T/nopre.o' 1 &&
	 grep -qx '$T/nopre.o: .text+$(hex "${inc:-0}") <inc>: address taken (.data[.a-z]*+0x0) but no KCFI preamble' '$T/nopre.o.audit' &&
	 grep -q ': 1 finding not counted in the exit status (--strict counts them): 1 function whose address is taken without a preamble (a checked call of it traps)\$' '$T/nopre.o.audit'"
# Malformed records, appended to the rewritten text: a record of an unknown
# reason, a type name record of no length, a section cut mid-record.
for bad in reason name cut; do
	cp "$T/prog.k.s" "$T/rec-$bad.s"
	case $bad in
	reason) printf '\t.text\n.Lbad:\n\tnop\n\t.pushsection\t.debug,"",%%progbits\n\t.balign\t8\n\t.quad\t.Lbad, .Lbad, 40\n\t.popsection\n' ;;
	name) printf '\t.pushsection\t.debug,"",%%progbits\n\t.balign\t8\n\t.quad\t0x1234, 0, 65\n\t.popsection\n' ;;
	cut) printf '\t.pushsection\t.debug,"",%%progbits\n\t.balign\t8\n\t.quad\t0\n\t.popsection\n' ;;
	esac >> "$T/rec-$bad.s"
	as -o "$T/rec-$bad.o" "$T/rec-$bad.s" || fail "assembling rec-$bad.s"
done
check "a record of an unknown reason: named, exit 1" sh -c \
	". '$A/lib.sh'; audited '$T/rec-reason.o' 1 &&
	 grep -q '^$T/rec-reason.o: .text+0x[0-9a-f]* <[a-z_]*>: .debug record with unknown reason 40\$' '$T/rec-reason.o.audit'"
check "a type name record of no length: malformed, exit 1" sh -c \
	". '$A/lib.sh'; audited '$T/rec-name.o' 1 &&
	 grep -q '^$T/rec-name.o: .debug+0x[0-9a-f]* <?>: malformed type name record in .debug\$' '$T/rec-name.o.audit'"
check "a section cut mid-record: named, exit 1" sh -c \
	". '$A/lib.sh'; audited '$T/rec-cut.o' 1 &&
	 grep -q ': .debug is [0-9]* bytes, not a whole number of 24-byte records\$' '$T/rec-cut.o.audit'"
# -q: the summary lines, the one about outside findings with them.
check "-q: the summary and the line about uncounted findings only" sh -c \
	"'$AUDIT' -q '$T/mixed.o' > '$T/mixed.q'; [ \$? -eq 0 ] && [ \$(wc -l < '$T/mixed.q') -eq 2 ] &&
	 grep -qx '$T/mixed.o: x86_64: 1 finding not counted in the exit status (--strict counts them): 1 indirect branch outside instrumented code (assembly source, or built without -fsanitize=kcfi)' '$T/mixed.q'"
# Several files: the worst status wins; --strict applies to each.
check "several files: exit 1 if one has a lost check, 0 if only outside findings" sh -c \
	"'$AUDIT' -q '$T/prog.o' '$T/mixed.o' >/dev/null; [ \$? -eq 0 ] &&
	 { '$AUDIT' -q '$T/mixed.o' '$T/nocheck.o' >/dev/null; [ \$? -eq 1 ]; } &&
	 { '$AUDIT' -q --strict '$T/prog.o' '$T/mixed.o' >/dev/null; [ \$? -eq 1 ]; }"

# -- usage and unreadable files ----------------------------------------------
check "no such file: exit 2, the message names it" sh -c \
	"'$AUDIT' '$T/none.o' 2>'$T/none.err'; [ \$? -eq 2 ] && grep -q '^kcfi-audit: $T/none.o: error: ' '$T/none.err'"
check "not ELF: exit 2, the message names it" sh -c \
	"'$AUDIT' '$A/prog.c' 2>'$T/text.err'; [ \$? -eq 2 ] && grep -qx 'kcfi-audit: $A/prog.c: error: not an ELF file' '$T/text.err'"
finish
