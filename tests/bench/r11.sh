#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/r11-checks.awk, which make bench-kernel runs on our vmlinux.o and
# Clang's: first on canned objdump text with one check of each kind, then
# on the same C functions compiled by kcfi-gcc and by clang-19 the way the
# kernel compiles them (retpolines, FineIBT's 11 bytes of padding).
. "$top_srcdir/tests/lib.sh"
A=$top_srcdir/bench/r11-checks.awk
OBJDUMP=${OBJDUMP:-objdump}

cat > "$T/canned" <<'D'
0000000000000000 <copy_first>:
   0:	mov    %rbx,%r11
   3:	mov    $0x47c9f9da,%r10d
   9:	add    -0xf(%r11),%r10d
   d:	je     11 <copy_first+0x11>
   f:	ud2
  11:	cs call 17 <copy_first+0x17>
0000000000000020 <load_early>:
  20:	mov    0x8(%rdi),%r11
  24:	mov    %rsi,%rdi
  27:	mov    $0x5b771404,%r10d
  2d:	add    -0xf(%r11),%r10d
  31:	je     35 <load_early+0x15>
  33:	ud2
  35:	cs call 3b <load_early+0x1b>
  3b:	mov    %r14,%r11
  3e:	call   43 <load_early+0x23>
  43:	mov    $0x5b771404,%r10d
  49:	add    -0xf(%r11),%r10d
  4d:	je     51 <load_early+0x31>
  4f:	ud2
  51:	cs call 57 <load_early+0x37>
0000000000000060 <other_regs>:
  60:	mov    $0x47c9f9da,%r10d
  66:	add    -0xf(%rax),%r10d
  6a:	je     6e <other_regs+0xe>
  6c:	ud2
  6e:	call   *%rax
  70:	mov    $0x47c9f9da,%r11d
  76:	add    -0xf(%r10),%r11d
  7a:	je     7e <other_regs+0x1e>
  7c:	ud2
  7e:	call   *%r10
  80:	mov    $0x1,%r10d
  86:	add    0x4(%r11),%r10d
D
# Five checks (the last add reads no id: it is not one), three through %r11: one starts
# with a copy, one has its load scheduled earlier, and one finds the copy
# before an intervening call, which no longer counts.
check "canned" test "$(awk -f "$A" "$T/canned")" = "5 3 1 1 1 1"

command -v "$OBJDUMP" >/dev/null || skip "objdump not found"
CLANG=${CLANG19:-clang-19}
command -v "$CLANG" >/dev/null || { finish; }
cat > "$T/calls.c" <<'C'
struct ops { int (*f)(int); void (*g)(void *); };
extern void other(void);
int one(struct ops *o, int x) { return o->f(x); }
int twice(int (*f)(int), int x) { int a = f(x); other(); return a + f(x + 1); }
int loop(int (*const *fs)(int), int n) { int s = 0; for (int i = 0; i < n; i++) s += fs[i](i); return s; }
void many(struct ops *o, void *p) { o->g(p); o->g(p); other(); o->g(o); }
long sixth(long a, long b, long c, long d, long e, long (*f)(long, long)) { return f(a, b) + c + d + e; }
C
K="-O2 -fno-PIE -mcmodel=kernel -mno-red-zone -fpatchable-function-entry=11,11 -fsanitize=kcfi -c"
# kcfi-gcc and clang-19 each; the counter must see every check the trap
# table lists, all of them through %r11 behind retpolines, and the copies
# that no compiler avoids: a target kept in a callee-saved register across
# other(), twice, and one passed in %r9.
counted() {
	set -- $(awk -f "$A" "$T/$1.dis") "$(( $("$OBJDUMP" -h "$T/$1.o" |
		awk '$2 == ".kcfi_traps" { print "0x" $3 }') / 4 ))"
	echo "$1 checks ($7 traps), $2 through %r11, $3 start with a mov to %r11 ($4 copies); copies $5, loads $6" >&2
	[ "$1" = "$7" ] && [ "$2" = "$1" ] && [ "$5" -ge 3 ] && [ "$4" -le "$3" ] && [ $(($5 + $6)) -le "$2" ]
}
if "$KCFI_GCC" $K -mindirect-branch=thunk-extern -mindirect-branch-register \
	-mindirect-branch-cs-prefix "$T/calls.c" -o "$T/gcc.o"; then
	"$OBJDUMP" -d -w --no-show-raw-insn "$T/gcc.o" > "$T/gcc.dis"
	check "kcfi-gcc object" counted gcc
else
	fail "kcfi-gcc compile"
fi
if "$CLANG" $K -mretpoline-external-thunk -mindirect-branch-cs-prefix "$T/calls.c" -o "$T/clang.o"; then
	"$OBJDUMP" -d -w --no-show-raw-insn "$T/clang.o" > "$T/clang.dis"
	check "clang object" counted clang
else
	fail "clang compile"
fi
finish
