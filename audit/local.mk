# SPDX-License-Identifier: GPL-2.0-or-later
# audit/: kcfi-audit, the checker of finished ELF files (doc/kcfi-audit.md).
bin_PROGRAMS += kcfi-audit
kcfi_audit_SOURCES = \
	audit/kcfi-audit.c \
	audit/audit.h \
	audit/insn-form.h \
	audit/elf-load.c \
	audit/tables.c audit/tables.h \
	audit/verify.c audit/verify.h \
	audit/report.c \
	audit/dwarf-names.c \
	audit/lent-names.c \
	audit/targets.c audit/targets.h \
	audit/mismatches.c audit/mismatches.h \
	audit/decode-x86.c \
	audit/decode-aarch64.c \
	audit/decode-riscv64.c \
	audit/decode-arm.c \
	audit/explain.c audit/explain.h \
	audit/explain-log.c \
	audit/explain-types.c \
	common/exempt.h common/kcfi-traps.h
kcfi_audit_CFLAGS = $(AM_CFLAGS) $(CAPSTONE_CFLAGS)
kcfi_audit_LDADD = libtypeids.a $(AUDIT_LIBS)
