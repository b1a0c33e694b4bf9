#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-audit --explain LOG FILE... (doc/kcfi-audit.md 7): canned kernel
# consoles of every form, written from the kernels' format strings
# (kernel/cfi.c, arch/x86/kernel/cfi.c and alternative.c, dumpstack.c,
# panic.c, arm64/riscv traps, our arm patch in boot/patches/6.12), each
# naming places computed from a file built here from explain.c, whose
# calls each reach a function of another type (a cast in an ops table's
# static initializer, a pointer through void *, a union).  The explainer
# must name the caller's source line, the expected and actual prototypes
# and their difference.  x86_64 kCFI (6.12, 6.1, cfi=norand, trapping,
# permissive, timestamps, journal and syslog prefixes, a module), FineIBT
# (the caller from the call trace, a randomized id), arm64, riscv64, arm;
# the line to fix from the plugin's KCFI_CONVERSION records (and from
# records assembled by hand, in a build without the plugin's); and every
# bad input: no
# report, a cut report, no records, no DWARF, a module not given, an id
# no record names, a log that is not text, files that are no ELF.
. "$top_srcdir/tests/audit/lib.sh"
case ${NATIVE_TRIPLE:-} in
x86_64-*) ;;
*) skip "x86_64 code, not ${NATIVE_TRIPLE:-unknown}" ;;
esac
[ -f "${KCFI_PLUGIN:-}" ] || skip "the plugin is not built"
SRC=$A/explain.c

# line_of MARK: the line of explain.c holding MARK.
line_of() { grep -n -- "$1" "$SRC" | head -1 | cut -d: -f1; }
PUT=$(line_of 'CALL put') GET=$(line_of 'CALL get') VOID=$(line_of 'CALL void')
UNION=$(line_of 'CALL union') ADD_ONE=$(line_of '^int add_one') GET_TWO=$(line_of '^static long get_two')
LAST=$(line_of '^static unsigned char last')
CONV_PUT=$(line_of '\.put = ') CONV_GET=$(line_of '\.get = ') CONV_UNION=$(line_of 'u\.i = add_one')
# fixes NAME FILE:LINE KIND CONTEXT FN TYPE: that line is among the lines to fix.
fixes() {
	grep -A4 '^  the line to fix (kcfi-as.s conversion records):' "$T/$1.out" |
		grep -qE "^    .*$2: $3 in $4: $5 taken as $6\$" ||
		{ echo "no line to fix $2 ($3 in $4)"; cat "$T/$1.out"; false; }
}

# frame PREFIX FILE FUNC trap|ret: "FUNC+0xOFF/0xSIZE" of the trap of the
# check in FUNC, or of the return address of the call behind it (x86).
frame() {
	fr=$("${1}objdump" -d --no-show-raw-insn "$2" | awk -v fn="<$3>:" -v what="$4" '
		$2 == fn { on = 1; start = $1; next }
		/^$/ || $2 ~ /^<\.L/ { next }	# local labels (riscv objects keep them)
		on && /^[0-9a-f]+ </ { exit }
		on && n == 0 && $2 ~ /^(ud2|brk|ebreak|bkpt)$/ {
			n = 1; if (what == "trap") { print start, $1; exit }; next }
		on && n == 1 { n = 2; next }
		on && n == 2 { print start, $1; exit }')
	fr_fn=$3
	set -- $fr "$1" "$2" "$3"
	[ $# -eq 5 ] || { echo "no trap in $fr_fn"; return 1; }
	size=$("${3}nm" -S "$4" | awk -v f="$5" '$4 == f { print $2; exit }')
	printf '%s+0x%x/0x%x\n' "$5" $((0x${2%:} - 0x$1)) $((0x$size))
}
# id FILE FUNC: the id of FUNC's x86 preamble (the movl after __cfi_FUNC).
preamble_id() {
	objdump -d "$1" | awk -v fn="<__cfi_$2>:" '$0 ~ fn { on = 1 } on && /mov +\$0x/ {
		sub(/.*\$/, ""); sub(/,.*/, ""); print; exit }'
}

# explained NAME WANT-STATUS LOG FILE...: kcfi-audit --explain into $T/NAME.out.
explained() {
	ex_n=$1 ex_want=$2
	shift 2
	"$AUDIT" --explain "$@" > "$T/$ex_n.out" 2>&1
	ex_rc=$?
	[ $ex_rc -eq "$ex_want" ] || { echo "exit status $ex_rc, want $ex_want:"; cat "$T/$ex_n.out"; return 1; }
}
# says NAME ERE: $T/NAME.out has a line matching ERE.
says() { grep -qE -- "$2" "$T/$1.out" || { echo "no line: $2"; cat "$T/$1.out"; false; }; }
# explains NAME CALLER LINE EXPECTED TARGET ACTUAL DIFF...: the whole story.
explains() {
	es_n=$1 es_caller=$2 es_line=$3 es_exp=$4 es_tgt=$5 es_act=$6
	shift 6
	says "$es_n" "^  caller: $es_caller, the indirect call at .*explain\\.c:$es_line " &&
		says "$es_n" "^  the call expects: $es_exp  \\[_ZTS" &&
		says "$es_n" "^  target: $es_tgt, defined at .*explain\\.c:[0-9]+ " &&
		says "$es_n" "^  $es_tgt is: $es_act  \\[_ZTS" &&
		for d in "$@"; do says "$es_n" "^    $d\$" || return 1; done
}

"$KCFI_GCC" -fsanitize=kcfi -g -O2 -o "$T/prog" "$SRC" &&
	"$KCFI_GCC" -fsanitize=kcfi -g -O2 -c -o "$T/mod.o" "$SRC" &&
	mkdir -p "$T/lib/modules/kernel/drivers" &&
	ld -r -o "$T/lib/modules/kernel/drivers/expl-mod.ko" "$T/mod.o" &&
	"$KCFI_GCC" -fsanitize=kcfi -fplugin-arg-kcfi-no-conversions -g -O2 -o "$T/prog-noconv" "$SRC" ||
	{ fail "kcfi-gcc on explain.c"; finish; }
KO=$T/lib/modules/kernel/drivers/expl-mod.ko
P_PUT=$(frame "" "$T/prog" call_put trap)
P_GET=$(frame "" "$T/prog" call_get trap)
P_UNION=$(frame "" "$T/prog" call_union trap)
R_VOID=$(frame "" "$T/prog" call_void ret)
M_GET=$(frame "" "$KO" call_get trap)
ID_PUT=$(objdump -d "$T/prog" | awk '/<call_put>:/ { on = 1 } on && /mov +\$0x[0-9a-f]+,%r10d/ {
	sub(/.*\$0x/, ""); sub(/,.*/, ""); print; exit }')
ID_PUT=$(printf '0x%08x' $(( (0x100000000 - 0x$ID_PUT) & 0xffffffff )))

# 1. x86_64 kCFI, Linux 6.12, trapping, cfi=norand (the printed id is the
#    file's), with timestamps: the ops table's cast.
cat > "$T/kcfi.log" <<EOF
[    0.000000] Linux version 6.12.38 (kcfi-gcc) #1 SMP PREEMPT_DYNAMIC
[    0.000000] Command line: console=ttyS0 cfi=norand
[   12.345678] CFI failure at $P_PUT (target: add_one+0x0/0x4; expected type: $ID_PUT)
[   12.345901] Oops: invalid opcode: 0000 [#1] PREEMPT SMP NOPTI
[   12.346012] CPU: 0 UID: 0 PID: 1 Comm: init Not tainted 6.12.38 #1
[   12.346120] RIP: 0010:$P_PUT
[   12.346230] Code: 48 89 c7 ...
[   12.346544] Call Trace:
[   12.346560]  <TASK>
[   12.346601]  ? die+0x36/0x90
[   12.346700]  main+0x33/0x60
[   12.346800]  </TASK>
EOF
check "x86_64 kCFI 6.12, cfi=norand: the ops table's call explained" explained kcfi 0 "$T/kcfi.log" "$T/prog"
check "  ... the call line, void (int *) against int (long), return and parameter 1" explains kcfi \
	call_put "$PUT" 'void \(int \*\)' add_one 'int \(long\)' \
	'return: the call expects void, add_one returns int' \
	'parameter 1: the call passes int \*, add_one takes long'
check "  ... the target's definition line" says kcfi "^  target: add_one, defined at .*explain\\.c:$ADD_ONE "
check "  ... trapping, the printed id is the file's (no re-randomization note)" sh -c \
	"grep -q '^  kernel: x86_64 kCFI, trapping' '$T/kcfi.out' && ! grep -q 'kernel printed' '$T/kcfi.out'"
check "  ... the line to fix: the cast in the table's initializer" \
	fixes kcfi "explain\\.c:$CONV_PUT" init table add_one 'void \(int \*\)'
check "  ... and the union's store of the same function" \
	fixes kcfi "explain\\.c:$CONV_UNION" union main add_one 'void \(int \*\)'
check "built without conversion records: the rest explained, exit 1" \
	explained noconv 1 "$T/kcfi.log" "$T/prog-noconv"
check "  ... said what cannot be said" \
	says noconv '^  the line to fix: unknown: no file read holds conversion records'

# 2. Linux 6.1, permissive, from journalctl -k, in a module found in a
#    modules directory ('-' in the file name, '_' in the log), the id
#    re-randomized at boot.
cat > "$T/perm.log" <<EOF
Jan 12 10:00:01 host kernel: CFI failure at $M_GET [expl_mod] (target: get_two+0x0/0x8 [expl_mod]; expected type: 0x0badc0de)
Jan 12 10:00:01 host kernel: WARNING: CPU: 1 PID: 230 at $M_GET [expl_mod]
Jan 12 10:00:01 host kernel: Modules linked in: expl_mod(E)
Jan 12 10:00:01 host kernel: RIP: 0010:$M_GET [expl_mod]
Jan 12 10:00:01 host kernel: Call Trace:
Jan 12 10:00:01 host kernel:  <TASK>
Jan 12 10:00:01 host kernel:  do_one_initcall+0x41/0x200
Jan 12 10:00:01 host kernel: ---[ end trace 0000000000000000 ]---
EOF
check "x86_64 kCFI 6.1, permissive, journal prefix, module in a directory" \
	explained perm 0 "$T/perm.log" "$T/prog" "$T/lib/modules"
check "  ... call_get in expl-mod.ko, parameter 2 differs" explains perm \
	call_get "$GET" 'long \(long, unsigned long\)' get_two 'long \(long, int\)' \
	'parameter 2: the call passes unsigned long, get_two takes int'
check "  ... the line to fix: the module's table" \
	fixes perm "explain\\.c:$CONV_GET" init table get_two 'long \(long, unsigned long\)'
check "  ... the module's file named" says perm "^  caller: call_get, .*\\(.*expl-mod\\.ko: "
check "  ... permissive" says perm '^  kernel: x86_64 kCFI, permissive'
check "  ... the printed id is not the file's: re-randomized, said so" \
	says perm '^  \(the kernel printed 0x0badc0de, which the file.s check does not hold: x86 re-randomizes'

# 3. FineIBT: the trap is in last's preamble; the caller, call_void, is
#    the call trace's first reliable frame (a return address); the id is
#    a random one that no record names.
cat > "$T/fineibt.log" <<EOF
<4>[    8.100000] CFI failure at __cfi_last+0xd/0x10 (target: last+0x0/0x10; expected type: 0x5eed1234)
<4>[    8.100010] Oops: invalid opcode: 0000 [#1] PREEMPT SMP NOPTI
<4>[    8.100020] RIP: 0010:__cfi_last+0xd/0x10
<4>[    8.100030] Call Trace:
<4>[    8.100031]  <TASK>
<4>[    8.100032]  ? __die_body+0x1b/0x60
<4>[    8.100033]  ? do_error_trap+0x6a/0x90
<4>[    8.100034]  ? __cfi_last+0xd/0x10
<4>[    8.100035]  ? asm_exc_invalid_op+0x16/0x20
<4>[    8.100036]  $R_VOID
<4>[    8.100037]  main+0x40/0x60
EOF
check "x86_64 FineIBT: the caller from the call trace, through void *" \
	explained fineibt 1 "$T/fineibt.log" "$T/prog"
check "  ... call_void's line, void (int *) against unsigned char (const char *, ...)" explains fineibt \
	call_void "$VOID" 'void \(int \*\)' last 'unsigned char \(const char \*, \.\.\.\)' \
	'return: the call expects void, last returns unsigned char' \
	'parameter 1: the call passes int \*, last takes const char \*' \
	'variadic: the call passes no more arguments, last takes more \(\.\.\.\)'
check "  ... FineIBT named" says fineibt '^  kernel: x86_64 FineIBT, trapping'
check "  ... the random id matches nothing, said so" says fineibt 'kernel printed 0x5eed1234'

# 4. KCFI_CONVERSION records (common/exempt.h) assembled by hand, in a
#    program built without the plugin's: one of add_one to the call's type
#    (the line to fix) and one to another type.
FN_ID=$(fnv1a _ZTSFilE) PTR_ID=$(fnv1a _ZTSFvPiE) OTHER_ID=$(fnv1a _ZTSFvvE)
conv() {	# FN-ID PTR-ID STRINGS...: one record and its strings
	cv_ids=$(printf '0x%08x%08x' $(($2)) $(($1)))
	shift 2
	cv_s=$(printf '%s\\000' "$@")	# three digits: a line number follows
	cv_len=$(printf "$cv_s" | wc -c)
	cv_n=$(( (cv_len + 23) / 24 ))
	printf '\t.quad %s, %d, 66\n\t.ascii "%s"\n\t.zero %d\n' "$cv_ids" "$cv_n" "$cv_s" \
		$((cv_n * 24 - cv_len))
}
{
	printf '\t.section .note.GNU-stack,"",@progbits\n'
	printf '\t.section .debug,"",@progbits\n\t.quad 0, 0, 0\n'
	conv "$FN_ID" "$OTHER_ID" add_one _ZTSFilE _ZTSFvvE explain.c 77 main assign
	conv "$FN_ID" "$PTR_ID" add_one _ZTSFilE _ZTSFvPiE explain.c 35 table init
} > "$T/conv.s"
as -o "$T/conv.o" "$T/conv.s" &&
	"$KCFI_GCC" -fsanitize=kcfi -fplugin-arg-kcfi-no-conversions -g -O2 -o "$T/prog-conv" "$SRC" "$T/conv.o" ||
	fail "linking hand-made conversion records"
P_PUT_C=$(frame "" "$T/prog-conv" call_put trap)
sed "s|$P_PUT|$P_PUT_C|g" "$T/kcfi.log" > "$T/conv.log"
check "conversion records: exit 0, all explained" explained conv 0 "$T/conv.log" "$T/prog-conv"
check "  ... the line to fix: the record to the call's type" sh -c \
	"grep -A1 '^  the line to fix (kcfi-as.s conversion records):' '$T/conv.out' |
	 grep -qx '    explain.c:35: init in table: add_one taken as void (int \\*)'"
check "  ... not the one to another type" sh -c "! grep -q 'explain.c:77' '$T/conv.out'"
check "  ... kcfi-audit still audits the file (records skipped, not taken for exemptions)" sh -c \
	"'$AUDIT' '$T/prog-conv' | tail -1 | grep -q ' 0 unchecked, '"
printf '\t.section .debug,"",@progbits\n\t.quad 0, 0, 0\n\t.quad 1, 1, 66\n\t.ascii "add_one\\0_ZTSFilE\\0"\n\t.zero 6\n' > "$T/badconv.s"
as -o "$T/badconv.o" "$T/badconv.s"
check "a malformed conversion record is a finding" sh -c \
	"'$AUDIT' '$T/badconv.o' | grep -q 'malformed conversion record in .debug'"

# 5. Other architectures, each with its kernel's wording.
cross() {	# TRIPLE NAME: build explain.c for TRIPLE into $T/NAME
	[ -x "$top_builddir/$1-kcfi-gcc" ] && command -v "$1-objdump" >/dev/null || {
		echo "SKIP $1: no $1-kcfi-gcc or $1-objdump"; return 1; }
	"$top_builddir/$1-kcfi-gcc" -fsanitize=kcfi -g -O2 -c -o "$T/$2" "$SRC" ||
		{ fail "$1-kcfi-gcc on explain.c"; return 1; }
}
unset KCFI_PLUGIN	# the native plugin; each cross kcfi-gcc finds its own
if cross aarch64-linux-gnu arm64.ko; then
	P=$(frame aarch64-linux-gnu- "$T/arm64.ko" call_union trap)
	cat > "$T/arm64.log" <<EOF
kern  :err   : [   20.000001] CFI failure at $P [arm64] (target: add_one+0x0/0x8 [arm64]; expected type: 0x12345678)
kern  :emerg : [   20.000002] Internal error: Oops - CFI: 00000000f2008228 [#1] PREEMPT SMP
kern  :warn  : [   20.000003] pc : $P [arm64]
kern  :warn  : [   20.000004] Call trace:
kern  :warn  : [   20.000005]  $P [arm64]
EOF
	check "arm64 (dmesg -x): the union's call explained" explained arm64 0 "$T/arm64.log" "$T/arm64.ko"
	check "  ... call_union's line, void (int *) against int (long)" explains arm64 \
		call_union "$UNION" 'void \(int \*\)' add_one 'int \(long\)' \
		'return: the call expects void, add_one returns int' \
		'parameter 1: the call passes int \*, add_one takes long'
	check "  ... arm64, trapping" says arm64 '^  kernel: arm64, trapping'
	check "  ... the line to fix: the union's store" \
		fixes arm64 "explain\\.c:$CONV_UNION" union main add_one 'void \(int \*\)'
fi
if cross riscv64-linux-gnu riscv.ko; then
	P=$(frame riscv64-linux-gnu- "$T/riscv.ko" call_get trap)
	cat > "$T/riscv.log" <<EOF
[   30.100000] CFI failure at $P [riscv] (target: get_two+0x0/0x6 [riscv]; expected type: 0x12345678)
[   30.100001] Oops - CFI [#1]
[   30.100002] epc : $P [riscv]
EOF
	check "riscv64: the ops table's call explained" explained riscv 0 "$T/riscv.log" "$T/riscv.ko"
	check "  ... parameter 2" explains riscv call_get "$GET" 'long \(long, unsigned long\)' \
		get_two 'long \(long, int\)' 'parameter 2: the call passes unsigned long, get_two takes int'
fi
if cross arm-linux-gnueabihf arm.ko; then
	P=$(frame arm-linux-gnueabihf- "$T/arm.ko" call_put trap)
	cat > "$T/arm.log" <<EOF
[   40.000000] CFI failure at $P [arm] (target: add_one+0x0/0x6 [arm]; expected type: 0x12345678)
[   40.000001] WARNING: CPU: 0 PID: 61 at $P [arm]
EOF
	check "arm (our 6.12 patch), permissive: explained" explained arm 0 "$T/arm.log" "$T/arm.ko"
	check "  ... the ops table's call, void (int *) against int (long)" explains arm \
		call_put "$PUT" 'void \(int \*\)' add_one 'int \(long\)' \
		'parameter 1: the call passes int \*, add_one takes long'
	printf 'CFI failure at %s [arm] (no target information)\n' "$P" > "$T/arm-unpatched.log"
	check "arm, unpatched 6.12 (no target information): the caller and its type still" sh -c \
		". '$A/lib.sh'; '$AUDIT' --explain '$T/arm-unpatched.log' '$T/arm.ko' > '$T/armu.out';
		 [ \$? -eq 1 ] && grep -q '^  the call expects: void (int \\*)' '$T/armu.out' &&
		 grep -q '^  target: unknown: the report names no target' '$T/armu.out'"
fi

# 6. Bad input: said clearly, documented exit status, never a crash.
printf '[    1.000000] Linux version 6.12\n[    2.000000] Run /sbin/init as init process\n' > "$T/none.log"
check "no report: exit 3, said so" sh -c "'$AUDIT' --explain '$T/none.log' '$T/prog' > '$T/none.out';
	[ \$? -eq 3 ] && grep -qx '$T/none.log: no CFI failure report (\"CFI failure at ...\") in the log' '$T/none.out'"
check "stdin as the log ('-')" sh -c "'$AUDIT' --explain - '$T/prog' < '$T/kcfi.log' | grep -q '^<stdin>:3: CFI failure at call_put'"
printf '[   12.345678] CFI failure at %s (target: add_o' "$P_PUT" > "$T/cut.log"
check "a report cut short: what is missing said, the caller still explained" explained cut 1 "$T/cut.log" "$T/prog"
check "  ... cut named" says cut '^  the report is cut short: the target and the expected type cannot be read'
check "  ... caller named" says cut "^  caller: call_put, the indirect call at .*explain\\.c:$PUT "
printf 'CFI failure at call_p' > "$T/cut2.log"
check "a report cut in the caller's name" explained cut2 1 "$T/cut2.log" "$T/prog"
check "a module not among the files: said so" explained nomod 1 "$T/perm.log" "$T/prog"
check "  ... named" says nomod '^  caller: .*module expl_mod is not among the files'
xz -k -c "$KO" > "$T/expl-mod.ko.xz" 2>/dev/null &&
	check "a compressed module: said so" sh -c "'$AUDIT' --explain '$T/perm.log' '$T/expl-mod.ko.xz' |
		grep -q 'module expl_mod is among the files only compressed'"
strip --strip-debug -o "$T/prog-stripped" "$T/prog"
check "no records and no DWARF (strip --strip-debug): the caller by offset, ids only" \
	explained stripped 1 "$T/kcfi.log" "$T/prog-stripped"
check "  ... the call by function+offset, no DWARF said" says stripped \
	"^  caller: call_put, the indirect call at call_put\\+0x[0-9a-f]+ \\(.*prog-stripped has no DWARF line information\\)"
check "  ... the id no record names, said so" says stripped \
	"^  the call expects: id $ID_PUT, which no type name record \\(nor DWARF function type\\) of .*prog-stripped names"
objcopy -R .debug "$T/prog" "$T/prog-norec"
check "no records but DWARF: the types from the DWARF" explained norec 1 "$T/kcfi.log" "$T/prog-norec"
check "  ... still void (int *) against int (long)" explains norec \
	call_put "$PUT" 'void \(int \*\)' add_one 'int \(long\)' \
	'parameter 1: the call passes int \*, add_one takes long'
"$KCFI_GCC" -fsanitize=kcfi -O2 -o "$T/prog-nog" "$SRC"
sed "s|$P_PUT|$(frame "" "$T/prog-nog" call_put trap)|g" "$T/kcfi.log" > "$T/nog.log"
check "records but no DWARF: the types named, the lines not" explained nog 0 "$T/nog.log" "$T/prog-nog"
check "  ... types" says nog '^  the call expects: void \(int \*\)  \[_ZTSFvPiE'
check "  ... the line to fix still, from the records" \
	fixes nog "explain\\.c:$CONV_PUT" init table add_one 'void \(int \*\)'
check "  ... no definition line, said so" says nog '^  target: add_one, its definition unknown \(.*prog-nog has no DWARF for it\)'
check "the wrong build (no check traps there): said so" sh -c \
	"sed 's|$P_PUT|call_put+0x1/0x99|' '$T/kcfi.log' > '$T/wrong.log';
	 '$AUDIT' --explain '$T/wrong.log' '$T/prog' | grep -q 'has no KCFI check whose trap is at call_put+0x1: not the build that ran?'"
head -c 20000 "$T/prog" > "$T/binary.log"
check "a log of binary junk: exit 3, no crash" sh -c "'$AUDIT' --explain '$T/binary.log' '$T/prog' >/dev/null 2>&1; [ \$? -eq 3 ]"
check "a missing log: exit 2, named" sh -c "'$AUDIT' --explain '$T/nothing.log' '$T/prog' 2>&1 >/dev/null |
	grep -q 'nothing.log: error: cannot open the log'"
check "a FILE that is no ELF: exit 2, named" sh -c "'$AUDIT' --explain '$T/kcfi.log' '$T/kcfi.log' 2>&1 |
	grep -q 'kcfi.log: error: not an ELF file'"
finish
