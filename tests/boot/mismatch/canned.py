#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Make the canned files of tests/boot/mismatch.sh from a boot (README.md):
#   tests/boot/mismatch/canned.py CONSOLE EXPLAIN FORM boot/module
# with CONSOLE and EXPLAIN from boot/out/<arch>/ after make boot-check
# BOOT_MODES=permissive; FORM x86_64-kcfi, x86_64-fineibt or arm64.
import re, sys
console, explain, form, src = sys.argv[1:5]
import os
out = os.path.dirname(os.path.abspath(__file__)) + '/'
lines = open(console).read().split('\n')
start = next(i for i, l in enumerate(lines) if 'Run /init as init process' in l or 'kcfi-boot: init running' in l)
open(out + f'console-{form}.txt', 'w').write('\n'.join(lines[start:]))
calls = open(src + '/kcfi_mismatch_calls.c').read().split('\n')
decl = open(src + '/kcfi_mismatch_decl.c').read().split('\n')
def mark(text, what, kind):
    for i, l in enumerate(text):
        if f'/* {what}: {kind} */' in l:
            return i + 1
kinds = {'static-init': ('kcfi_mm_call_static_init', 'kcfi_mm_init_target'),
         'void*': ('kcfi_mm_call_void', 'kcfi_mm_void_target'),
         'union': ('kcfi_mm_call_union', 'kcfi_mm_union_target'),
         'decl': ('kcfi_mm_call_decl', 'kcfi_mm_decl_target')}
res = []
for l in open(explain).read().split('\n'):
    m = re.match(r'^(\S+):(\d+): CFI failure at', l)
    if m:
        l = f'console-{form}.txt:{int(m.group(2)) - start}' + l[m.end(2):]
    for k, (caller, target) in kinds.items():
        tfile = decl if k == 'decl' else calls
        tname = 'kcfi_mismatch_decl.c' if k == 'decl' else 'kcfi_mismatch_calls.c'
        n = mark(calls, 'CALL', k)
        if l.startswith(f'  caller: {caller}, '):
            l = l.replace(f'kcfi_mismatch_calls.c:{n} (', f'kcfi_mismatch_calls.c:@CALL {k}@ (')
        if l.startswith(f'  target: {target}, '):
            l = l.replace(f'{tname}:{mark(tfile, "TARGET", k)} (', f'{tname}:@TARGET {k}@ (')
        if l.startswith('    ') and f': {target} taken as ' in l:
            l = l.replace(f'kcfi_mismatch_calls.c:{mark(calls, "MISMATCH", k)}: ', f'kcfi_mismatch_calls.c:@MISMATCH {k}@: ')
    res.append(l)
open(out + f'explain-{form}.txt', 'w').write('\n'.join(res))
