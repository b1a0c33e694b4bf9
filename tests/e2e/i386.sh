#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# i386 user space (doc/abi.md 1a): a three-unit program built with
# kcfi-gcc -m32, with i686-linux-gnu-kcfi-gcc when configure built it, and
# mixed with clang-22 -m32 -fsanitize=kcfi (FNV-1a) in both directions, run
# at -O0, -O2, -O2 -fPIC (and -flto with the cross driver), natively (or under qemu-i386 where the kernel
# has no 32-bit support).  Matched calls (through a register, through
# memory, sibcalls, types with long, size_t and pointers, fastcall, stdcall
# and regparm) return;
# each call through a pointer of the wrong type dies of SIGTRAP, the int3
# of the check, before it returns.
. "$top_srcdir/tests/e2e/lib.sh"

CLANG=${CLANG22:-clang-22}
CROSS=$top_builddir/i686-linux-gnu-kcfi-gcc
printf 'int main(void) { return 0; }\n' >"$T/probe.c"

# The linker: gcc -m32 if this system has the 32-bit libc and libgcc
# (Debian's gcc-multilib), else the i686 cross compiler's (statically, so
# that the program needs no 32-bit libraries to run).
if gcc -m32 -o "$T/probe" "$T/probe.c" 2>/dev/null; then
	LINK="gcc -m32"
elif command -v i686-linux-gnu-gcc >/dev/null &&
     i686-linux-gnu-gcc -static -o "$T/probe" "$T/probe.c" 2>/dev/null; then
	LINK="i686-linux-gnu-gcc -static"
else
	skip "no 32-bit x86 link (apt-get install gcc-i686-linux-gnu libc6-dev-i386-cross, or gcc-multilib)"
fi
# Natively where the kernel runs 32-bit programs (IA32 emulation); some
# virtual machines' kernels are built without it, and then qemu-i386 runs
# them (the program is static there, or finds the 32-bit libraries).
if "$T/probe" 2>/dev/null; then
	RUN=
elif command -v qemu-i386 >/dev/null && qemu-i386 "$T/probe"; then
	RUN=qemu-i386
	echo "this kernel does not run 32-bit x86 programs: running them under qemu-i386"
else
	skip "this kernel does not run 32-bit x86 programs (IA32 emulation), and there is no qemu-i386"
fi

# build NAME MAIN CALLERS TARGETS FLAGS...: each unit with its compiler
# (gcc: kcfi-gcc -m32, cross: i686-linux-gnu-kcfi-gcc, clang: clang-22 -m32).
compile() {	# COMPILER OUT SRC FLAGS...
	c_c=$1 c_o=$2 c_s=$3
	shift 3
	case $c_c in
	gcc) "$KCFI_GCC" -fsanitize=kcfi -m32 "$@" -c -o "$c_o" "$c_s" ;;
	# The environment names the native plugin; the cross driver finds its own.
	cross) env -u KCFI_PLUGIN "$CROSS" -fsanitize=kcfi "$@" -c -o "$c_o" "$c_s" ;;
	clang) "$CLANG" -m32 -fsanitize=kcfi -Xclang -fsanitize-kcfi-hash=FNV-1a "$@" \
		-c -o "$c_o" "$c_s" ;;
	esac 2>"$T/cc.err" || { cat "$T/cc.err"; false; }
}
build() {
	b_n=$T/$1 b_m=$2 b_c=$3 b_t=$4
	shift 4
	compile "$b_m" "$b_n-main.o" "$E2E/i386-main.c" "$@" &&
	compile "$b_c" "$b_n-callers.o" "$E2E/i386-callers.c" "$@" &&
	compile "$b_t" "$b_n-targets.o" "$E2E/i386-targets.c" "$@" &&
	case " $* " in
	# -flto: the code is generated at the link, by lto1 with the plugin.
	*" -flto "*) env -u KCFI_PLUGIN "$CROSS" -static "$@" -o "$b_n" \
		"$b_n-main.o" "$b_n-callers.o" "$b_n-targets.o" ;;
	*) $LINK -o "$b_n" "$b_n-main.o" "$b_n-callers.o" "$b_n-targets.o" ;;
	esac
}
runs() { $RUN "$1" all >"$T/out" 2>&1 && grep -qx 'all calls returned' "$T/out" || { cat "$T/out"; false; }; }
# 133: killed by SIGTRAP (128 + 5), and it never printed "returned".
traps() {
	$RUN "$1" "$2" >"$T/out" 2>&1
	t_rc=$?
	[ "$t_rc" -eq 133 ] && ! grep -q returned "$T/out" || { echo "exit $t_rc:"; cat "$T/out"; false; }
}
# Every indirect call of the callers' unit carries a check: one int3 each,
# right before the branch.
checked() {
	"$OBJDUMP" -d --no-show-raw-insn "$1" >"$1.dis" || return 1
	ck_n=$(grep -c "	int3" "$1.dis" || true)
	[ "$ck_n" -eq 9 ] || { echo "$1: $ck_n int3, want 9"; false; }
}

# COMPILERS (main:callers:targets) and the flags, "_" for a space: every
# compiler at -O2, kcfi-gcc alone also at -O0 and -O2 -fPIC, and each mix
# once more with -fPIC.
builds="gcc:gcc:gcc/-O0 gcc:gcc:gcc/-O2 gcc:gcc:gcc/-O2_-fPIC"
if [ -x "$CROSS" ]; then
	builds="$builds cross:cross:cross/-O2 cross:cross:cross/-O2_-flto"
else
	echo "not tested: i686-linux-gnu-kcfi-gcc (configure found no i686-linux-gnu-gcc with plugin headers)"
fi
if command -v "$CLANG" >/dev/null; then
	builds="$builds gcc:gcc:clang/-O2 gcc:clang:gcc/-O2 gcc:gcc:clang/-O2_-fPIC gcc:clang:gcc/-O2_-fPIC"
else
	echo "not tested: calls between clang-22 and kcfi-gcc objects (no $CLANG)"
fi
for b in $builds; do
	flags=$(echo "${b#*/}" | tr _ ' ')
	IFS=: read -r m c t <<END
${b%/*}
END
	what="main $m, callers $c, targets $t, $flags"
	n=p$(echo "$b" | tr -c 'a-zA-Z0-9\n' _)
	if ! build "$n" "$m" "$c" "$t" $flags; then
		fail "$what: builds"
		continue
	fi
	case $flags in
	*-flto*) check "$what: the program has the checks" sh -c \
		"[ \$('$OBJDUMP' -d '$T/$n' | grep -c '	int3') -ge 9 ]" ;;
	*) check "$what: every indirect call is checked" checked "$T/$n-callers.o" ;;
	esac
	check "$what: all matched calls return" runs "$T/$n"
	for s in call-reg tail-reg call-mem tail-mem size global conv; do
		check "$what: $s with the wrong type traps" traps "$T/$n" "$s"
	done
done

# regparm(3) with three arguments leaves no call-clobbered register for a
# target GCC calls through memory: refused at the call, never miscompiled.
cat >"$T/r3.c" <<'END'
typedef int (__attribute__((regparm(3))) *r3_fn)(int, int, int);
struct s { r3_fn f; };
int call3(struct s *s) { return s->f(1, 2, 3) + 1; }
END
check "regparm(3) through memory is refused at the call, naming the register" sh -c \
	"! '$KCFI_GCC' -fsanitize=kcfi -m32 -O2 -c -o '$T/r3.o' '$T/r3.c' 2>'$T/r3.err' &&
	 grep -q 'error: the KCFI check of .call	\*[^ ]* in call3() would overwrite eax .*carries an argument of this call' '$T/r3.err' &&
	 [ ! -e '$T/r3.o' ]"

# Calls GCC -m32 prints outside any call insn: -pg's in PIC code, TLS under
# -fno-plt.  They compile; the one call through a pointer is checked.
cat >"$T/tls.c" <<'END'
extern __thread int tv;
extern int ext(int);
int g(void) { return tv + ext(1); }
int h(int (*f)(int)) { return f(tv) + 1; }
END
for f in "-fPIC -fno-plt" "-fPIC -pg" "-fPIC -fno-plt -pg -O0"; do
	check "-m32 $f: TLS, -pg calls pass, the pointer call is checked" sh -c \
		"'$KCFI_GCC' -fsanitize=kcfi -m32 -O2 $f -c -o '$T/tls.o' '$T/tls.c' &&
		 [ \$('$OBJDUMP' -d '$T/tls.o' | grep -c '	int3') -eq 1 ]"
done

# The ids of types with long, size_t and pointers, which -m32 makes 32-bit,
# are clang-22 -m32's: the preambles of the targets carry the same values.
if command -v "$CLANG" >/dev/null; then
	ids() { "$OBJDUMP" -d "$1" | awk '/<__cfi_/ { n = $2 } /mov +\$0x[0-9a-f]+,%eax/ && n { sub(/,.*/, "", $NF); print n, $NF; n = "" }'; }
	compile gcc "$T/tg.o" "$E2E/i386-targets.c" -O2 && compile clang "$T/tc.o" "$E2E/i386-targets.c" -O2 &&
		ids "$T/tg.o" >"$T/tg.ids" && ids "$T/tc.o" >"$T/tc.ids"
	check "preambles: seven, with clang-22 -m32's ids (fastcall, stdcall included)" sh -c \
		"[ \$(wc -l <'$T/tg.ids') -eq 7 ] && diff -u '$T/tc.ids' '$T/tg.ids'"
	check "preamble of int (int, int) __attribute__((fastcall)) is FNV-1a of _ZTSU8fastcallFiiiE" \
		grep -q "<__cfi_fsub>: \\\$$(printf '0x%x' "$(( $(id U8fastcallFiiiE) ))")\$" "$T/tg.ids"
	check "preamble of long (long, const char *) is FNV-1a of _ZTSFllPKcE" \
		grep -q "<__cfi_parse>: \\\$$(printf '0x%x' "$(( $(id FllPKcE) ))")\$" "$T/tg.ids"
fi
# An id that looks like ENDBR32 (this type under xxHash64): masked to
# 0xfb1e0ff4 in the comparison too, where Clang -m32 compares the raw hash
# (doc/abi.md 1a) and traps on its own functions.
cat >"$T/endbr.c" <<'END'
struct s11636896;
void f(struct s11636896 *p) { (void)p; }
void call(void (*g)(struct s11636896 *)) { g(0); }
END
check "an ENDBR-like id is masked in the preamble and in the check alike" sh -c \
	"'$KCFI_GCC' -fsanitize=kcfi -fsanitize-kcfi-hash=xxHash64 -m32 -O2 -S -o '$T/endbr.s' '$T/endbr.c' &&
	 grep -A12 '^__cfi_f:' '$T/endbr.s' | grep -q 'movl	\\\$4213051380, %eax' &&
	 grep -q 'cmpl	\\\$4213051380, -4(%e[a-z]*)' '$T/endbr.s'"
finish
