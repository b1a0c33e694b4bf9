# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the end-to-end tests (tests/e2e/*.sh): C in, kcfi-gcc,
# objects and programs out, checked from the bytes.  Sourced.
. "$top_srcdir/tests/lib.sh"
E2E=$top_srcdir/tests/e2e
PRE=$top_srcdir/tests/prepass
LC_ALL=C
export LC_ALL
case ${NATIVE_TRIPLE:-} in
x86_64-*) ;;
*) skip "these tests run x86_64 code, not ${NATIVE_TRIPLE:-unknown}" ;;
esac
[ -x "$KCFI_GCC" ] || skip "kcfi-gcc is not built"
[ -f "${KCFI_PLUGIN:-}" ] || skip "the plugin is not built: ${KCFI_PLUGIN:-unset}"
[ -x "$ELFCHECK" ] || skip "tests/tools/kcfi-elfcheck is not built"
OBJDUMP=${OBJDUMP:-objdump}
READELF=${READELF:-readelf}

# kgcc ARGS...: kcfi-gcc with KCFI on; messages go to $T/kgcc.err.
kgcc() { "$KCFI_GCC" -fsanitize=kcfi "$@" 2>"$T/kgcc.err" || { cat "$T/kgcc.err"; false; }; }

# equal WANT GOT [WHAT]
equal() { [ "$1" = "$2" ] || { echo "${3:-value}: want $1, got $2"; false; }; }

# id TYPE-MANGLING: the id a check or preamble must carry (independent FNV-1a).
id() { fnv1a "_ZTS$1"; }

# decoded FILE [PREFIX]: kcfi-elfcheck's report (fails on malformed bytes).
decoded() {
	if [ $# -gt 1 ]; then "$ELFCHECK" --prefix="$2" "$1"; else "$ELFCHECK" "$1"; fi >"$1.chk" ||
		{ grep BAD "$1.chk"; return 1; }
}
# n_traps FILE [TYPE]: checks in FILE (after `decoded`), of that type if given.
n_traps() { grep -c "^trap .*type=${2:-}" "$1.chk" || true; }
# preamble FILE NAME: the "type=... nops=... binding=..." of __cfi_NAME, or "".
preamble() { sed -n "s/^preamble __cfi_$2 //p" "$1.chk"; }
# typeid FILE NAME: the value of __kcfi_typeid_NAME, or "".
typeid() { sed -n "s/^typeid __kcfi_typeid_$2 = //p" "$1.chk"; }

# branches_after_traps OBJ: the instruction right after every ud2, one per
# line ("call *%r11", "jmp __x86_indirect_thunk_r11"...).  doc/abi.md 1:
# nothing may stand between the trap and the transfer it guards.
branches_after_traps() {
	"$OBJDUMP" -d --no-show-raw-insn "$1" | awk -F'\t' '
		NF >= 2 && $2 ~ /^ud2/ { want = 1; next }
		want && NF >= 2 { x = $2; sub(/[ \t]+#.*/, "", x); sub(/ +<.*>/, "", x);
			gsub(/[ \t]+/, " ", x); sub(/ $/, "", x); print x; want = 0 }'
}
# adjacent OBJ: every trap is followed by a branch through a register (the
# one its check read, or %r11; tests/asmpass/x86-forms.sh checks which) or
# by a direct call of a thunk.
adjacent() {
	branches_after_traps "$1" >"$1.after"
	[ -s "$1.after" ] || { echo "no trap in $1"; return 1; }
	! grep -vE '^(cs )?(notrack )?(call|jmp)q? (\*%(r[a-z]{2}|r[89]|r1[1345])|[0-9a-f]+)$' "$1.after"
}

# run_to_sigill PROG: run PROG with the SIGILL reporter preloaded; succeeds if
# it died of SIGILL after printing its report ($T/sigill.txt).
SIGILL_SO=$T/sigill-report.so
run_to_sigill() {
	[ -f "$SIGILL_SO" ] || ${CC:-gcc} -shared -fPIC -O2 -o "$SIGILL_SO" "$E2E/sigill-report.c" ||
		return 1
	LD_PRELOAD=$SIGILL_SO "$@" >"$T/run.out" 2>"$T/sigill.txt"
	rc=$?
	[ $rc -eq 132 ] || { echo "exit status $rc, not 132 (SIGILL)"; cat "$T/run.out" "$T/sigill.txt"; return 1; }
	grep -q '^sigill vaddr=' "$T/sigill.txt" || { echo "no report"; return 1; }
}

# kcfi_trap_addrs EXE: the addresses .kcfi_traps lists, one per line (hex),
# decoded here from the section bytes (entry = trap - &entry).
kcfi_trap_addrs() {
	set -- $("$READELF" -SW "$1" | sed -n 's/.*\] \.kcfi_traps *PROGBITS *\([0-9a-f]*\) \([0-9a-f]*\) \([0-9a-f]*\).*/\1 \2 \3/p') "$1"
	[ $# -eq 4 ] || return 1
	addr=$((0x$1)) off=$((0x$2)) size=$((0x$3)) i=0
	for v in $(od -An -v -t d4 -j "$off" -N "$size" "$4"); do
		printf '0x%x\n' $((addr + 4 * i + v))
		i=$((i + 1))
	done
}

# trap_bytes_ok HEX28 H M: the 12 bytes before the ud2 are movl $-H,%r10d;
# addl -(M+4)(%reg),%r10d; je .+2 (41 ba imm32 | 44/45 03 5r d8 | 74 02),
# where reg is any but %r10 and the SIB forms %rsp/%r12 (Linux decodes a
# 4-byte addl at trap-6), and the faulting bytes are ud2 (0f 0b).
trap_bytes_ok() {
	neg=$(( (0x100000000 - $2) & 0xffffffff ))
	le=$(printf '%02x%02x%02x%02x' $((neg & 255)) $((neg >> 8 & 255)) $((neg >> 16 & 255)) $((neg >> 24)))
	d8=$(printf '%02x' $(( (256 - ($3 + 4)) & 255 )))
	want="41ba${le}4[45]035[0-35-7]${d8}74020f0b"
	case $1 in
	41ba${le}4503524*) echo "bytes $1: the check reads %r10, its own scratch"; false ;;
	$want) ;;
	*) echo "bytes $1, want $want"; false ;;
	esac
}

# listed_trap EXE H [M]: the SIGILL run_to_sigill just reported is at a ud2
# that .kcfi_traps of EXE lists, behind a check of H at -(M+4).
listed_trap() {
	kcfi_trap_addrs "$1" | grep -qx "$(sed -n 's/^sigill vaddr=\(0x[0-9a-f]*\) .*/\1/p' "$T/sigill.txt")" ||
		{ echo "the fault is not at a listed trap"; return 1; }
	trap_bytes_ok "$(sed -n 's/.* bytes=//p' "$T/sigill.txt")" "$2" "${3:-0}"
}
