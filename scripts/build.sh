#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Configure (once) and build kcfi-as in the source tree.
set -eu
cd "$(dirname "$0")/.."
[ -x configure ] || ./bootstrap
[ -f Makefile ] || ./configure ${KCFI_CONFIGURE_FLAGS:-}
make -j"$(nproc)"
