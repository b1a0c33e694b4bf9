# SPDX-License-Identifier: GPL-2.0-or-later
# arches/: one backend per architecture behind asmpass/arch.h.
libasmpass_a_SOURCES += arches/x86_64.c arches/i386.c arches/x86.h arches/x86-check.c
libasmpass_a_SOURCES += arches/aarch64.c arches/riscv64.c
libasmpass_a_SOURCES += arches/arm.c
