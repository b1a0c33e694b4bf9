#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# CC="distcc kcfi-gcc" against distccd servers on 127.0.0.1, each started
# here on a free port and stopped by its pid.  distcc preprocesses locally
# (with kcfi-gcc's tool witness, driver/tool-witness.c) and the server runs
# kcfi-gcc on the .i:
#   same     the same tools: every unit is compiled remotely, and its object
#            is byte-identical to a local compile (-O2; with -g, to a local
#            compile of the .i, as GCC's debug columns differ there);
#   other    one byte more in the plugin: the remote kcfi-gcc refuses the
#            .i, distcc compiles locally (the local object), or fails with
#            kcfi-gcc's message under DISTCC_SKIP_LOCAL_RETRY;
#   missing  kcfi-gcc allowed but not installed, and
#   stock    a distccd that does not allow kcfi-gcc at all: distcc
#            compiles locally, and the object has its checks.
# Pump mode is not tested: Debian 12's include server fails (doc/manual.md, "Distributed builds").
. "$top_srcdir/tests/e2e/lib.sh"
command -v distcc >/dev/null && command -v distccd >/dev/null ||
	skip "distcc is not installed (scripts/install-deps.sh)"

drv=$(basename "$KCFI_GCC")
plugin=$KCFI_PLUGIN
# The servers inherit this environment: each kcfi-gcc must pick its own
# plugin and assembler.
unset KCFI_PLUGIN KCFI_REAL_AS
# A server started as root runs its compiles as the distccd user: it must
# reach the tools and sources here.
chmod 755 "$T"
pids=
stop_servers() {
	for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	pids=
}
trap 'stop_servers; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP

# listening PORT: something listens on 127.0.0.1:PORT.
listening() {
	grep -qi "^ *[0-9]*: 0100007F:$(printf '%04X' "$1") 00000000:0000 0A" /proc/net/tcp
}
# serve NAME PATH [CMDLIST]: a distccd whose compiles see PATH, allowed to
# run the commands in CMDLIST (none: distccd's default, /usr/lib/distcc);
# sets port_NAME.  A port taken meanwhile makes distccd exit: another one.
serve() {
	mkdir -p "$T/$1" && chmod 777 "$T/$1"
	for try in 1 2 3 4 5 6 7 8; do
		port=$(( 20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000 ))
		listening "$port" && continue
		(
			[ -n "${3:-}" ] && { echo "$3" >"$T/$1/cmdlist"; DISTCC_CMDLIST=$T/$1/cmdlist; export DISTCC_CMDLIST; }
			DISTCCD_PATH=$2 XDG_CACHE_HOME=$T/$1 TMPDIR=$T/$1
			export DISTCCD_PATH XDG_CACHE_HOME TMPDIR
			exec distccd --daemon --no-detach --log-stderr --listen 127.0.0.1 \
				--allow 127.0.0.1 --port "$port" --jobs 2 2>"$T/$1.log"
		) &
		pid=$!
		n=0
		while [ $n -lt 50 ] && kill -0 "$pid" 2>/dev/null && ! listening "$port"; do
			sleep 0.1; n=$((n + 1))
		done
		if listening "$port" && kill -0 "$pid" 2>/dev/null; then
			pids="$pids $pid"
			eval "port_$1=$port"
			return 0
		fi
		kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
	done
	echo "cannot start distccd:"; cat "$T/$1.log"
	return 1
}

# The client side: kcfi-gcc found by name, as distcc sends it.
mkdir -p "$T/bin" "$T/src"
ln -s "$KCFI_GCC" "$T/bin/$drv"
PATH=$T/bin:$PATH
XDG_CACHE_HOME=$T/xdg
export PATH XDG_CACHE_HOME
unset DISTCC_HOSTS DISTCC_DIR DISTCC_FALLBACK DISTCC_SKIP_LOCAL_RETRY DISTCC_VERBOSE \
	DISTCC_BACKOFF_PERIOD MAKEFLAGS MFLAGS MAKELEVEL

# A copy of the tools in the build tree's layout with one byte more in the
# plugin: "another version" of kcfi-as on the remote side (as in ccache.sh).
other=$T/other-tree
plug=prepass/plugins/${plugin#*/prepass/plugins/}
mkdir -p "$other/asmpass/bin" "$(dirname "$other/$plug")" "$T/other-bin"
cp "$KCFI_GCC" "$other/$drv"
cp "$KCFI_AS" "$other/kcfi-as"
ln -s ../../kcfi-as "$other/asmpass/bin/as"
cp "$plugin" "$other/$plug"
printf '\0' >>"$other/$plug"
ln -s "$other/$drv" "$T/other-bin/$drv"
chmod -R a+rX "$T"

serve same "$T/bin:/usr/bin:/bin" "$drv" || { fail "start distccd"; finish; }
serve other "$T/other-bin:/usr/bin:/bin" "$drv" || { fail "start distccd"; finish; }
serve missing "/usr/bin:/bin" "$drv" || { fail "start distccd"; finish; }
if [ -e "/usr/lib/distcc/$drv" ]; then
	echo "note: /usr/lib/distcc/$drv exists: no stock server to try"
	stock=
else
	serve stock "$T/bin:/usr/bin:/bin" || { fail "start distccd"; finish; }
	stock=stock
fi

cp "$top_srcdir/demo/demo.c" "$T/src/"
cat >"$T/src/apply.c" <<'C'
int apply(int (*fp)(int), int x) { return fp(x) + 1; }
C
cat >"$T/src/Makefile" <<'M'
OBJS = demo.o apply.o
all: $(OBJS)
clean:
	rm -f $(OBJS)
M

# in_w NAME CC FLAGS...: make CC=CC in a fresh copy of src/, always at the
# same path ($T/w), so that -g objects name the same directory; the objects
# are moved to $T/NAME-out, the messages go to $T/NAME.err.
in_w() {
	n=$1 cc=$2; shift 2
	rm -rf "$T/w" "$T/$n-out" && cp -r "$T/src" "$T/w" && mkdir "$T/$n-out"
	make -s -C "$T/w" -j2 CC="$cc" CFLAGS="-fsanitize=kcfi $*" >"$T/$n.err" 2>&1
	rc=$?
	for o in "$T/w/"*.o; do [ -f "$o" ] && mv "$o" "$T/$n-out/"; done
	return $rc
}
# build HOST FLAGS...: make CC="distcc kcfi-gcc" against HOST's server.
# distcc keeps a host it failed to reach aside for a while (its state in
# DISTCC_DIR): each build starts afresh.  Without that pause it would try
# a refusing server again and again.
nbuild=0
build() {
	h=$1; shift
	nbuild=$((nbuild + 1))
	eval "DISTCC_HOSTS=127.0.0.1:\$port_$h/2"
	DISTCC_DIR=$T/distcc-$nbuild
	mkdir -p "$DISTCC_DIR"
	export DISTCC_HOSTS DISTCC_DIR
	in_w "$h" "distcc $drv" "$@"
}
# remote_jobs HOST RESULT [WANT]: how many jobs HOST's server ended with
# RESULT.  A server logs a job after the client has its answer: wait a
# little for WANT of them.
remote_jobs() {
	n=0
	while :; do
		c=$(grep -c "dcc_job_summary.* $2 " "$T/$1.log" || true)
		[ -z "${3:-}" ] || [ "$c" -ge "$3" ] || [ $n -ge 50 ] || { sleep 0.1; n=$((n + 1)); continue; }
		echo "$c"
		return
	done
}

for flags in "-O2" "-O2 -g"; do
	in_w local "$KCFI_GCC" $flags || { cat "$T/local.err"; fail "local build with $flags"; continue; }
	[ "$flags" = -O2 ] && cp "$T/local-out/apply.o" "$T/apply-O2.o"
	if decoded "$T/local-out/apply.o"; then
		check "$flags: the local apply.o is checked" test "$(n_traps "$T/local-out/apply.o")" -ge 1
	else
		fail "$flags: the local apply.o decodes"
	fi

	# same: no fallback allowed, so every object is the server's.
	before=$(remote_jobs same COMPILE_OK)
	if DISTCC_FALLBACK=0 DISTCC_SKIP_LOCAL_RETRY=1 build same $flags; then
		pass "$flags: make CC=\"distcc $drv\" with the same tools remotely"
		check "$flags: both units were compiled by the server" \
			equal $((before + 2)) "$(remote_jobs same COMPILE_OK $((before + 2)))" "remote compiles"
		for o in demo.o apply.o; do
			if [ "$flags" = -O2 ]; then
				check "$flags: the remote $o is byte-identical to the local one" cmp "$T/local-out/$o" "$T/same-out/$o"
				continue
			fi
			# GCC's debug info of a preprocessed file has other column
			# numbers (plain gcc's too): compare with a local compile of
			# the local .i, and without debug info with the direct one.
			(cd "$T/w" && "$KCFI_GCC" -fsanitize=kcfi $flags -E "${o%.o}.c" -o "${o%.o}.i" &&
				"$KCFI_GCC" -fsanitize=kcfi $flags -c "${o%.o}.i" -o "$T/$o.two-step") ||
				fail "$flags: local compile of ${o%.o}.i"
			check "$flags: the remote $o is byte-identical to a local compile of the .i" \
				cmp "$T/$o.two-step" "$T/same-out/$o"
			objcopy --strip-debug "$T/local-out/$o" "$T/$o.local-nodebug"
			objcopy --strip-debug "$T/same-out/$o" "$T/$o.remote-nodebug"
			check "$flags: and, without debug info, to the local one" \
				cmp "$T/$o.local-nodebug" "$T/$o.remote-nodebug"
		done
	else
		cat "$T/same.err"; fail "$flags: make CC=\"distcc $drv\" with the same tools remotely"
	fi

	# other: refused remotely; distcc's local retry makes the local object.
	before=$(remote_jobs other COMPILE_ERROR)
	if build other $flags; then
		pass "$flags: another version remotely: the build succeeds"
		check "$flags: the other server refused both units" \
			equal $((before + 2)) "$(remote_jobs other COMPILE_ERROR $((before + 2)))" "refused compiles"
		for o in demo.o apply.o; do
			check "$flags: $o is the local compile's" cmp "$T/local-out/$o" "$T/other-out/$o"
		done
	else
		cat "$T/other.err"; fail "$flags: another version remotely: the build succeeds"
	fi

	for h in missing $stock; do
		if build $h $flags; then
			pass "$flags: $h: the build succeeds"
			check "$flags: $h: the server compiled nothing" equal 0 "$(remote_jobs $h COMPILE_OK)" "remote compiles"
			for o in demo.o apply.o; do
				check "$flags: $h: $o is the local compile's (checked)" cmp "$T/local-out/$o" "$T/$h-out/$o"
			done
		else
			cat "$T/$h.err"; fail "$flags: $h: the build succeeds"
		fi
	done
done

# Without distcc's local retry the refusal reaches the user.
if DISTCC_SKIP_LOCAL_RETRY=1 build other -O2; then
	fail "another version remotely, no local retry: the build fails"
else
	pass "another version remotely, no local retry: the build fails"
	check "with kcfi-gcc's reason" grep -q "kcfi-gcc: error: .* was preprocessed by a kcfi-gcc with other tools" "$T/other.err"
	check "and no object" sh -c "! ls '$T/other-out/'*.o 2>/dev/null"
fi

# The witness check alone, without distcc: a .i names the tools that
# preprocessed it; one from other tools, or from a kcfi-gcc older than the
# check (tools-HASH.h), is refused; one without a witness compiles.
cd "$T/src"
"$KCFI_GCC" -fsanitize=kcfi -O2 -E apply.c >apply.i
check "-E output names the witness with the tools' hash" grep -q '^# 1 ".*/tools-[0-9a-f]\{16\}-[0-9a-f]\{16\}\.h" 1' apply.i
check "its own .i compiles" "$KCFI_GCC" -fsanitize=kcfi -O2 -c apply.i -o own.o
check "to the object of the source" cmp own.o "$T/apply-O2.o"
sed 's|/tools-[0-9a-f]\{16\}-|/tools-0123456789abcdef-|' apply.i >changed.i
check "a .i from other tools is refused" sh -c "! '$KCFI_GCC' -fsanitize=kcfi -O2 -c changed.i -o changed.o 2>changed.err"
check "naming both hashes" grep -q "(0123456789abcdef) than this one's .*kcfi-gcc ([0-9a-f]\{16\})" changed.err
sed 's|/tools-[0-9a-f]\{16\}-[0-9a-f]\{16\}\.h|/tools-0123456789abcdef.h|' apply.i >old.i
check "a .i from a kcfi-gcc before the check is refused" sh -c "! '$KCFI_GCC' -fsanitize=kcfi -O2 -c old.i -o old.o 2>old.err"
check "as from an older version" grep -q "(an older version)" old.err
gcc -O2 -E apply.c >plain.i
check "a .i without a witness compiles" "$KCFI_GCC" -fsanitize=kcfi -O2 -c plain.i -o plain.o
check "-x cpp-output input is checked too" sh -c "cp changed.i changed.txt && ! '$KCFI_GCC' -fsanitize=kcfi -O2 -x cpp-output -c changed.txt -o x.o 2>/dev/null"
check "without -fsanitize=kcfi nothing is checked" "$KCFI_GCC" -O2 -c changed.i -o nokcfi.o
cd /

stop_servers
finish
