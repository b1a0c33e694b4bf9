# SPDX-License-Identifier: GPL-2.0-or-later
# aarch64 branch ranges: one function with 1600 checked indirect calls in a
# block guarded by a single-bit test, the shape GCC compiles to tbz/tbnz
# (+-32 KiB).  Each check adds six instructions GNU as cannot relax around;
# the plugin's reservation makes GCC pick a branch that still reaches.  The
# program must assemble and run under qemu-aarch64, and with a budget of one
# statement GCC must really choose tbz over the block (else this proves
# nothing).
. "$top_srcdir/tests/cross/lib.sh"
pick_triples
case " $TS " in *" aarch64-"*) ;; *) skip "no usable aarch64 target" ;; esac
t=$(for x in $TS; do case $x in aarch64-*) echo "$x"; break ;; esac; done)
N=1600

{
	echo 'typedef int (*step_fn)(int);'
	echo '__attribute__((noipa)) int stress(step_fn const *f, int flag, int v) {'
	echo '	if (flag & 4) {'
	i=0
	while [ $i -lt $N ]; do echo "		v = f[$((i % 7))](v);"; i=$((i + 1)); done
	echo '	}'
	echo '	return v;'
	echo '}'
	cat <<'END'
#include <stdio.h>
static int inc(int v) { return v + 1; }
static int dbl(int v) { return (v * 2) & 0xffff; }
int main(void)
{
	step_fn const f[7] = { inc, inc, dbl, inc, inc, inc, inc };
	int r = stress(f, 4, 1) + stress(f, 0, 1000);
	printf("%d\n", r);
	return 0;
}
END
} >"$T/stress.c"

# The expected result, computed here the same way.
v=1 i=0
while [ $i -lt $N ]; do
	if [ $((i % 7)) -eq 2 ]; then v=$(( (v * 2) & 0xffff )); else v=$((v + 1)); fi
	i=$((i + 1))
done
want=$((v + 1000))

check "stock budget: GCC puts a tbz over the calls" sh -c \
	"$top_builddir/$t-kcfi-gcc -fsanitize=kcfi -fplugin-arg-kcfi-reserve=1 -fsanitize-kcfi-annotated-asm -O2 -S -o $T/one.s $T/stress.c &&
	 grep -qE '^	tbn?z	' $T/one.s"
check "$N checks assemble" kx "$t" -O2 -Wa,--kcfi-stats -o "$T/stress" "$T/stress.c"
check "... all $N are checked" grep -q "checks=$N " "$T/kx.err"
check "... and run" sh -c "$(qemu_of "$t") -L /usr/$t $T/stress | grep -qx $want"
finish
