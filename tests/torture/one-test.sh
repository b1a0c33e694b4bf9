#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build and run one gcc.c-torture/execute test at one optimisation level,
# with plain gcc and with kcfi-gcc -fsanitize=kcfi, and account for every
# indirect branch of the kcfi build.  Called by run-torture.sh (through
# xargs -P) with its settings in the environment:
#   TT_SRC TT_WORK TT_ARCH TT_TRIPLE TT_CC TT_KCFI_GCC TT_RUN TT_TIMEOUT
#   TT_OBJDUMP TT_ELFCHECK (x86_64 only) TT_HERE (this directory) TT_KEEP
#
#   one-test.sh NAME OPTION...
# The options are one set ("-O3 -g"); OPT below is its words joined by "_"
# ("-O3_-g"), the name results and expected-*.txt give the set.
# Writes one line to $TT_WORK/res/NAME@OPT:
#   NAME OPT PLAIN KCFI ACC COUNTS...
# PLAIN/KCFI: ok | exit:N | sig:N | timeout | nobuild | nolink, and for KCFI
# also refused (kcfi-gcc's error for the address of a nested function, whose
# trampoline has no type id; prepass/trampolines.cc); ACC: ok,
# none (nothing to account), or bad:WHY; COUNTS: key=value of the accounting.
set -u
name=$1
shift
set_flags=$*
opt=$(echo "$set_flags" | tr ' ' _)
src=$TT_SRC/$name.c
d=$TT_WORK/tmp/$name@$opt
res=$TT_WORK/res/$name@$opt
rm -rf "$d"
mkdir -p "$d"
cd "$d" || exit 1
ulimit -c 0

extra=$(awk -v triple="$TT_TRIPLE" -f "$TT_HERE/dg-options.awk" "$src")
# -w as execute.exp's default flags; dg-options come after the level, as
# DejaGnu orders them.
flags="$set_flags -w $extra"

run() {
	# run EXE: the outcome word of one execution.
	timeout -s KILL "$TT_TIMEOUT" $TT_RUN "./$1" </dev/null >"$1.out" 2>&1
	rc=$?
	case $rc in
	0) echo ok ;;
	137) echo timeout ;;
	*) if [ $rc -gt 128 ]; then echo "sig:$((rc - 128))"; else echo "exit:$rc"; fi ;;
	esac
}

# shellcheck disable=SC2086
if ! $TT_CC $flags -o plain "$src" -lm >plain.log 2>&1; then
	echo "$name $opt nobuild - none" >"$res"
	[ -n "${TT_KEEP:-}" ] || rm -rf "$d"
	exit 0
fi
plain=$(run plain)

kcfi=ok acc=none counts=
# shellcheck disable=SC2086
if ! $TT_KCFI_GCC -fsanitize=kcfi $flags -c -save-temps=obj -o k.o "$src" \
	-Wa,--kcfi-stats >kcfi.log 2>&1; then
	kcfi=nobuild
	# Refused on purpose, and for that reason only: every error is the
	# nested-function one.
	if grep -q ': error: taking the address of .*nested function' kcfi.log &&
	   ! grep ': error: ' kcfi.log | grep -vq 'taking the address of .*nested function'; then
		kcfi=refused
	fi
elif ! $TT_KCFI_GCC -fsanitize=kcfi $flags -o kcfi k.o -lm >>kcfi.log 2>&1; then
	kcfi=nolink
else
	kcfi=$(run kcfi)
fi

if [ -f k.s ] && [ -f k.o ]; then
	cgoto= nosan=
	grep -Eq 'goto[ \t]*\*|__label__|__builtin_(longjmp|setjmp|eh_return)' "$src" && cgoto=1
	grep -q 'no_sanitize' "$src" && nosan=1
	asm=$(awk -v arch="$TT_ARCH" -v cgoto="$cgoto" -v nosan="$nosan" \
		-f "$TT_HERE/account-asm.awk" k.s)
	obj=$($TT_OBJDUMP -d -w --no-show-raw-insn k.o | awk -v arch="$TT_ARCH" \
		-f "$TT_HERE/account-obj.awk")
	stats=$(sed -n 's/^kcfi-as: [^:]*: //p' kcfi.log | tail -n 1)
	traps=-
	if [ -n "${TT_ELFCHECK:-}" ]; then
		"$TT_ELFCHECK" k.o >elfcheck.out 2>&1 || echo "elfcheck-failed" >>elfcheck.out
		if grep -q '^BAD\|elfcheck-failed' elfcheck.out; then
			traps=bad
		else
			traps=$(grep -c '^trap ' elfcheck.out)
		fi
	fi
	# key=value words -> shell variables a_*, o_*, s_* (numbers only).
	for kv in $(echo "$asm" | tail -n 1); do eval "a_${kv%%=*}=${kv#*=}"; done
	for kv in $obj; do eval "o_${kv%%=*}=${kv#*=}"; done
	s_checks=-1 s_no_sanitize=-1 s_unprototyped=-1 s_nocall=-1 s_trampoline=-1
	for kv in $(echo "$stats" | tr -d '()'); do
		case $kv in *=[0-9]*) eval "s_${kv%%=*}=${kv#*=}" ;; esac
	done
	why=
	checked=$((a_call + a_sibcall))
	exempt=$((a_noproto + a_nosan + a_direct + a_table + a_nocall_goto + a_inline + a_tramp))
	[ "$a_bad" -eq 0 ] || why="$why,asm:$(echo "$asm" | grep '^BAD' | head -n 1 | tr ' ' _)"
	[ "$s_checks" -eq "$checked" ] || why="$why,kcfi-as-checks=$s_checks-vs-asm=$checked"
	[ "$o_guarded" -eq "$checked" ] || why="$why,guarded=$o_guarded-vs-checked=$checked"
	[ "$o_indirect" -eq $((checked + exempt)) ] ||
		why="$why,obj-indirect=$o_indirect-vs-annotated=$((checked + exempt))"
	[ "$s_no_sanitize" -eq "$a_nosan" ] || why="$why,nosan=$s_no_sanitize-vs-$a_nosan"
	[ "$s_unprototyped" -eq "$a_noproto" ] || why="$why,noproto=$s_unprototyped-vs-$a_noproto"
	[ "$s_trampoline" -eq "$a_tramp" ] || why="$why,trampoline=$s_trampoline-vs-$a_tramp"
	[ "$s_nocall" -eq $((a_table + a_nocall_goto)) ] ||
		why="$why,nocall=$s_nocall-vs-$((a_table + a_nocall_goto))"
	case $traps in
	-) ;;
	bad) why="$why,elfcheck:$(grep -m1 '^BAD\|elfcheck-failed' elfcheck.out | tr ' ' _)" ;;
	*) [ "$traps" -eq "$checked" ] || why="$why,traps=$traps-vs-checked=$checked" ;;
	esac
	acc=${why:+bad:${why#,}}
	acc=${acc:-ok}
	counts="call=$a_call sibcall=$a_sibcall noproto=$a_noproto nosan=$a_nosan direct=$a_direct table=$a_table nocall_goto=$a_nocall_goto inline=$a_inline tramp=$a_tramp indirect=$o_indirect"
fi
# A kcfi-as error in the log, whatever the outcome: it rejected this input.
grep -q 'error:' kcfi.log && [ "$kcfi" != nobuild ] && [ "$kcfi" != refused ] &&
	kcfi="$kcfi+errors"

echo "$name $opt $plain $kcfi $acc $counts" >"$res"
case "$plain $kcfi $acc" in
"ok ok ok"|"ok ok none") [ -n "${TT_KEEP:-}" ] || rm -rf "$d" ;;
esac
exit 0
