# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the kcfi-audit tests (tests/audit/*.sh).  Sourced.
. "$top_srcdir/tests/lib.sh"
A=$top_srcdir/tests/audit
AUDIT=$top_builddir/kcfi-audit
LC_ALL=C
export LC_ALL
[ -x "$AUDIT" ] || skip "kcfi-audit is not built"

# rewritten CC NAME SRC [FLAGS...]: $T/NAME.s (annotated, kcfi-gcc -S) and
# $T/NAME.k.s (what kcfi-as makes of it): the text the broken variants edit.
rewritten() {
	rw_cc=$1 rw_n=$2 rw_src=$3
	shift 3
	"$rw_cc" -fsanitize=kcfi "$@" -S -o "$T/$rw_n.s" "$rw_src" &&
		"$KCFI_AS" --kcfi-no-assemble --kcfi-save="$T/$rw_n.k.s" "$T/$rw_n.s"
}

# audited FILE WANT-STATUS [OPTION...]: kcfi-audit [OPTION...] FILE into
# FILE.audit, with that exit status.
audited() {
	au_f=$1 au_want=$2
	shift 2
	"$AUDIT" "$@" "$au_f" >"$au_f.audit" 2>&1
	au_rc=$?
	[ "$au_rc" -eq "$au_want" ] || { echo "exit status $au_rc, want $au_want:"; cat "$au_f.audit"; return 1; }
}

# uncounted_only FILE N: FILE's findings are all of the kinds the exit
# status leaves out (outside instrumented code, no preamble), N of them:
# exit 0 with the line that says so, exit 1 under --strict.
uncounted_only() {
	uo_s=s; [ "$2" -ne 1 ] || uo_s=
	audited "$1" 0 && grep -q "^$1: [a-z0-9_]*: $2 finding$uo_s not counted in the exit status (--strict counts them): " "$1.audit" ||
		{ echo "no line: $2 finding$uo_s not counted"; cat "$1.audit"; return 1; }
	cp "$1.audit" "$1.audit.lenient" && audited "$1" 1 --strict &&
		grep -q "^$1: [a-z0-9_]*: $2 finding$uo_s counted in the exit status because of --strict: " "$1.audit" &&
		mv "$1.audit.lenient" "$1.audit"
}

# has_line FILE LINE: FILE.audit holds exactly LINE.
has_line() { grep -qxF -- "$2" "$1.audit" || { echo "no line: $2"; cat "$1.audit"; false; }; }
# findings FILE: how many finding lines FILE.audit holds.
findings() { grep -c "^$1: [^ ]*+0x[0-9a-f]* <" "$1.audit" || true; }

# hex OFFSET -> 0x..., as kcfi-audit prints it
hex() { printf '0x%x' "$((0x$1))"; }
