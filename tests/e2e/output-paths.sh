#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every output our tools write lands where plain gcc and GNU as put theirs,
# for every kind of path -o (or another output option) names: a new file, a
# regular file (its mode and hard links as gcc keeps them), a character
# device (a scratch copy of /dev/null, never the real one), a symlink, a
# FIFO with a reader (under a timeout, so a regression fails, not hangs),
# `-`, a missing or read-only directory (an error naming the file), and a
# full disk (/dev/full, and a tiny tmpfs: an error naming the file, no
# partial file where gcc leaves none).  Each case runs twice in identical
# scratch directories, once with the plain tool and once with ours, and
# what each leaves behind is described and compared: exit status, the
# path's kind, mode, links and size, where a symlink points, what the FIFO
# reader and stdout got, the directory's other files, and $TMPDIR.
# Issue 41 B.  Root only: mknod and mount.
. "$top_srcdir/tests/e2e/lib.sh"

[ "$(command id -u)" = 0 ] || skip "needs root (mknod for the scratch devices)"
CC0=${PLUGIN_CC:-gcc}
REAL_AS=$($CC0 -print-prog-name=as)
umask 027
TO=30		# seconds before a case counts as hung

# The read-only and tiny tmpfs mounts of a case interrupted midway.
trap 'awk -v t="$T/" "index(\$2, t) == 1 { print \$2 }" /proc/mounts |
	while read -r m; do umount "$m"; done; rm -rf "$T"' EXIT
can_mount=no
mkdir "$T/probe" && mount -t tmpfs -o size=16k tmpfs "$T/probe" 2>/dev/null &&
	umount "$T/probe" && can_mount=yes
[ $can_mount = yes ] || echo "note: mount refused: the read-only directory and tiny tmpfs cases are skipped"

cat >"$T/x.c" <<'EOF'
void (*fp)(int *);
static void f(int *p) { *p = 1; }
int main(void) { int x = 0; fp = f; fp(&x); return !x; }
EOF
# A unit whose assembly is larger than the tiny tmpfs.
awk 'BEGIN { print "void (*fp)(int *);"; for (i = 0; i < 300; i++)
	printf "void f%d(int *p) { p[%d] = %d; fp(p); }\n", i, i, i }' >"$T/big.c"
# Something kcfi-as refuses, and something GNU as refuses.
bad_kcfi() {
	"$KCFI_GCC" -fsanitize=kcfi -fsanitize-kcfi-annotated-asm -O2 -S -o "$T/bad-kcfi.s" "$T/x.c" &&
		sed -i 's/^\t\.kcfi_version.*/&\n\t.kcfi_bogus 1/' "$T/bad-kcfi.s"
}
bad_kcfi || fail "annotated assembly for the refusal cases"
printf '\tbad instruction\n' >"$T/bad-gas.s"
"$KCFI_GCC" -fsanitize=kcfi -fsanitize-kcfi-annotated-asm -O2 -S -o "$T/ann.s" "$T/x.c" &&
	"$KCFI_AS" --kcfi-no-assemble --kcfi-save="$T/fin.s" "$T/ann.s" ||
	fail "annotated and finished assembly for kcfi-as and GNU as"
"$KCFI_GCC" -fsanitize=kcfi -O2 -c -o "$T/big.o" "$T/big.c" || fail "an object for kcfi-audit"

# setup KIND NAME: in the current directory, make NAME (a path) what KIND
# says; prints the path the command is to get.
setup() {
	case $1 in
	new) echo "$2" ;;
	reg) printf 'old\n' >"$2"; chmod 640 "$2"; ln "$2" "$2.hl"; echo "$2" ;;
	link) printf 'old\n' >target; chmod 640 target; ln -s target "$2"; echo "$2" ;;
	dev) mknod "$2" c 1 3; echo "$2" ;;
	fifo) mkfifo "$2"; echo "$2" ;;
	stdout) echo - ;;
	nodir) echo "nodir/$2" ;;
	rodir) mkdir ro; mount -t tmpfs -o ro,size=16k tmpfs ro; echo "ro/$2" ;;
	full) mknod "$2" c 1 7; echo "$2" ;;
	small) mkdir small; mount -t tmpfs -o size=8k tmpfs small; echo "small/$2" ;;
	esac
}

# what PATH: one line saying what is at PATH.
what() {
	if [ -L "$1" ]; then
		echo "symlink to $(readlink "$1"): $(what "$(dirname "$1")/$(readlink "$1")")"
	elif [ -c "$1" ]; then
		echo "char device $(stat -c '%t,%T' "$1")"
	elif [ -p "$1" ]; then
		echo "fifo"
	elif [ -f "$1" ]; then
		s=empty; [ -s "$1" ] && s=nonempty; grep -qx old "$1" && s=old
		h=; [ -e "$1.hl" ] && { [ "$1" -ef "$1.hl" ] && h=", hard link kept" || h=", hard link broken"; }
		echo "file mode $(stat -c %a "$1"), $(stat -c %h "$1") links, $s$h"
	elif [ -e "$1" ]; then
		echo "other"
	else
		echo "none"
	fi
}

# run_case DIR KIND NAME CMD...: in a fresh DIR, set NAME up as KIND, run
# CMD with the @ ending a word replaced by the path, and describe the outcome
# in DIR.out.  A FIFO gets a reader first, which times out if no one opens
# the FIFO for it.
run_case() {
	rc_dir=$1 rc_kind=$2 rc_name=$3
	shift 3
	rm -rf "$rc_dir" "$rc_dir.tmp"
	mkdir -p "$rc_dir" "$rc_dir.tmp"
	cp "$T/x.c" "$T/big.c" "$rc_dir/"
	(
		cd "$rc_dir" || exit 1
		p=$(setup "$rc_kind" "$rc_name")
		for a; do
			case $a in *@) a=${a%@}$p ;; esac
			set -- "$@" "$a"
			shift
		done
		reader=
		if [ "$rc_kind" = fifo ]; then
			timeout $TO cat "$p" >"$rc_dir.fifo" &
			reader=$!
			# The writer starts once the reader waits in open(): GNU as
			# opens its output read-write, which never waits, and may be
			# done with it before a later reader's open() could see it.
			fifo_wait=0
			until grep -qs wait_for_partner "/proc/$(pgrep -P $reader | head -n 1)/wchan" ||
				[ $fifo_wait -ge 50 ]; do
				sleep 0.1
				fifo_wait=$((fifo_wait + 1))
			done
		fi
		TMPDIR=$rc_dir.tmp timeout $TO "$@" >"$rc_dir.stdout" 2>"$rc_dir.err" </dev/null
		st=$?
		# A reader nobody opened the FIFO for waits out its timeout.
		[ -n "$reader" ] && ! wait $reader && echo "fifo reader: timed out"
		case $st in
		0) echo "status 0" ;;
		124) echo "timed out" ;;
		*) [ $st -gt 128 ] && echo "killed ($st)" || echo "failed" ;;
		esac
		[ "$p" = - ] || echo "path: $(what "$p")"
		[ -s "$rc_dir.stdout" ] && echo "stdout: data"
		[ "$rc_kind" = fifo ] && { [ -s "$rc_dir.fifo" ] && echo "fifo reader: data" || echo "fifo reader: nothing"; }
		echo "files: $(find . -path ./ro -prune -o -path ./small -prune -o ! -name . -print | sort | tr '\n' ' ')"
		[ -d small ] && echo "small/: $(ls -A small | tr '\n' ' ')"
		echo "TMPDIR: $(ls -A "$rc_dir.tmp" | tr '\n' ' ')"
		for m in ro small; do [ -d $m ] && umount $m; done
		exit 0
	) >"$rc_dir.out"
}

# same LABEL KIND NAME REF-CMD -- OUR-CMD: the case under both, compared.
# Where the reference's message names the path, ours names it too (not
# where each refuses its input: GNU as opens its output before reading,
# kcfi-as refuses input before the real assembler runs).
same() {
	s_label=$1 s_kind=$2 s_name=$3
	shift 3
	n=0
	for a; do [ "$a" = -- ] && break; n=$((n + 1)); done
	ref=$(printf '%s\n' "$@" | head -n $n)
	ours=$(printf '%s\n' "$@" | tail -n +$((n + 2)))
	d=$T/cases/$(echo "$s_label-$s_kind" | tr -c 'a-zA-Z0-9.\n-' _)
	# shellcheck disable=SC2086 # words without blanks, split on purpose
	(IFS='
'; run_case "$d.ref" "$s_kind" "$s_name" $ref)
	(IFS='
'; run_case "$d.ours" "$s_kind" "$s_name" $ours)
	if ! diff -u "$d.ref.out" "$d.ours.out" >"$d.diff"; then
		fail "$s_label, $s_kind: not as the reference"
		sed 's/^/    /' "$d.diff"; sed 's/^/    ours: /' "$d.ours.err" | head -5
	elif [ "${s_label%refused}" = "$s_label" ] && grep -qF "$s_name" "$d.ref.err" &&
	     ! grep -qF "$s_name" "$d.ours.err"; then
		fail "$s_label, $s_kind: the error does not name $s_name"
		sed 's/^/    /' "$d.ours.err" | head -5
	else
		pass "$s_label, $s_kind: as the reference ($(head -1 "$d.ours.out"))"
	fi
}

KINDS="new reg link dev fifo stdout nodir full"
[ $can_mount = yes ] && KINDS="$KINDS rodir small"
K="$KCFI_GCC -fsanitize=kcfi"
for kind in $KINDS; do
	same "-S" $kind x.s $CC0 -O2 -S big.c -o @ -- $K -O2 -S big.c -o @
	same "-c" $kind x.o $CC0 -O2 -c big.c -o @ -- $K -O2 -c big.c -o @
	same "-E" $kind x.i $CC0 -E big.c -o @ -- $K -E big.c -o @
	same "link" $kind prog $CC0 -O2 x.c -o @ -- $K -O2 x.c -o @
	same "-MD -MF" $kind x.d $CC0 -O2 -c x.c -o x.o -MD -MF @ -- $K -O2 -c x.c -o x.o -MD -MF @
	same "-S -save-temps" $kind x.s $CC0 -O2 -save-temps -S big.c -o @ -- \
		$K -O2 -save-temps -S big.c -o @
	# kcfi-as against GNU as, on assembly each accepts and on assembly
	# each refuses.
	same "kcfi-as -o" $kind x.o $REAL_AS -o @ "$T/fin.s" -- "$KCFI_AS" -o @ "$T/ann.s"
	same "kcfi-as -o, refused" $kind x.o $REAL_AS -o @ "$T/bad-gas.s" -- \
		"$KCFI_AS" -o @ "$T/bad-kcfi.s"
	# Our own outputs, which gcc has not: written as gcc -S writes its -o.
	same "--kcfi-save" $kind x.s sh -c "$CC0 -O2 -S big.c -o \"\$1\" && $CC0 -O2 -c big.c -o x.o" sh @ -- \
		$K -O2 -c big.c -o x.o -Wa,--kcfi-save=@
	[ $kind = stdout ] && continue	# kcfi-audit's report is on stdout
	for o in csv json plot; do
		[ $o = plot ] && ! command -v gnuplot >/dev/null && continue
		same "kcfi-audit --$o" $kind x.$o $CC0 -O2 -S big.c -o @ -- \
			sh -c "\"\$0\" --targets --$o=\"\$1\" '$T/big.o' >/dev/null" "$top_builddir/kcfi-audit" @
	done
done
# -save-temps -c: the kept assembly is the path; gcc writes it and as reads it
# back (a FIFO would block plain gcc, so none here).
for kind in new reg link dev; do
	same "-c -save-temps (x.s)" $kind x.s $CC0 -O2 -save-temps -c x.c -o x.o -- \
		$K -O2 -save-temps -c x.c -o x.o
done

# The issue's own line, in the scratch directory's copy of /dev/null.
mkdir "$T/null" && mknod "$T/null/null" c 1 3
check "kcfi-gcc -S -o null keeps the device" sh -c \
	"'$KCFI_GCC' -fsanitize=kcfi -S -o '$T/null/null' '$T/x.c' && test -c '$T/null/null'"
finish
