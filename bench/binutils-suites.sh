#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# GNU binutils 2.40 (Debian's binutils-source) built with each compiler mode
# and run through its own DejaGnu suites (check-binutils, check-gas,
# check-ld), every KCFI trap logged by the preloaded SIGILL reporter
# (tests/e2e/sigill-report.c) and grouped by call site and target.
#
#   sh bench/binutils-suites.sh BUILDDIR [MODE...]
#   MODE: gcc | kcfi | clang | kcfi-stubs   (default: all four),
#         each also as MODE+fixes: on the sources with bench/patches/ applied
#
# gcc:        plain gcc -O2 -g (the baseline)
# kcfi:       BUILDDIR/kcfi-gcc -O2 -g -fsanitize=kcfi
# clang:      clang-19 -O2 -g -fsanitize=kcfi (the peer)
# kcfi-stubs: as kcfi, plus -fsanitize-kcfi-extern-stubs
#
# Work tree: $KCFI_BINUTILS_WORK (default /var/tmp/kcfi-binutils), outside
# the repository.  A mode's build and results are reused while its compiler
# is the same (key: the compiler's --version and, for kcfi-gcc, the bytes of
# the plugin and of kcfi-as).  Each mode takes 20-30 min on 2 cores.
# Prints the pass/fail table and the trap table; writes both to
# $WORK/report.md.  KCFI_BINUTILS_RESYMBOLIZE=1: only symbolize the traps
# logged earlier again and print the tables.  Exit status: 0 when every mode ran.
set -eu
B=$(cd "${1:?usage: binutils-suites.sh BUILDDIR [MODE...]}" && pwd)
shift
[ $# -gt 0 ] || set -- gcc kcfi clang kcfi-stubs
SRC_TAR=/usr/src/binutils/binutils-2.40.tar.xz
WORK=${KCFI_BINUTILS_WORK:-/var/tmp/kcfi-binutils}
HERE=$(cd "$(dirname "$0")" && pwd)
JOBS=$(nproc 2>/dev/null || echo 2)
[ -f "$SRC_TAR" ] || { echo "binutils-suites: $SRC_TAR missing (scripts/install-deps.sh --with-bench)" >&2; exit 2; }
command -v runtest >/dev/null || { echo "binutils-suites: runtest missing (scripts/install-deps.sh --with-bench)" >&2; exit 2; }
mkdir -p "$WORK"
if [ ! -f "$WORK/src/.unpacked" ]; then
	rm -rf "$WORK/src" && mkdir -p "$WORK/src"
	tar -xJf "$SRC_TAR" -C "$WORK/src" --strip-components=1
	touch "$WORK/src/.unpacked"
fi
REPORTER=$WORK/sigill-report.so
gcc -shared -fPIC -O2 -o "$REPORTER.new" "$HERE/../tests/e2e/sigill-report.c" -ldl
mv "$REPORTER.new" "$REPORTER"
REPORTER_KEY=$(sha256sum <"$HERE/../tests/e2e/sigill-report.c" | cut -c1-16)

# MODE+fixes: the same compiler on the sources with bench/patches/ applied
# (prototype mismatches in binutils itself, doc/real-programs.md).
src_of() {
	case $1 in
	*+fixes)
		want=$(cat "$HERE"/patches/binutils-2.40-*.patch | sha256sum | cut -c1-16)
		if [ "$(cat "$WORK/src-fixes/.unpacked" 2>/dev/null)" != "$want" ]; then
			rm -rf "$WORK/src-fixes" && mkdir -p "$WORK/src-fixes"
			tar -xJf "$SRC_TAR" -C "$WORK/src-fixes" --strip-components=1
			for p in "$HERE"/patches/binutils-2.40-*.patch; do
				patch -s -d "$WORK/src-fixes" -p1 <"$p"
			done
			echo "$want" >"$WORK/src-fixes/.unpacked"
		fi
		echo "$WORK/src-fixes" ;;
	*)	echo "$WORK/src" ;;
	esac
}
compiler_of() {		# MODE -> CC and CFLAGS
	case ${1%+fixes} in
	gcc)	CC=gcc; CFLAGS="-O2 -g" ;;
	kcfi)	CC=$B/kcfi-gcc; CFLAGS="-O2 -g -fsanitize=kcfi" ;;
	clang)	CC=clang-19; CFLAGS="-O2 -g -fsanitize=kcfi" ;;
	kcfi-stubs) CC=$B/kcfi-gcc; CFLAGS="-O2 -g -fsanitize=kcfi -fsanitize-kcfi-extern-stubs" ;;
	*)	echo "binutils-suites: unknown mode $1" >&2; exit 2 ;;
	esac
}
key_of() {		# MODE -> a hash of everything that decides its build
	compiler_of "$1"
	{
		echo "$CC $CFLAGS"
		case $1 in *+fixes) cat "$HERE"/patches/binutils-2.40-*.patch ;; esac
		"$CC" --version 2>&1
		case $1 in kcfi*)
			cat "$B/prepass/plugins/$(gcc -dumpmachine)/kcfi.so" "$B/asmpass/bin/as" ;;
		esac
	} | sha256sum | cut -c1-16
}

# A build is reused while its compiler is the same ($d/built), its results
# while the trap reporter is the same too ($d/done).
run_mode() {
	m=$1
	compiler_of "$m"
	key=$(key_of "$m")
	d=$WORK/$m
	if [ -f "$d/done" ] && [ "$(cat "$d/done")" = "$key $REPORTER_KEY" ]; then
		echo "binutils-suites: $m: reusing $d (same compiler, same reporter)"
		return 0
	fi
	if [ -f "$d/built" ] && [ "$(cat "$d/built")" = "$key" ]; then
		echo "binutils-suites: $m: reusing the build in $d (same compiler)"
	else
		rm -rf "$d" && mkdir -p "$d/build"
		echo "binutils-suites: $m: building with $CC $CFLAGS ($(date +%T))"
		src=$(src_of "$m")
		(cd "$d/build" && "$src/configure" --disable-gdb --disable-gdbserver --disable-sim \
			--disable-gprofng --disable-gold --disable-nls --disable-werror --disable-readline \
			CC="$CC" CFLAGS="$CFLAGS" >"$d/configure.log" 2>&1 &&
		 make -j"$JOBS" all-binutils all-gas all-ld >"$d/make.log" 2>&1) ||
			{ echo "binutils-suites: $m: build failed, see $d/make.log" >&2; tail -20 "$d/make.log" >&2; return 1; }
		echo "$key" >"$d/built"
	fi
	echo "binutils-suites: $m: running the suites ($(date +%T))"
	rm -f "$d/done" "$d"/*.sum
	: >"$d/traps.log"
	(cd "$d/build" && LD_PRELOAD=$REPORTER KCFI_TRAP_LOG=$d/traps.log \
		make -j"$JOBS" -k check-binutils check-gas check-ld >"$d/check.log" 2>&1) || true
	for s in binutils/binutils.sum gas/testsuite/gas.sum ld/ld.sum; do
		[ -f "$d/build/$s" ] && cp "$d/build/$s" "$d/"
	done
	symbolize "$d"
	echo "$key $REPORTER_KEY" >"$d/done"
	echo "binutils-suites: $m: done ($(date +%T))"
}

# traps.log -> traps.txt: "site-function<TAB>site-file:line<TAB>target<TAB>class",
# one line per trap.  A program found by a relative name (the suites run
# ../as-new) is looked up in the mode's build tree.  Each distinct trap is
# symbolized once.
symbolize() {
	dir=$1
	sort "$dir/traps.log" | uniq -c | while read -r n _ site target sym expected preamble; do
		sfile=${site#site=}; soff=${sfile##*+}; sfile=${sfile%+*}
		tfile=${target#target=}; toff=${tfile##*+}; tfile=${tfile%+*}
		sym=${sym#sym=}; preamble=${preamble#preamble=}
		for v in sfile tfile; do
			eval "f=\$$v"
			case $f in /*) ;; *)
				f=$(find "$dir/build" -name "$(basename "$f")" -type f -perm -u+x | head -1) ;;
			esac
			eval "$v=\$f"
		done
		set -- $(addr2line -f -e "$sfile" "$soff" 2>/dev/null | tr '\n' ' ')
		sfn=${1:-?} sline=${2:-?}
		if [ "$sym" = "?" ]; then
			sym=$(addr2line -f -e "$tfile" "$toff" 2>/dev/null | head -1)
		fi
		[ "$preamble" = none ] && class="uninstrumented target" || class="prototype mismatch"
		i=0
		while [ $i -lt "$n" ]; do
			printf '%s\t%s\t%s\t%s\n' "$sfn" "${sline##*/}" "$sym ($(basename "$tfile"))" "$class"
			i=$((i + 1))
		done
	done >"$dir/traps.txt"
}

if [ "${KCFI_BINUTILS_RESYMBOLIZE:-}" ]; then
	for m in "$@"; do [ -f "$WORK/$m/done" ] && symbolize "$WORK/$m"; done
else
	for m in "$@"; do run_mode "$m"; done
fi

# The tables, over every mode that has results.
ALL="gcc kcfi clang kcfi-stubs gcc+fixes kcfi+fixes clang+fixes kcfi-stubs+fixes"
count() {	# SUMFILE WHAT
	[ -f "$1" ] || { echo "-"; return; }
	grep -c "^$2:" "$1" || true
}
{
	echo "| suite | $(for m in $ALL; do [ -f "$WORK/$m/done" ] && printf '%s pass/fail | ' "$m"; done)"
	echo "|---|$(for m in $ALL; do [ -f "$WORK/$m/done" ] && printf -- '---|'; done)"
	for s in binutils gas ld; do
		printf '| %s |' "$s"
		for m in $ALL; do
			[ -f "$WORK/$m/done" ] || continue
			printf ' %s/%s |' "$(count "$WORK/$m/$s.sum" PASS)" "$(count "$WORK/$m/$s.sum" FAIL)"
		done
		echo
	done
	echo
	for m in $ALL; do
		[ -f "$WORK/$m/done" ] || continue
		echo "### traps, $m: $(wc -l <"$WORK/$m/traps.txt") in all"
		echo
		[ -s "$WORK/$m/traps.txt" ] || { echo "(none)"; echo; continue; }
		echo "| traps | call site | target | class |"
		echo "|---|---|---|---|"
		# A mismatch is compared with the peer's run: the same call site and
		# target there too, or not seen there (the peer's program died
		# earlier, inlined the call, or it is ours: doc/real-programs.md
		# says which).
		sort "$WORK/$m/traps.txt" | uniq -c | sort -rn | while read -r n rest; do
			sfn=$(printf '%s' "$rest" | cut -f1); sline=$(printf '%s' "$rest" | cut -f2)
			tgt=$(printf '%s' "$rest" | cut -f3); class=$(printf '%s' "$rest" | cut -f4)
			if [ "$class" = "prototype mismatch" ]; then
				for other in clang kcfi kcfi-stubs; do
					[ "$other" != "$m" ] && [ -f "$WORK/$other/traps.txt" ] || continue
					if cut -f2,3 "$WORK/$other/traps.txt" | grep -qxF "$(printf '%s\t%s' "$sline" "$tgt")"; then
						class="$class; also under $other"
					else
						class="$class; not seen under $other"
					fi
				done
			fi
			echo "| $n | $sfn ($sline) | $tgt | $class |"
		done
		echo
	done
} >"$WORK/report.md"
cat "$WORK/report.md"
