#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Prefix statements alone on their lines ("cs", "rex64", as GCC prints them
# before a retpoline thunk or the TLS GD call) after a call-site directive
# are held by kcfi-as, so that a check or a record label can go in front of
# them.  GNU as writes a lone prefix at once, so it applies to whatever comes
# next: every held prefix must come back out exactly once, in its place, or
# the input is refused with file:line.  A table of directive x prefixes x
# what follows them, in 64- and 32-bit mode; where kcfi-as checks nothing,
# GNU as on the input without the .kcfi_ lines is the oracle for .text.
. "$top_srcdir/tests/lib.sh"

# text FILE.o: the bytes of its .text, one per line.
text() {
	objcopy -O binary -j .text "$1" "$1.bin" && od -An -v -tx1 "$1.bin" | tr -s ' \n' '\n\n' | sed '/^$/d'
}
# dis FILE.o: its .text's instructions without addresses and bytes.
dis() {
	objdump -d --no-show-raw-insn "$1" | awk -F'\t' 'NF >= 2 && $1 ~ /^ *[0-9a-f]+:$/ { s = $2
		sub(/ *[#<].*/, "", s); gsub(/ +/, " ", s); sub(/ $/, "", s); print s }'
}

# unit MODE DIRECTIVE PREFIXES KIND: the input, on stdout.  Line 6 is the
# directive, each prefix word a line after it, then what KIND puts there.
unit() {
	case $1 in
	64) printf '\t.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0\n'; r=rax ;;
	32) printf '\t.kcfi_version 1, "i686-linux-gnu", ptr=32, long=32, char=signed, prefix=0\n'; r=eax ;;
	esac
	printf '\t.kcfi_type 1, "void (void)"\n\t.file 1 "a.c"\n\t.text\nf:\n\t%s\n' "$2"
	for p in $3; do printf '\t%s\n' "$p"; done
	case $4 in
	ibr)	 printf '\tjmp\t*%%%s\n' $r ;;
	jmp)	 printf '\tjmp\t.L9\n\tjmp\t*%%%s\n' $r ;;
	jcc)	 printf '\tjne\t.L9\n\tjmp\t*%%%s\n' $r ;;
	call)	 printf '\tcall\t.L9\n' ;;
	insn)	 printf '\tmovl\t%%eax, %%edx\n\tjmp\t*%%%s\n' $r ;;
	data16)	 printf '\t.byte\t0x66\n\tjmp\t*%%%s\n' $r ;;
	loc)	 printf '\t.loc 1 2 3\n\tjmp\t*%%%s\n' $r ;;
	compound) printf '\tcall\t.L9; jmp *%%%s\n' $r ;;
	label)	 printf '.L8:\n\tjmp\t*%%%s\n' $r ;;
	align)	 printf '\t.p2align 4\n\tjmp\t*%%%s\n' $r ;;
	kcfi)	 printf '\t.kcfi_call_direct\n\tjmp\t*%%%s\n' $r ;;
	eof)	 return ;;
	esac
	printf '.L9:\n\tret\n'
}

# What becomes of DIRECTIVE ($1) and KIND ($2), whatever the prefixes:
# "keep", or "refuse OFFSET PATTERN", OFFSET counting from the line of
# KIND's first statement (d: the directive's line).
expect() {
	case $1:$2 in
	*:ibr | *:loc) echo keep ;;
	*:label) echo "refuse 0 label '.L8' between" ;;
	*:align) echo "refuse 0 directive '.p2align' between" ;;
	*:kcfi) echo "refuse 0 .kcfi_call_direct between" ;;
	*:eof) echo "refuse d no branch follows" ;;
	.kcfi_call_direct:jmp | .kcfi_call_direct:jcc) echo "refuse 1 without a kcfi annotation" ;;
	.kcfi_call_direct:compound) echo "refuse 0 without a kcfi annotation" ;;
	.kcfi_call_direct:* | .kcfi_branch_nocall:jmp | .kcfi_branch_nocall:jcc | \
	.kcfi_branch_nocall:insn | .kcfi_branch_nocall:data16) echo keep ;;
	*:data16) echo "refuse 0 directive '.byte' between" ;;
	*) echo "refuse 0 must annotate" ;;
	esac
}

# Prefixes a check cannot carry (doc/directives.md 3.2.1) and the ones it
# drops as meaningless on a near branch.
uncheckable() { case " $1 " in *" lock "* | *" rep "* | *" data16 "*) true ;; *) false ;; esac; }

row() {	# MODE DIRECTIVE PREFIXES KIND
	m=$1 d=$2 p=$3 k=$4
	name="$m/$d/$(echo $p | tr ' ' +)/$k"
	np=$(echo $p | wc -w)
	as_mode=--$m
	unit $m "$d" "$p" $k >"$T/k.s"
	sed '/\.kcfi_/d' "$T/k.s" >"$T/r.s"
	want=$(expect "$d" $k)
	if [ "$want" = keep ] && [ "$d" = ".kcfi_call 1" ] && uncheckable "$p"; then
		# At the branch, after the .loc line if there is one; reported
		# at the C line the .loc names, with the assembly line after.
		[ $k = loc ] && want="refuse 1 cannot be checked by KCFI" ||
			want="refuse 0 cannot be checked by KCFI"
	fi
	rm -f "$T/k.o"
	if "$KCFI_AS" $as_mode -o "$T/k.o" "$T/k.s" >"$T/k.err" 2>&1; then
		case $want in
		refuse*) fail "$name: accepted, expected: $want"; return ;;
		esac
		grep -q 'Error' "$T/k.err" && { fail "$name: $(cat "$T/k.err")"; return; }
	else
		case $want in
		keep) fail "$name: refused:"; sed 's/^/    /' "$T/k.err"; return ;;
		esac
		set -- $want
		[ "$2" = d ] && line=6 || line=$((7 + np + $2))
		shift 2
		if ! grep -q -e "^$T/k.s:$line:\([0-9]*:\)\{0,1\} error: .*$*" \
			     -e "^a\.c:[0-9:]* error: .*$*.* (assembly: $T/k.s:$line)\$" "$T/k.err"; then
			fail "$name: expected 'k.s:$line: error: ...$*', got:"; sed 's/^/    /' "$T/k.err"
		elif [ -e "$T/k.o" ]; then
			fail "$name: an object was left behind"
		else
			pass "$name: refused at line $line"
		fi
		return
	fi
	as $as_mode -o "$T/r.o" "$T/r.s" 2>/dev/null || { fail "$name: GNU as rejects the reference"; return; }
	if [ "$d" = ".kcfi_call 1" ]; then
		# The check, then the program's instructions as GNU as makes them;
		# rex64 is the one prefix the checked branch drops.
		dis "$T/k.o" | sed '1,/^\(ud2\|int3\)$/d' >"$T/k.dis"
		dis "$T/r.o" | sed 's/rex\.W //' >"$T/r.dis"
		if ! dis "$T/k.o" | grep -q '^\(ud2\|int3\)$'; then
			fail "$name: no check"
		elif cmp -s "$T/k.dis" "$T/r.dis"; then
			pass "$name: checked, prefixes kept"
		else
			fail "$name: after the check"; diff "$T/r.dis" "$T/k.dis" | sed 's/^/    /'
		fi
	elif [ "$(text "$T/k.o")" = "$(text "$T/r.o")" ]; then
		pass "$name: .text as GNU as makes it"
	else
		fail "$name: .text differs from GNU as's"
		dis "$T/r.o" >"$T/r.dis"; dis "$T/k.o" | diff "$T/r.dis" - | sed 's/^/    /'
	fi
}

P64='cs ds notrack bnd rex64 lock rep data16'
P32='cs ds notrack bnd lock rep data16'
for m in 64 32; do
	eval prefixes=\$P$m
	for d in '.kcfi_call 1' .kcfi_call_unchecked .kcfi_call_direct .kcfi_branch_nocall; do
		for k in ibr jmp jcc call insn data16 loc compound label align kcfi eof; do
			# Two on their own lines; not cs and notrack, two segment
			# prefixes GNU as takes on two lines but not on one.
			for p in $prefixes 'cs bnd'; do
				row $m "$d" "$p" $k
			done
		done
	done
done

# A lone prefix before a call-site directive or .kcfi_func is refused
# (doc/directives.md 3.1) until bytes of its own section follow it: a
# label, alignment that may pad nothing, or code in another section do not
# end it.
V='	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0'
before() {	# NAME WANT(ok|refuse) LINES...
	n=$1 w=$2; shift 2
	{ printf '%s\n\t.kcfi_type 1, "void (void)"\n\t.text\nf:\n\tcs\n' "$V"; printf '%s\n' "$@"; } >"$T/b.s"
	if "$KCFI_AS" -o "$T/b.o" "$T/b.s" >"$T/b.err" 2>&1; then
		[ $w = ok ] && pass "cs, $n" || fail "cs, $n: accepted"
	elif [ $w = refuse ] && grep -q "^$T/b.s:[0-9]*: error: .* after the prefix at line 5" "$T/b.err"; then
		pass "cs, $n: refused"
	else
		fail "cs, $n:"; sed 's/^/    /' "$T/b.err"
	fi
}
before "label, .kcfi_call" refuse '.L5:' '	.kcfi_call 1' '	call *%rax'
before ".p2align, .kcfi_func" refuse '	.p2align 4' '	.kcfi_func g, 1' 'g:' '	ret'
before "code in another section, .kcfi_call" refuse '	.pushsection .text.x' '	nop' '	.popsection' \
	'	.kcfi_call 1' '	call *%rax'
before "nop, .kcfi_call" ok '	nop' '	.kcfi_call 1' '	call *%rax'
before ".byte, .kcfi_call" ok '	.byte 0x90' '	.kcfi_call 1' '	call *%rax'

# GCC's own: -mindirect-branch-cs-prefix puts "cs" on a line of its own
# before a thunk call through %r8..%r15, -fno-plt "rex64" before the TLS GD
# call; every one of them reaches the object.
command -v gcc >/dev/null || { finish; }
cat >"$T/g.c" <<'END'
typedef int (*fn)(int);
__thread int tv;
int *tls(void) { return &tv; }
int t6(long a, long b, long c, long d, long e, fn g) { return g(1) + 1; }
int s6(long a, long b, long c, long d, long e, fn g) { return g(1); }
int sw(int k, int x)
{
	switch (k) {
	case 0: return x + 1; case 1: return x * 3; case 2: return x - 7; case 3: return x ^ 9;
	case 4: return x << 2; case 5: return x >> 1; case 6: return 42; case 7: return x * x;
	}
	return 0;
}
END
for f in "-mindirect-branch=thunk-extern -mindirect-branch-cs-prefix -mfunction-return=thunk-extern" \
	 "-fcf-protection -mindirect-branch=thunk-extern -mindirect-branch-cs-prefix -mfunction-return=thunk-extern" \
	 "-fPIC -fno-plt" "-fPIC -fno-plt -fcf-protection"; do
	if ! (cd "$T" && "$KCFI_GCC" -fsanitize=kcfi -O2 $f -save-temps -c g.c -o g.o) >"$T/g.err" 2>&1; then
		fail "gcc $f:"; sed 's/^/    /' "$T/g.err"; continue
	fi
	cs=$(grep -c '^	cs$' "$T/g.s") rex=$(grep -c '^	rex64$' "$T/g.s")
	ocs=$(objdump -d "$T/g.o" | grep -c '	cs \(call\|jmp\) ')
	orex=$(objdump -d "$T/g.o" | grep -c 'rex\.W call')
	if [ $((cs + rex)) -eq 0 ]; then
		fail "gcc $f: no lone prefix in GCC's output (test stale?)"
	elif [ "$ocs" -ge "$cs" ] && [ "$orex" -ge "$rex" ]; then
		pass "gcc $f: $cs cs and $rex rex64 lines, all in the object"
	else
		fail "gcc $f: $cs cs and $rex rex64 lines, $ocs and $orex prefixed branches in the object"
	fi
done
finish
