# SPDX-License-Identifier: GPL-2.0-or-later
# demo/: the README's demonstration program (built and run by scripts/demo.sh).
EXTRA_DIST += demo/demo.c demo/run-demo.sh
