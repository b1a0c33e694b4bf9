#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# On a fresh Debian 12 machine: install what is needed, build, run the tests.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
make -j"$(nproc)" check || {
	# Show the logs of what failed, so a CI log alone explains it.
	for f in $(grep -l '^:test-result: \(FAIL\|ERROR\)' $(find tests -name '*.trs') 2>/dev/null); do
		echo "===== ${f%.trs}.log"
		tail -n 60 "${f%.trs}.log"
	done
	exit 1
}
