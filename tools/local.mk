# SPDX-License-Identifier: GPL-2.0-or-later
# tools/: installed helpers built on the libraries.
#   kcfi-typeid  the type id of a C type (tools/kcfi-typeid.c --help)
bin_PROGRAMS += kcfi-typeid
kcfi_typeid_SOURCES = tools/kcfi-typeid.c
kcfi_typeid_LDADD = libtypeids.a
