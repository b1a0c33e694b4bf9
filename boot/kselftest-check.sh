#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux's own selftests (tools/testing/selftests of Debian's Linux 6.12)
# under the three kernels make kunit-check builds per architecture --
# kcfi-gcc with CFI, plain gcc without, clang-19 with CFI -- booted under
# QEMU with 2 CPUs, no network but loopback, KUnit off (kunit.enable=0).
# The selftests are built once per architecture, statically (the initramfs
# has busybox and no C library), with the host's gcc or the architecture's
# cross gcc, and run by kselftest's own runner from a small init
# (boot/kselftest/init); its TAP reaches the console through /dev/kmsg and
# is read by boot/ktap.awk, like KUnit's.
#
# Usage: boot/kselftest-check.sh    (normally `make kselftest-check`)
# Environment:
#   KSELFTEST_ARCHES     default x86_64; arm64, riscv64 and arm build with
#                        the cross gcc, whatever links statically there
#   KSELFTEST_COMPILERS  default "kcfi-gcc gcc clang-19"
#   KSELFTEST_TARGETS    selftest collections (default below; bpf means
#                        BPF's test_verifier alone)
#   KSELFTEST_KERNELS    where the kernels are: <dir>/<arch>-<compiler>/<image>
#                        (default $KCFI_BOOT_CACHE/kunit, make kunit-check's)
#   KSELFTEST_BOOT_TIMEOUT  seconds per boot (default 5400); a boot that
#                        runs out is reported with the test it was in
#   KSELFTEST_TEST_TIMEOUT  seconds per test program (default 600)
#   KSELFTEST_APPEND     more kernel arguments, e.g. ksft_run=timers,futex to
#                        run only those collections (boot/kselftest/init)
#   KCFI_BOOT_CACHE, BOOT_JOBS  as for boot-check.sh
# Build: $KCFI_BOOT_CACHE/kselftest/ (its own source tree, since the
# selftests write into theirs; build-ARCH/ keyed on the source stamp, the
# targets, the compiler and the recipe).  What does not build or cannot run
# there is dropped and listed (build-ARCH/dropped.txt, the summary,
# doc/kernel.md 9).
# Consoles: boot/out/kselftest/<arch>/console-<compiler>.log, the programs'
# full output in output-<compiler>.log, results (ktap.awk) in
# <compiler>.results.  Per arch one line:
#   kselftest ARCH: kcfi-gcc ok A, not ok B, skipped C, cfi F; gcc ok ..;
#   clang-19 ok .., cfi F3; unexplained D
# counting test programs; D counts the programs (and the results inside
# them) that differ between kcfi-gcc and gcc, and kcfi-gcc's CFI failures
# at a function clang-19 does not fail at, that
# boot/config/kselftest/explained.tsv does not explain.
set -u
here=$(cd "$(dirname "$0")" && pwd)
KSELFTEST_ARCHES=${KSELFTEST_ARCHES:-x86_64}
KSELFTEST_COMPILERS=${KSELFTEST_COMPILERS:-"kcfi-gcc gcc clang-19"}
KSELFTEST_TARGETS=${KSELFTEST_TARGETS:-"timers futex seccomp exec proc mqueue sigaltstack kcmp splice ptrace vDSO bpf"}
KSELFTEST_BOOT_TIMEOUT=${KSELFTEST_BOOT_TIMEOUT:-5400}
KSELFTEST_TEST_TIMEOUT=${KSELFTEST_TEST_TIMEOUT:-600}
KSELFTEST_APPEND=${KSELFTEST_APPEND:-}
BOOT_JOBS=${BOOT_JOBS:-2}
BOOT_KERNEL=6.12 KSFX=
OUT=$here/out/kselftest
EXPLAINED=$here/config/kselftest/explained.tsv
. "$here/lib.sh"
. "$here/kunit-lib.sh"
. "$here/kselftest/cross.sh"
. "$here/kselftest/kernel-needs.sh"
boot_cache || exit 1
KSELFTEST_KERNELS=${KSELFTEST_KERNELS:-$CACHE/kunit}
KS=$CACHE/kselftest
log() { printf 'kselftest-check: [%s] %s\n' "$(elapsed)" "$*" >&2; }

# Per-target link tweaks.  timers: valid-adjtimex
# defines its own clock_adjtime(), which glibc's libc.a also has; the
# program's definition is the one it means (a raw syscall).
tweak() {
	case $1 in
	timers) echo " -Wl,-z,muldefs" ;;
	esac
}

# target_vars TARGET: make variables TARGET needs on this architecture;
# what they leave out is listed in $DROPPED with the reason.  exec builds
# its load_address test as a static PIE too, which needs the C library's
# rcrt1.o: Debian's riscv64 cross libc has none, and without the variable
# the whole collection would fail to link.
target_vars() {
	case $1 in
	exec)
		if ! echo 'int main(void) { return 0; }' | "$KSFT_GCC" -x c - -static-pie -o /dev/null 2> /dev/null; then
			echo "ALIGN_STATIC_PIES="
			printf 'exec:load_address.static.*\tnot built: %s cannot link -static-pie (its C library has no rcrt1.o)\n' \
				"$KSFT_GCC" >> "$DROPPED"
		fi ;;
	esac
}

# not_run COL:PROG: why a program that builds is not run (nothing: it runs).
not_run() {
	case $1 in
	mqueue:mq_perf_tests|seccomp:seccomp_benchmark)
		# mq_perf_tests runs for minutes on hardware; seccomp_benchmark
		# fails unless the cached filters time faster than the others.
		echo "a benchmark: under TCG on shared cores its timings say nothing about the kernel" ;;
	esac
}

# need_tools: what the build and the boots need, with the Debian package
# (scripts/install-deps.sh --with-boot installs them).
need_tools() {
	local missing=() p
	local -A pkg=([rsync]=rsync [make]=make)
	case " $KSELFTEST_ARCHES " in *" x86_64 "*)
		# The host's selftests link these statically; another
		# architecture's drop the targets that need them (there is no
		# static library for it here), each with its reason.
		pkg+=([qemu-system-x86_64]=qemu-system-x86
			[/usr/lib/x86_64-linux-gnu/libcap.a]=libcap-dev
			[/usr/lib/x86_64-linux-gnu/libpopt.a]=libpopt-dev
			[/usr/lib/x86_64-linux-gnu/libelf.a]=libelf-dev
			[/usr/lib/x86_64-linux-gnu/libzstd.a]=libzstd-dev
			[/usr/lib/x86_64-linux-gnu/libz.a]=zlib1g-dev
			[busybox]=busybox-static) ;;
	esac
	for p in "${!pkg[@]}"; do
		case $p in
		/*) [ -f "$p" ] ;;
		busybox) static_busybox > /dev/null ;;
		*) command -v "$p" > /dev/null ;;
		esac || missing+=("$p (${pkg[$p]})")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "missing: ${missing[*]}; scripts/install-deps.sh --with-boot installs them"
	return 1
}

# static_busybox: the path of a statically linked busybox.
static_busybox() {
	local b
	for b in /bin/busybox /usr/bin/busybox; do
		[ -x "$b" ] && ! needs_interp "$b" && { echo "$b"; return 0; }
	done
	return 1
}

# needs_interp FILE: FILE is an ELF program that asks for a dynamic loader.
needs_interp() {
	readelf -lW "$1" 2>/dev/null | grep -q '^ *INTERP '
}

# build_selftests ARCH: the selftests of KSELFTEST_TARGETS for ARCH
# (arch_vars run for it) installed statically under $KS/build-ARCH/install,
# cached by key; sets INST and DROPPED.  A target that fails to build, or a
# program that cannot run in the initramfs, is dropped with its reason in
# $KS/build-ARCH/dropped.txt ("TARGET[:PROGRAM]<TAB>reason").
build_selftests() {
	local arch=$1 B=$KS/build-$1 key t
	local gcc=${CROSS}gcc libs
	# Debian's libelf.a wants libzstd; cross.sh's is built without it.
	local libelf_libs="-lelf -lzstd"
	export KSFT_GCC=$gcc KSFT_FLAGS=
	if [ "$arch" != x86_64 ]; then
		libs=$(cross_libs "$arch") || return 1
		KSFT_FLAGS="-isystem $libs/include -L$libs/lib" libelf_libs="-lelf -lz"
	fi
	INST=$B/install DROPPED=$B/dropped.txt
	# The recipe is this script and the CC wrapper: the build takes a
	# minute, so any change to either rebuilds.
	key=$( { cat "$KS/src/stamp"; echo "$arch $KSELFTEST_TARGETS"; cat "$here/kselftest/static-gcc" "$here/kselftest-check.sh" "$here/kselftest/cross.sh";
		 "$gcc" --version | head -1; } | sha256sum | cut -c1-16)
	if [ -f "$INST/kselftest-list.txt" ] && [ "$(cat "$B/key" 2>/dev/null)" = "$key" ]; then
		log "selftests $arch: cached build $key ($(wc -l < "$INST/kselftest-list.txt") programs)"
		return 0
	fi
	command -v "$gcc" > /dev/null || { log "selftests $arch: no $gcc"; return 1; }
	log "selftests $arch: building $KSELFTEST_TARGETS with $gcc (key $key; logs in $B)"
	rm -rf "$B" && mkdir -p "$B/obj" "$INST" || return 1
	: > "$DROPPED"
	local -a mk=(nice make O="$B/obj" ARCH="$KARCH" CROSS_COMPILE="$CROSS" -j"$BOOT_JOBS")
	(cd "$SRC" && "${mk[@]}" -s headers) > "$B/headers.log" 2>&1 ||
		{ log "selftests: make headers failed, see $B/headers.log"; return 1; }
	local cc=$here/kselftest/static-gcc ksft=$SRC/tools/testing/selftests
	# The runner, as kselftest's install puts it (bpf alone installs none).
	mkdir -p "$INST/kselftest" && cp "$ksft/run_kselftest.sh" "$INST/" &&
		cp "$ksft"/kselftest/{runner.sh,prefix.pl,module.sh,ktap_helpers.sh} "$INST/kselftest/" || return 1
	for t in $KSELFTEST_TARGETS; do
		local tlog=$B/build-${t//\//_}.log
		if [ "$t" = bpf ]; then
			# Only test_verifier: the rest of BPF's selftests wants clang-built
			# BPF objects, a BTF vmlinux and modules.  libelf.a needs libzstd.
			# boot/kselftest/patches/0001 lets it run without bpf_testmod.ko.
			local bo=$B/obj/kselftest/bpf
			mkdir -p "$bo"
			if (cd "$ksft/bpf" && "${mk[@]}" OUTPUT="$bo" \
				CC="$cc" LIBELF_LIBS="$libelf_libs" KHDR_INCLUDES="-isystem $B/obj/usr/include" \
				"$bo/test_verifier") > "$tlog" 2>&1; then
				mkdir -p "$INST/bpf" && cp "$bo/test_verifier" "$INST/bpf/" &&
					echo bpf:test_verifier >> "$INST/kselftest-list.txt"
			else
				printf 'bpf\ttest_verifier does not build (%s)\n' "$(first_error "$tlog")" >> "$DROPPED"
			fi
			continue
		fi
		local -a vars
		read -ra vars <<< "$(target_vars "$t")"
		if (cd "$ksft" && "${mk[@]}" CC="$cc$(tweak "$t")" "${vars[@]}" \
			TARGETS="$t" KSFT_INSTALL_PATH="$B/inst-${t//\//_}" install) > "$tlog" 2>&1 &&
		   [ -d "$B/inst-${t//\//_}/$t" ]; then
			local ti=$B/inst-${t//\//_}
			mkdir -p "$INST/$(dirname "$t")" && cp -a "$ti/$t" "$INST/$t" &&
				cat "$ti/kselftest-list.txt" >> "$INST/kselftest-list.txt" || return 1
		else
			printf '%s\tdoes not build statically (%s)\n' "$t" "$(first_error "$tlog")" >> "$DROPPED"
		fi
	done
	[ -s "$INST/kselftest-list.txt" ] || { log "selftests $arch: no target built (see $B/build-*.log)"; return 1; }
	drop_unrunnable "$DROPPED"
	echo "$key" > "$B/key"
	log "selftests $arch: $(wc -l < "$INST/kselftest-list.txt") programs; dropped: $(wc -l < "$DROPPED") (see $DROPPED)"
}

# first_error LOG: the line of a build log that says why it failed -- a
# missing library or file before the linker's summary of it.
first_error() {
	grep -m1 -E 'cannot find|No such file|error:|Error [0-9]' "$1" | sed -E 's|^.*/bin/ld: ||'
}

# drop_unrunnable DROPPED: take out of the runner's list what the
# initramfs cannot run -- a program that wants a dynamic loader, a script
# whose interpreter is not there -- and what not_run() leaves out, and say
# why in DROPPED.
drop_unrunnable() {
	local dropped=$1 entry f why interp keep=()
	while IFS= read -r entry; do
		f=$INST/${entry%%:*}/${entry#*:}
		why=$(not_run "$entry")
		if [ -n "$why" ]; then :
		elif [ ! -e "$f" ]; then
			why="not installed"
		elif needs_interp "$f"; then
			why="dynamically linked (the test is about a PIE with an interpreter, -pie; the initramfs has no ld.so)"
		elif [ "$(head -c2 "$f")" = '#!' ]; then
			interp=$(head -1 "$f" | sed -E 's/^#! *//; s/ .*//')
			case $interp in
			/bin/sh|/bin/bash) ;;
			/usr/bin/env) why="needs $(head -1 "$f" | awk '{ print $2 }'), not in the initramfs" ;;
			*) why="needs $interp, not in the initramfs" ;;
			esac
		fi
		if [ -n "$why" ]; then
			printf '%s\t%s\n' "$entry" "$why" >> "$dropped"
			rm -f "$f"
		else
			keep+=("$entry")
		fi
	done < "$INST/kselftest-list.txt"
	printf '%s\n' "${keep[@]}" > "$INST/kselftest-list.txt"
	# Debug info only makes the initramfs bigger (test_verifier: 21 MB).
	find "$INST" -type f -perm -u+x -exec sh -c \
		'for f; do [ "$(head -c4 "$f")" = "$(printf "\177ELF")" ] && "$0" --strip-debug "$f"; done; true' "${CROSS}strip" {} +
}

# pack_initramfs ARCH OUT: the installed selftests under /kselftest,
# busybox, the runner's timeout, our init, and the device node of the
# programs' output channel, OUTDEV.
pack_initramfs() {
	local arch=$1 out=$2 list=$KS/initramfs-$1.list bb node="c 229 0"
	[ "$OUTDEV" = /dev/ttyS1 ] && node="c 4 65"
	if [ "$arch" = x86_64 ]; then
		bb=$(static_busybox) || return 1
	else
		bb=$(cross_busybox "$arch") || return 1
	fi
	[ -x "$CACHE/tools/gen_init_cpio" ] || { mkdir -p "$CACHE/tools" &&
		gcc -O2 -o "$CACHE/tools/gen_init_cpio" "$SRC/usr/gen_init_cpio.c"; } || return 1
	{
		cat <<-EOF
		dir /dev 0755 0 0
		nod /dev/console 0600 0 0 c 5 1
		nod /dev/kmsg 0644 0 0 c 1 11
		nod /dev/null 0666 0 0 c 1 3
		nod $OUTDEV 0600 0 0 $node
		dir /proc 0755 0 0
		dir /sys 0755 0 0
		dir /bin 0755 0 0
		dir /sbin 0755 0 0
		dir /usr 0755 0 0
		dir /usr/bin 0755 0 0
		dir /usr/sbin 0755 0 0
		dir /etc 0755 0 0
		dir /root 0700 0 0
		file /bin/busybox $bb 0755 0 0
		file /bin/bash $KS/bash 0755 0 0
		file /sbin/ksft-timeout $here/kselftest/timeout 0755 0 0
		file /etc/passwd $KS/passwd 0644 0 0
		file /etc/group $KS/group 0644 0 0
		file /init $here/kselftest/init 0755 0 0
		dir /kselftest 0755 0 0
		EOF
		(cd "$INST" && find . -mindepth 1 -printf '%y %P %m %l\n') | while read -r y p m l; do
			case $y in
			d) echo "dir /kselftest/$p $m 0 0" ;;
			f) echo "file /kselftest/$p $INST/$p $m 0 0" ;;
			l) echo "slink /kselftest/$p $l $m 0 0" ;;
			esac
		done
	} > "$list"
	# exec's helper script is "#!/bin/bash"; busybox has no bash applet.
	printf '#!/bin/sh\nexec /bin/sh "$@"\n' > "$KS/bash"
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' > "$KS/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' > "$KS/group"
	"$CACHE/tools/gen_init_cpio" "$list" > "$out"
}

# run ARCH COMPILER IMAGE: boot, keep the console (kernel and TAP) and the
# programs' output, read the console.
run() {
	local arch=$1 cc=$2 img=$3 dir=$OUT/$1
	mkdir -p "$dir"
	local con=$dir/console-$cc.log output=$dir/output-$cc.log
	rm -f "$con" "$output"
	local append="console=$CONSOLE panic=-1 kunit.enable=0 printk.devkmsg=on ksft_timeout=$KSELFTEST_TEST_TIMEOUT ksft_out=$OUTDEV $KSELFTEST_APPEND"
	local -a out=(-serial "file:$output")
	[ "$OUTDEV" = /dev/hvc0 ] &&
		out=(-device virtio-serial-device -chardev "file,id=ksftout,path=$output" -device virtconsole,chardev=ksftout)
	log "$arch/$cc: booting (at most ${KSELFTEST_BOOT_TIMEOUT}s; console $con)"
	local t0=$SECONDS
	timeout "$KSELFTEST_BOOT_TIMEOUT" "${QEMU[@]}" -smp 2 -m 2048 -accel tcg -display none \
		-monitor none -nic none -serial "file:$con" "${out[@]}" -no-reboot \
		-kernel "$img" -initrd "$KS/initramfs-$arch.cpio" -append "$append" \
		> "$dir/qemu-$cc.log" 2>&1
	local rc=$?
	# (after a newline: the console may stop mid-line)
	[ $rc -eq 124 ] && printf "\nkselftest-check: QEMU timed out after %ss\n" "$KSELFTEST_BOOT_TIMEOUT" >> "$con"
	awk -f "$here/ktap.awk" "$con" > "$dir/$cc.results"
	log "$arch/$cc: ran in $((SECONDS - t0)) s"
}

# ---- main -------------------------------------------------------------------
for c in $KSELFTEST_COMPILERS; do
	case $c in kcfi-gcc|gcc|clang-19) ;;
	*) log "KSELFTEST_COMPILERS: unknown compiler '$c' (kcfi-gcc, gcc, clang-19)"; exit 2 ;;
	esac
done
need_tools || exit 1
mkdir -p "$KS"
need_source || { log "cannot get linux-source-$BOOT_KERNEL"; exit 1; }
prepare_tree kselftest "$KS/src" || exit 1

status=0
lines=()
dropped=()
for arch in $KSELFTEST_ARCHES; do
	arch_vars "$arch" || { status=1; continue; }
	# The programs' output channel: x86_64's second serial port, elsewhere
	# a virtio console, since the virt machines have one UART.
	OUTDEV=/dev/hvc0 DROPPED=
	[ "$arch" = x86_64 ] && OUTDEV=/dev/ttyS1
	declare -A said=() why=()
	# Which kernels can run the selftests at all, before building them.
	bootable=0
	for cc in $KSELFTEST_COMPILERS; do
		img=$KSELFTEST_KERNELS/$arch-$cc/$ARCH_IMAGE kconf=$KSELFTEST_KERNELS/$arch-$cc/.config
		if [ ! -f "$img" ]; then
			log "$arch/$cc: no kernel at $img (make kunit-check KUNIT_COMPILERS=$cc builds it)"
			why[$cc]="no kernel"
		elif [ ! -f "$kconf" ]; then
			why[$cc]="not run (no $kconf, where kunit-check leaves the configuration)"
		elif lacks=$(kernel_lacks "$kconf") && [ -n "$lacks" ]; then
			log "$arch/$cc: not booted: its kernel has no $lacks"
			why[$cc]="not run (no $lacks)"
		else
			bootable=1
		fi
	done
	if [ $bootable = 1 ] && { ! build_selftests "$arch" || ! pack_initramfs "$arch" "$KS/initramfs-$arch.cpio"; }; then
		lines+=("kselftest $arch: not run (the selftests or the initramfs did not build, see above)")
		status=1
		unset said why
		continue
	fi
	[ -n "$DROPPED" ] && [ -s "$DROPPED" ] && dropped+=("$arch:$DROPPED")
	earlier_runs "$arch" "$KSELFTEST_COMPILERS" tests "the runner"
	for cc in $KSELFTEST_COMPILERS; do
		rm -f "$OUT/$arch/$cc.results"
		if [ -n "${why[$cc]:-}" ]; then
			said[$cc]=${why[$cc]}
			status=1
			continue
		fi
		run "$arch" "$cc" "$KSELFTEST_KERNELS/$arch-$cc/$ARCH_IMAGE"
		said[$cc]=$(tally "$OUT/$arch/$cc.results" "$cc" tests "the runner")
		complete "$OUT/$arch/$cc.results" || status=1
	done
	line=$(arch_line kselftest "$arch") || status=1
	lines+=("$line")
	unset said why
done
echo
for d in "${dropped[@]}"; do
	echo "kselftest ${d%%:*}: dropped (not built or not runnable here):"
	sed 's/^/    /' "${d#*:}"
done
for arch in $KSELFTEST_ARCHES; do [ -d "$OUT/$arch" ] && table kselftest "$arch"; done
for l in "${lines[@]}"; do echo "$l"; done
show_unexplained $KSELFTEST_ARCHES
exit $status
