#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Compare kcfi-gcc's -Wkcfi-cast findings (and kcfi-audit --mismatches) with
# clang's -Wcast-function-type-strict over the same kernel tree (issue 42
# item 2; doc/kcfi-audit.md 2.2 has the measurement this made).
#
# Usage:
#   bench/cast-compare.sh logs OURS_LOG CLANG_LOG SRCDIR [MISMATCHES]
#       whole builds: OURS_LOG is the stderr of
#       `make CC=kcfi-gcc KCFLAGS=-Wkcfi-cast ...`, CLANG_LOG that of
#       `make CC=clang-19 KCFLAGS=-Wcast-function-type-strict ...` (or of
#       the wrapper below), SRCDIR the kernel source (Clang's warning names
#       no function, so the cast's operand is read at its column),
#       MISMATCHES the output of
#       `kcfi-audit --mismatches --union-stores vmlinux $(find . -name '*.ko')` (gives each
#       of ours its kind: cast, init, assign, arg, return, void*, union,
#       decl; adds the cross-unit decl places no compile-time warning sees;
#       with --union-stores also the union stores -Wkcfi-cast leaves out)
#   bench/cast-compare.sh trees GCC_TREE CLANG_TREE
#       builds in progress or stopped: only the C units both trees have
#       compiled since their build.start file (touch it before starting the
#       build; a .o and its .cmd in each);
#       ours from their records (kcfi-audit --mismatches on those objects:
#       decl places only where the defining object is among them), Clang's
#       from each object's X.o.warn, which the wrapper writes (an object
#       without one counts as a unit without warnings)
#   bench/cast-compare.sh wrapper FILE
#       writes a CC wrapper for the Clang build: every `-c X.c -o X.o` runs
#       `clang-19 -fsyntax-only` (Sema, where -Wcast-function-type-strict
#       is, without code generation) and leaves an empty object and the
#       unit's warnings in X.o.warn; everything else (Kconfig probes, -S,
#       -E, assembly) is clang-19 itself.  Use it on every make invocation:
#       `make -k CC=FILE KCFLAGS=-Wcast-function-type-strict vmlinux modules`
#       (the links fail, the objects being empty; every unit is compiled).
#
# Environment: OUT (directory for the lists, default ./cast-compare.out),
# AUDIT (kcfi-audit, default the one of this source tree), FUNCS (optional:
# a file of function names, one a line, e.g. from `nm` of the build's
# objects; tells a Clang-only cast of a function from one of a pointer).
#
# Both sets are normalized to places, (file:line, function): each once,
# however many units included the header it is in.  A place is "both" when
# the other compiler warned on the same file:line.  Written to $OUT:
# ours.tsv, clang.tsv, audit.tsv, both.tsv, clang-only.tsv, ours-only.tsv
# (each with a class column), summary.txt (also printed).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-}
[ $# -gt 0 ] && shift
usage() { sed -n '3,44p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
case $mode in
wrapper)
	[ $# -eq 1 ] || usage
	cat >"$1" <<'EOF'
#!/bin/sh
# clang-19 for -Wcast-function-type-strict only (bench/cast-compare.sh).
c=0 out= src= skip=0 prev=
for a in "$@"; do
	case $a in
	-c) c=1 ;;
	-S|-E) skip=1 ;;
	*.c) [ "$prev" != "-o" ] && src=$a ;;
	esac
	[ "$prev" = "-o" ] && out=$a
	prev=$a
done
case $out in *.o) ;; *) skip=1 ;; esac
if [ $c = 1 ] && [ $skip = 0 ] && [ -n "$src" ]; then
	drop=0
	for a in "$@"; do
		shift
		if [ $drop = 1 ]; then drop=0; continue; fi
		case $a in -o) drop=1; continue ;; -c) continue ;; esac
		set -- "$@" "$a"
	done
	clang-19 -fsyntax-only "$@" 2>"$out.warn"; rc=$?
	cat "$out.warn" >&2
	[ $rc = 0 ] || exit $rc
	# an empty object (objtool, ar and ld -r take it)
	exec clang-19 -c -x c /dev/null -o "$out"
fi
exec clang-19 "$@"
EOF
	chmod +x "$1"
	exit 0 ;;
logs)
	[ $# -ge 3 ] || usage ;;
trees)
	[ $# -eq 2 ] || usage ;;
*)	usage ;;
esac
OUT=${OUT:-./cast-compare.out}
AUDIT=${AUDIT:-$here/../kcfi-audit}
mkdir -p "$OUT"
if [ "$mode" = trees ]; then
	gcc_tree=$1 clang_tree=$2
	(cd "$gcc_tree" && find . -name '.*.o.cmd' -newer build.start) |
	while read -r cmd; do
		d=${cmd%/*} b=${cmd##*/}
		b=${b#.}
		o=$d/${b%.cmd}
		grep -q '^source_.* := .*\.c$' "$gcc_tree/$cmd" || continue
		[ -f "$gcc_tree/$o" ] && [ -f "$clang_tree/$o" ] &&
			[ -n "$(find "$clang_tree/$o" -newer "$clang_tree/build.start")" ] &&
			echo "${o#./}"
	done | sort >"$OUT/units.txt"
	(cd "$gcc_tree" && xargs -s 1000000 "$AUDIT" --mismatches --union-stores) <"$OUT/units.txt" \
		>"$OUT/mismatches.txt" || :
	: >"$OUT/ours.log"
	while read -r o; do
		if [ -f "$clang_tree/$o.warn" ]; then cat "$clang_tree/$o.warn"; fi
	done <"$OUT/units.txt" >"$OUT/clang.log"
	echo "C units compiled in both trees: $(wc -l <"$OUT/units.txt")"
	set -- "$OUT/ours.log" "$OUT/clang.log" "$gcc_tree" "$OUT/mismatches.txt"
fi
python3 - "$@" <<'PY'
import os, re, sys, collections

ours_log, clang_log, src = sys.argv[1:4]
audit_file = sys.argv[4] if len(sys.argv) > 4 else None
out = os.environ.get('OUT', './cast-compare.out')
funcs = set()
if os.environ.get('FUNCS'):
    funcs = set(l.strip() for l in open(os.environ['FUNCS']) if l.strip())

srcabs = os.path.realpath(src) + '/'
def norm(path):
    if path.startswith(srcabs):
        path = path[len(srcabs):]
    while path.startswith('./'):
        path = path[2:]
    return os.path.normpath(path)

lines_cache = {}
def line_of(f, n):
    if f not in lines_cache:
        try:
            with open(os.path.join(src, f), errors='replace') as fh:
                lines_cache[f] = fh.read().split('\n')
        except OSError:
            lines_cache[f] = []
    L = lines_cache[f]
    return L[n - 1] if 0 < n <= len(L) else ''

# -- ours: file:line: warning: converting 'fn' (from) to 'to' changes ...
OURS = re.compile(r"^(\S+?):(\d+): warning: converting '([^']+)' \((.*)\) to '(.*)' "
                  r"changes its KCFI type id \[-W(?:error=)?kcfi-cast\]")
ours = {}                       # (file, line, fn, to) -> from
ours_units = collections.Counter()
for l in open(ours_log, errors='replace'):
    m = OURS.match(l)
    if m:
        k = (norm(m[1]), int(m[2]), m[3], m[5])
        ours[k] = m[4]
        ours_units[k] += 1

# -- kcfi-audit --mismatches: file:line: kind: 'fn' from as to [in X] (defined in F)
AUD = re.compile(r"^(\S+?):(\d+): (\S+): '([^']+)' (.*) as (.*) \[in ([^]]+)\]( \(defined in .*\))?$")
audit = {}                      # (file, line, fn) -> set(kinds)
audit_rows = []
if audit_file:
    for l in open(audit_file, errors='replace'):
        m = AUD.match(l.rstrip('\n'))
        if m:
            k = (norm(m[1]), int(m[2]), m[4])
            audit.setdefault(k, set()).add(m[3])
            audit_rows.append((k, m[3], m[5], m[6], m[7]))

# Without warnings (trees mode): ours are the audit's places, decl aside.
if not ours:
    for (k, kind, fr, to, where) in audit_rows:
        if kind not in ('decl', 'union'):
            ours[k + (to,)] = fr
            ours_units[k + (to,)] += 1

# -- clang: file:line:col: warning: cast from 'A' (aka ...) to 'B' (aka ...) converts ...
CL = re.compile(r"^(\S+?):(\d+):(\d+): warning: cast from '(.+?)'(?: \(aka '(.+?)'\))? "
                r"to '(.+?)'(?: \(aka '(.+?)'\))? converts to incompatible function type "
                r"\[-W(?:error=)?cast-function-type-strict\]")
clang = {}                      # (file, line, col) -> (from, to)
clang_units = collections.Counter()
for l in open(clang_log, errors='replace'):
    m = CL.match(l)
    if m:
        k = (norm(m[1]), int(m[2]), int(m[3]))
        clang[k] = (m[5] or m[4], m[7] or m[6])
        clang_units[k] += 1

IDENT = re.compile(r"[A-Za-z_]\w*")
def cast_operand(f, n, col):
    """The identifier a C cast at f:n:col converts, '' if it is no plain
    (possibly &-prefixed, parenthesized) identifier, '=MACRO' if the column
    is a macro's name."""
    s = line_of(f, n)
    i = col - 1
    if i >= len(s):
        return ''
    if s[i] != '(':
        m = IDENT.match(s, i)
        return '=' + m[0] if m else ''
    depth = 0
    while i < len(s):
        if s[i] == '(':
            depth += 1
        elif s[i] == ')':
            depth -= 1
            if depth == 0:
                break
        i += 1
    rest = s[i + 1:]
    m = re.match(r"\s*\(*\s*&?\s*([A-Za-z_]\w*)\s*(\)*)\s*(.?)", rest)
    if not m:
        return ''
    if m[3] and m[3] in '([.-':
        return ''               # a call, a member, an index: no function name
    return m[1]

ours_lines = collections.defaultdict(set)     # (file, line) -> fns
for (f, n, fn, to) in ours:
    ours_lines[(f, n)].add(fn)
for (f, n, fn) in audit:
    ours_lines[(f, n)].add(fn)
clang_lines = collections.defaultdict(list)
for (f, n, c) in clang:
    clang_lines[(f, n)].append(c)

def near(f, n, fn, lines, span=6):
    for d in range(1, span + 1):
        for nn in (n - d, n + d):
            if (f, nn) in lines and (fn is None or fn in lines[(f, nn)]):
                return nn
    return None

# -- Clang places
both_c, clang_only = [], []
for (f, n, c), (fr, to) in sorted(clang.items()):
    op = cast_operand(f, n, c)
    row = (f, n, c, op, fr, to)
    if (f, n) in ours_lines:
        both_c.append(row + ('same-line',))
        continue
    fn = op if op and not op.startswith('=') else None
    nn = near(f, n, fn, ours_lines) if fn else None
    if nn:
        cls = 'ours at line %d' % nn
    elif op.startswith('='):
        cls = 'macro ' + op[1:]
    elif not op:
        cls = 'not a name (expression, call, member)'
    elif funcs and op not in funcs:
        cls = 'not a function (pointer value)'
    else:
        cls = 'function'
    clang_only.append(row + (cls,))

# -- our places: the warnings, and the audit's decl places
def kinds_of(f, n, fn):
    return ','.join(sorted(audit.get((f, n, fn), ()))) or '-'

def cast_before(f, n, fn):
    """The type of the cast right before FN on its line, None if none."""
    m = re.search(r"\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*\(*\s*&?\s*" + re.escape(fn) + r"\b",
                  line_of(f, n))
    return m[1].strip() if m else None

VOIDP = re.compile(r"^(?:const\s+)?void\s*\*$")
INTTYPE = re.compile(r"^(?:unsigned\s+long(?:\s+long)?|long(?:\s+long)?|uintptr_t|unsigned\s+int|int|u64|u32|ulong|size_t)$")
# Our places as (file:line, function) pairs, each with its target types.
ours_pairs = collections.defaultdict(dict)      # (f, n, fn) -> {to: from}
for (f, n, fn, to), fr in ours.items():
    ours_pairs[(f, n, fn)][to] = fr
for (k, kind, fr, to, where) in audit_rows:
    if kind in ('decl', 'union'):
        ours_pairs[k][to + ' [%s]' % kind] = fr

both_o, ours_only = [], []
for (f, n, fn), tos in sorted(ours_pairs.items()):
    kinds = kinds_of(f, n, fn)
    fr = next(iter(tos.values()))
    to = sorted(tos)[0] + (' (+%d more)' % (len(tos) - 1) if len(tos) > 1 else '')
    row = (f, n, fn, fr, to, len(tos), kinds)
    if (f, n) in clang_lines:
        both_o.append(row + ('same-line',))
        continue
    nn = near(f, n, None, clang_lines)
    text = line_of(f, n)
    cast = cast_before(f, n, fn)
    if 'decl' in kinds:
        cls = 'decl: cross-unit declaration'
    elif kinds == 'union':
        cls = 'union: a store into a union (kind union, not warned)'
    elif len(tos) > 1:
        cls = 'union: a member of each other type'
    elif cast is not None and VOIDP.search(cast):
        cls = 'void*: cast to void * in the expression'
    elif cast is not None and INTTYPE.match(cast):
        cls = 'integer: cast to an integer in the expression'
    elif 'void*' in kinds:
        cls = 'void*: through a variable'
    elif fn not in text:
        cls = 'function not on the line: a macro argument or body'
    elif cast is None:
        cls = 'no cast on the line: a union member, or a cast inside a macro'
    else:
        cls = 'cast Clang did not flag'
    if nn and cls == 'cast Clang did not flag':
        cls += ' (clang at line %d)' % nn
    ours_only.append(row + (cls,))

def write(name, rows, head):
    with open(os.path.join(out, name), 'w') as fh:
        fh.write('\t'.join(head) + '\n')
        for r in rows:
            fh.write('\t'.join(str(x) for x in r) + '\n')

write('ours.tsv', [k + (v, ours_units[k]) for k, v in sorted(ours.items())],
      ('file', 'line', 'function', 'to', 'from', 'units'))
write('clang.tsv', [k + v + (clang_units[k],) for k, v in sorted(clang.items())],
      ('file', 'line', 'col', 'from', 'to', 'units'))
write('audit.tsv', [k + (kd, fr, to, w) for (k, kd, fr, to, w) in audit_rows],
      ('file', 'line', 'function', 'kind', 'from', 'to', 'in'))
write('both.tsv', both_o, ('file', 'line', 'function', 'from', 'to', 'ntypes', 'kinds', 'class'))
write('clang-only.tsv', clang_only, ('file', 'line', 'col', 'operand', 'from', 'to', 'class'))
write('ours-only.tsv', ours_only, ('file', 'line', 'function', 'from', 'to', 'ntypes', 'kinds', 'class'))

# The audit against the warnings, decl places aside.
warn_keys = set((f, n, fn) for (f, n, fn, to) in ours)
aud_keys = set(k for (k, kind, *_r) in audit_rows if kind not in ('decl', 'union'))

S = []
p = S.append
p('ours (-Wkcfi-cast):   %d warnings, %d (place, type) records, %d (file:line, function) pairs, %d file:lines'
  % (sum(ours_units.values()), len(ours), len(set((f, n, fn) for f, n, fn, _b in ours)),
     len(set((f, n) for f, n, _a, _b in ours))))
p('clang (-Wcast-function-type-strict): %d warnings, %d places (file:line:col), %d file:lines'
  % (sum(clang_units.values()), len(clang), len(clang_lines)))
if audit_file:
    p('kcfi-audit --mismatches: %d places (%d decl, %d union); warnings not in the audit: %d; audit (not decl, not union) not in the warnings: %d'
      % (len(audit_rows), sum(1 for r in audit_rows if r[1] == 'decl'),
         sum(1 for r in audit_rows if r[1] == 'union'),
         len(warn_keys - set(audit)), len(aud_keys - warn_keys)))
cl_both = len(both_c)
p('clang places ours also reports (same file:line): %d of %d' % (cl_both, len(clang)))
p('clang only: %d' % len(clang_only))
for c, k in collections.Counter(r[-1].split(' at line')[0] if r[-1].startswith('ours at') else r[-1]
                                for r in clang_only).most_common():
    p('  %5d  %s' % (k, c))
p('ours pairs clang also reports (same file:line): %d of %d' % (len(both_o), len(ours_pairs)))
p('ours only (pairs): %d' % len(ours_only))
for c, k in collections.Counter(r[-1].split(' (clang at')[0] for r in ours_only).most_common():
    p('  %5d  %s' % (k, c))
text = '\n'.join(S) + '\n'
open(os.path.join(out, 'summary.txt'), 'w').write(text)
sys.stdout.write(text)
PY
