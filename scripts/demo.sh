#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# On a fresh Debian 12 machine: install what is needed, build, and run the
# demo (a matched indirect call runs, a mismatched one is caught by KCFI).
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
demo/run-demo.sh "$PWD"
