# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the cross tests (tests/cross/*.sh): aarch64 and riscv64 code
# built with <triple>-kcfi-gcc and run under qemu-user.  Sourced.
. "$top_srcdir/tests/lib.sh"
X=$top_srcdir/tests/cross
[ -z "${KCFI_KEEP:-}" ] || { trap - EXIT; echo "keeping $T"; }
LC_ALL=C
# The environment names the native plugin, which kcfi-gcc would take for
# every target: the cross drivers find their own.
unset KCFI_PLUGIN
export LC_ALL

# usable TRIPLE [norun]: its driver, cross binutils and (unless norun)
# qemu-user and sysroot are here; says why not otherwise.
# i386 programs run under qemu-i386 too: the host may lack the kernel's
# 32-bit support, and the i686 sysroot's ld.so is not the host's.
qemu_of() { case $1 in aarch64-*) echo qemu-aarch64 ;; riscv64-*) echo qemu-riscv64 ;; arm-*) echo qemu-arm ;; i?86-*) echo qemu-i386 ;; *) echo none ;; esac; }
usable() {
	[ -x "$top_builddir/$1-kcfi-gcc" ] || { echo "SKIP $1: configure found no plugin for $1-gcc"; return 1; }
	command -v "$1-objdump" >/dev/null || { echo "SKIP $1: no $1-objdump"; return 1; }
	[ "${2:-}" = norun ] && return 0
	command -v "$(qemu_of "$1")" >/dev/null || { echo "SKIP $1: no $(qemu_of "$1") (apt-get install qemu-user)"; return 1; }
	[ -d "/usr/$1/lib" ] || { echo "SKIP $1: no sysroot /usr/$1 (libc6-dev-*-cross)"; return 1; }
}
# pick_triples [norun]: TS = the usable ones among those configure built
# plugins for, of the architectures the test covers (CROSS_ARCHES, set
# before; aarch64 and riscv64 unless it says more; i386, which has no trap
# Linux decodes, mostly in tests/e2e/i386.sh); the test is skipped if
# there is none.
pick_triples() {
	TS=
	for _t in ${CROSS_TRIPLES:-}; do
		case " ${CROSS_ARCHES:-aarch64 riscv64} " in
		*" ${_t%%-*} "*) ;;
		*) echo "SKIP $_t: not covered by this test"; continue ;;
		esac
		usable "$_t" "${1:-}" && TS="$TS $_t"
	done
	[ -n "$TS" ] || skip "no cross target usable (CROSS_TRIPLES='${CROSS_TRIPLES:-}')"
}

# kx TRIPLE ARGS...: <triple>-kcfi-gcc with KCFI on; messages to $T/kx.err.
kx() {
	_t=$1
	shift
	"$top_builddir/$_t-kcfi-gcc" -fsanitize=kcfi "$@" 2>"$T/kx.err" || { cat "$T/kx.err"; false; }
}
# qrun TRIPLE PROG ARGS...: run under qemu-user with the Debian cross sysroot.
qrun() {
	_t=$1
	shift
	"$(qemu_of "$_t")" -L "/usr/$_t" "$@"
}

# id MANGLING: the id a check must carry, by an independent FNV-1a.
id() { fnv1a "_ZTS$1"; }

# report_field NAME FILE: the value of NAME= on the kcfi-trap line.
report_field() { sed -n "s/^kcfi-trap .*$1=\(0x[0-9a-f]*\).*/\1/p" "$2"; }

# symbol_at TRIPLE PROG ADDR: the function symbol that contains ADDR.
symbol_at() {
	"$1-nm" -n "$2" | awk -v want="$3" '
		function hex(s,   i, v, c) { v = 0; s = tolower(s); sub(/^0x/, "", s)
			for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
			return v }
		BEGIN { w = hex(want) }
		$2 ~ /^[tTwW]$/ { a = hex($1); if (a <= w) name = $3; else { print name; done = 1; exit } }
		END { if (!done) print name }'
}

# traps_listed TRIPLE PROG: the addresses .kcfi_traps points at, one a line.
traps_listed() {
	_vma=$("$1-objdump" -h "$2" | awk '$2 == ".kcfi_traps" { print $4 }')
	[ -n "$_vma" ] || return 0
	"$1-objcopy" -O binary --only-section=.kcfi_traps "$2" "$T/traps.bin" || return 1
	_i=0
	for _v in $(od -An -td4 -v "$T/traps.bin"); do
		printf '0x%x\n' $(( 0x$_vma + _i * 4 + _v ))
		_i=$((_i + 1))
	done
}

# trapped TRIPLE PROG SCENARIO EXPECTED CALLEE FUNC [CHECKER]: PROG SCENARIO
# dies of SIGTRAP at a trap in FUNC that Linux decodes to the printed target
# and "expected type" = the id of EXPECTED (the pointer's type); on riscv the
# trap is listed in .kcfi_traps and beq's rs1 must be the expected id, rs2 the
# callee's id (trap-report.c prints rs1 as type=, rs2 as other=).  CHECKER
# "clang" names a check Clang built: Clang emits "beq t1, t2", the reverse
# operand order, so on riscv Linux reports the callee's id as expected type.
trapped() {
	[ -n "${KCFI_DEBUG:-}" ] && set -x
	_t=$1 _p=$2 _s=$3 _want=$(id "$4") _callee=$(id "$5") _fn=$6 _by=${7:-kcfi-as}
	qrun "$_t" "$_p" "$_s" >"$T/out" 2>&1
	_rc=$?
	[ $_rc -eq 133 ] || { echo "exit status $_rc, not 133 (SIGTRAP)"; cat "$T/out"; return 1; }
	grep -q '^kcfi-trap ' "$T/out" || { echo "no decodable trap"; cat "$T/out"; return 1; }
	_pc=$(report_field pc "$T/out")
	_target=$(report_field target "$T/out")
	_want_target=$(sed -n 's/^target=\(0x[0-9a-f]*\)$/\1/p' "$T/out")
	[ -z "$_want_target" ] || [ "$_target" = "$_want_target" ] ||
		{ echo "target $_target, want $_want_target"; return 1; }
	case $_t in
	aarch64-*|arm-*)
		equal "$_want" "$(report_field type "$T/out")" "expected type" || return 1 ;;
	riscv64-*)
		case $_by in
		clang)
			equal "$_callee" "$(report_field type "$T/out")" "Clang's beq rs1 (callee type)" &&
			equal "$_want" "$(report_field other "$T/out")" "Clang's beq rs2 (expected id)" ;;
		*)
			equal "$_want" "$(report_field type "$T/out")" "expected type (beq rs1)" &&
			equal "$_callee" "$(report_field other "$T/out")" "callee type (beq rs2)" ;;
		esac || return 1
		traps_listed "$_t" "$_p" | grep -qx "$_pc" ||
			{ echo "trap at $_pc not listed in .kcfi_traps"; return 1; } ;;
	esac
	equal "$_fn" "$(symbol_at "$_t" "$_p" "$_pc")" "function holding the trap"
}

# equal WANT GOT [WHAT]
equal() { [ "$1" = "$2" ] || { echo "${3:-value}: want $1, got $2"; false; }; }
