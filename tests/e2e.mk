# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/: C in, kcfi-gcc, objects and running programs out (x86_64).
#   demo         the README's demo dies of SIGILL at a listed, decodable trap
#   preambles    who gets __cfi_ and __kcfi_typeid_ (doc/design.md 4)
#   calls        tail merge (+ run), call sharing, direct calls, adjacency,
#                tail calls, complex addressing (+ run)
#   patchable    -fpatchable-function-entry=4,0 3,3 8,4 11,11; the attribute error
#   nosan        no_sanitize("kcfi"), also inlined, objects and run time
#   qualifiers   top-level parameter qualifiers do not change ids (run)
#   salt         cfi_salt: same salt runs, across salts traps (run, preambles)
#   addrspace    __seg_gs/__seg_fs parameters: ids, run, trap
#   generalize   -fsanitize-cfi-icall-generalize-pointers: ids, run, trap,
#                clang-22's preamble ids
#   arity        -fsanitize-kcfi-arity: the register of every psABI case, -O0
#                preambles as clang-22's, the -O2 kinds, refusals, the probe
#   lto          -flto: offsets written by lto1 run; the missing-plugin guard
#   pch          identical output through a precompiled header
#   compat       caller / targets / main units, with clang-22 on either side
#   regs         refusals where a check would overwrite a register the program
#                needs (static chain, -ffixed-REG, global register variables)
#   retpoline    -mindirect-branch=thunk / thunk-inline: link, run, trap
#   call-reg     behind retpolines targets are loaded into %r11 (no move
#                before the check), run; reserved r11 refused
#   debug-tools  readelf -w, objdump --dwarf, eu-readelf, dwz, gdb, addr2line,
#                ld's messages, strip and split debug files on a KCFI program
#   early-target the target's load goes above the argument set-up, never
#                above a store, an asm or its address; -g same code; run
#   profile      -pg, -p, -mfentry in a PIE: build, run, trap
#   nested       GNU C nested functions: taking the address is refused (with
#                the no_sanitize("kcfi") opt-out, run); direct calls run
#   refused      options kcfi-gcc refuses up front, and neighbours that work
#   install      make install DESTDIR=...; the installed kcfi-gcc builds the demo
#   ccache       CC="ccache kcfi-gcc" misses after the plugin or kcfi-as changed
#   distcc       CC="distcc kcfi-gcc": remote objects identical to local ones;
#                a remote with other tools or none: local compile, never unchecked
#   as-cache     the remembered `gcc -print-prog-name=as`: used, and not used
#                once an `as`, the compiler or the entry changed
#   extern-stubs -fsanitize-kcfi-extern-stubs: libc through pointers, typed
#   options      distributions' hardening sets, kernel-like code generation,
#                sanitizers, driver paths (-pipe, -save-temps), and issue 31's
#                options one at a time (patchable N,M pairs, -pg/-mfentry,
#                PIC/PIE, code models, stack protector, CET, sections,
#                unwind tables, LTO): run, trap, audit; a signal fails
#   finish-asm   -S gives finished assembly: plain as makes the -c code; -o -,
#                several inputs, .S, refusals, the annotated opt-out
#   conversions  a function's address as a pointer of another type id: every
#                kind, -Wkcfi-cast/-Werror=kcfi-cast (file:line), kcfi-audit
#                --mismatches, the code unchanged, readelf -w and dwz
#   conversion-kinds  the classes: ?: and comma operands, casts through void *
#                or an integer GCC folds away, one place per type, union
#                stores (recorded, not warned, --mismatches --union-stores)
#   i386         kcfi-gcc -m32 / i686-linux-gnu-kcfi-gcc, mixed with clang-22
#                -m32 both ways: matched calls run, wrong types trap (SIGTRAP)
E2E_TESTS = \
	tests/e2e/demo.sh \
	tests/e2e/preambles.sh \
	tests/e2e/calls.sh \
	tests/e2e/patchable.sh \
	tests/e2e/nosan.sh \
	tests/e2e/qualifiers.sh \
	tests/e2e/salt.sh \
	tests/e2e/addrspace.sh \
	tests/e2e/generalize.sh \
	tests/e2e/arity.sh \
	tests/e2e/lto.sh \
	tests/e2e/pch.sh \
	tests/e2e/compat.sh \
	tests/e2e/regs.sh \
	tests/e2e/retpoline.sh \
	tests/e2e/call-reg.sh \
	tests/e2e/early-target.sh \
	tests/e2e/debug-tools.sh \
	tests/e2e/profile.sh \
	tests/e2e/nested.sh \
	tests/e2e/refused.sh \
	tests/e2e/install.sh \
	tests/e2e/ccache.sh \
	tests/e2e/distcc.sh \
	tests/e2e/as-cache.sh \
	tests/e2e/extern-stubs.sh \
	tests/e2e/options.sh \
	tests/e2e/finish-asm.sh \
	tests/e2e/output-paths.sh \
	tests/e2e/conversions.sh \
	tests/e2e/conversion-kinds.sh \
	tests/e2e/i386.sh
TESTS += $(E2E_TESTS)
EXTRA_DIST += $(E2E_TESTS) tests/e2e/lib.sh tests/e2e/sigill-report.c \
	tests/e2e/compat.h tests/e2e/compat-caller.c tests/e2e/compat-targets.c \
	tests/e2e/compat-main.c tests/e2e/tail-calls.c tests/e2e/addressing.c \
	tests/e2e/tail-merge-run.c tests/e2e/nosan-run.c tests/e2e/prefix-run.c tests/e2e/prefix-pad.c \
	tests/e2e/qualifiers-run.c tests/e2e/salt-run.c tests/e2e/addrspace-run.c \
	tests/e2e/generalize-run.c tests/e2e/arity.c \
	tests/e2e/regs-chain.c tests/e2e/regs-fixed.c \
	tests/e2e/retpoline-run.c tests/e2e/retpoline-peer.c tests/e2e/nested.c tests/e2e/call-reg.c tests/e2e/early-target.c \
	tests/e2e/extern-stubs-run.c tests/e2e/extern-stubs-peer.c \
	tests/e2e/i386.h tests/e2e/i386-main.c tests/e2e/i386-callers.c \
	tests/e2e/i386-targets.c \
	tests/e2e/conversions.c tests/e2e/conversions-def.c tests/e2e/conversions-clean.c \
	tests/e2e/conversion-kinds.c \
	tests/README.md
