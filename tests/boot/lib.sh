# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by tests/boot/kunit.sh and kselftest.sh, after tests/lib.sh and
# with B set to the boot/ directory.

# tally_is RESULTS COMPILER WANT [UNIT RUNNER]: kunit-lib.sh's tally line for
# RESULTS is WANT (UNIT and RUNNER as tally takes them: kselftest's are
# "tests" and "the runner").
tally_is() {
	got=$(bash -c '. "$0/kunit-lib.sh"; tally "$@"' "$B" "$1" "$2" ${4:+"$4" "$5"})
	[ "$got" = "$3" ] || { echo "got:  $got"; echo "want: $3"; return 1; }
}
