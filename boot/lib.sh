# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for boot-check.sh (and doc-route.sh, kunit-check.sh): per-architecture
# facts, the kernel tree, QEMU runs, console checks.
# Sourced; expects $CACHE, $OUT, $here, $KCFI_BUILDDIR, $SRC, $BOOT_TIMEOUT.

# elapsed: the time since the script started, for progress lines (1m05s):
# a user watching a 40-minute build sees where it is.
elapsed() { printf '%dm%02ds' $((SECONDS / 60)) $((SECONDS % 60)); }

# boot_cache: set CACHE to $KCFI_BOOT_CACHE, by default /var/cache/kcfi-boot,
# or ~/.cache/kcfi-boot where that is not writable; created.
boot_cache() {
	local c=${KCFI_BOOT_CACHE:-}
	if [ -z "$c" ]; then
		c=/var/cache/kcfi-boot
		mkdir -p "$c" 2>/dev/null && [ -w "$c" ] || c=${XDG_CACHE_HOME:-$HOME/.cache}/kcfi-boot
	fi
	mkdir -p "$c" && CACHE=$(cd "$c" && pwd)
}

# arch_vars ARCH: what differs between architectures.
arch_vars() {
	case $1 in
	x86_64)
		KARCH=x86_64 CROSS= TRIPLE=x86_64-linux-gnu ARCH_TINY=arch/x86/configs/tiny.config
		ARCH_TARGET=bzImage ARCH_IMAGE=arch/x86/boot/bzImage
		# No ACPI (see x86_64.config): init reboots, -no-reboot makes QEMU exit.
		QEMU=(qemu-system-x86_64 -M pc -cpu qemu64)
		CONSOLE=ttyS0 EXTRA_APPEND="kcfi_exit=reboot" TRAPS=yes ;;
	arm64)
		KARCH=arm64 CROSS=aarch64-linux-gnu- TRIPLE=aarch64-linux-gnu ARCH_TINY=
		ARCH_TARGET=Image ARCH_IMAGE=arch/arm64/boot/Image
		QEMU=(qemu-system-aarch64 -M virt -cpu cortex-a57)
		CONSOLE=ttyAMA0 EXTRA_APPEND= TRAPS=no ;;
	arm)
		# No .kcfi_traps either: the check's BKPT is the trap, and a small
		# kernel patch (boot/patches/6.12/0004) makes 6.12 report its target
		# and type from the fixed check sequence.
		KARCH=arm CROSS=arm-linux-gnueabihf- TRIPLE=arm-linux-gnueabihf ARCH_TINY=
		ARCH_TARGET=zImage ARCH_IMAGE=arch/arm/boot/zImage
		QEMU=(qemu-system-arm -M virt -cpu cortex-a15)
		CONSOLE=ttyAMA0 EXTRA_APPEND= TRAPS=no ;;
	riscv64)
		KARCH=riscv CROSS=riscv64-linux-gnu- TRIPLE=riscv64-linux-gnu ARCH_TINY=
		ARCH_TARGET=Image ARCH_IMAGE=arch/riscv/boot/Image
		QEMU=(qemu-system-riscv64 -M virt -bios default)
		CONSOLE=ttyS0 EXTRA_APPEND= TRAPS=yes ;;
	*) log "unknown architecture $1"; return 1 ;;
	esac
}

# apt_install PKG: install Debian package PKG (sudo unless root), updating
# the package lists once if the first try fails.
apt_install() {
	log "installing $1"
	local sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	local install="$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $1"
	$install >&2 || { $sudo apt-get update -qq >&2 && $install >&2; }
}

# need_source: Debian's linux-source-$BOOT_KERNEL tarball, installed if
# missing; sets TARBALL and KVER_PKG (the package version, for cache keys).
need_source() {
	local pkg=linux-source-$BOOT_KERNEL
	local tarball=/usr/src/$pkg.tar.xz
	[ -f "$tarball" ] || apt_install "$pkg" || return 1
	KVER_PKG=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) ||
		KVER_PKG=$(sha256sum "$tarball" | cut -c1-16)
	TARBALL=$tarball
}

# prepare_tree ROUTE [DIR]: a patched source tree for ROUTE at a fixed path,
# by default $CACHE/src-ROUTE; sets SRC.  A tree whose stamp (package version
# + patches) differs is re-extracted.  Route kselftest adds
# boot/kselftest/patches (the selftests' own).  DIR: a tree of one's own,
# for a user that writes into its source (the selftests do) while kernels
# build from the shared one.
prepare_tree() {
	local route=$1 series=("$here"/patches/"$BOOT_KERNEL"/*.patch)
	[ "$route" = as ] && series+=("$here"/patches-as/"$BOOT_KERNEL"/*.patch)
	[ "$route" = kselftest ] && series+=("$here"/kselftest/patches/*.patch)
	local stamp
	stamp=$( { echo "$KVER_PKG"; for p in "${series[@]}"; do
		[ -f "$p" ] && sha256sum < "$p"; done; } | sha256sum | cut -c1-16)
	local dir=${2:-$CACHE/src$KSFX-$route}
	SRC=$dir/linux-source-$BOOT_KERNEL
	# Two runs sharing the cache (a boot matrix and a benchmark) once
	# extracted and patched the same tree at once: patches applied twice,
	# .rej files, a build that read half a tree.  One extracts at a time;
	# the other waits and finds the stamp.
	mkdir -p "${dir%/*}" || return 1
	(
		flock 9 || exit 1
		if [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ] && [ -f "$SRC/Makefile" ]; then
			exit 0
		fi
		log "extracting linux-source-$BOOT_KERNEL ($KVER_PKG) for route $route"
		rm -rf "$dir" && mkdir -p "$dir" &&
			tar -xf "$TARBALL" -C "$dir" || exit 1
		for p in "${series[@]}"; do
			[ -f "$p" ] || continue
			log "  applying $(basename "$p")"
			patch -s -p1 -d "$SRC" < "$p" || { log "patch $(basename "$p") failed"; exit 1; }
		done
		echo "$stamp" > "$dir/stamp"
	) 9> "$dir.lock"
}

# tool_id TRIPLE: what the kernel objects depend on in kcfi-as itself.
tool_id() {
	local t=$1
	cat "$KCFI_BUILDDIR/kcfi-as" "$KCFI_BUILDDIR/kcfi-gcc" \
		"$KCFI_BUILDDIR/prepass/plugins/$t${BOOT_GCC_VERSION:+/gcc-$BOOT_GCC_VERSION}/kcfi.so" 2>/dev/null | sha256sum | cut -c1-16
}

# wrapper NAME TOOL: a <triple>-kcfi-* spelling of TOOL.  Prefer one the build
# tree provides; else a symlink in the cache (kcfi-gcc reads its own name).
wrapper() {
	local name=$1 tool=$2
	if [ -x "$KCFI_BUILDDIR/$name" ]; then echo "$KCFI_BUILDDIR/$name"; return; fi
	mkdir -p "$CACHE/bin"
	ln -sfn "$KCFI_BUILDDIR/$tool" "$CACHE/bin/$name"
	echo "$CACHE/bin/$name"
}

# without_cfi_only FRAGMENT...: the fragments' lines but the options Kconfig
# offers only with CONFIG_CFI_CLANG (FineIBT, the CFI_* choices): what a row
# without CFI can be held to when it shares fragments with the CFI rows.
without_cfi_only() {
	cat "$@" | grep -vE '^(CONFIG_FINEIBT|CONFIG_CFI_[A-Z0-9_]*)='
}

# check_config CONFIG FRAGMENT...: every CONFIG_X=y / "is not set" line of the
# fragments must be in the result (allnoconfig drops what it cannot satisfy).
check_config() {
	local cfg=$1 ok=0 line
	shift
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*|"# CONFIG_"*" is not set") ;;
		*) continue ;;
		esac
		if [ "${line#\# }" != "$line" ]; then
			local sym=${line#\# }; sym=${sym%% *}
			grep -q "^$sym=" "$cfg" && { log "  $sym is set, wanted not set"; ok=1; }
		else
			grep -qxF "$line" "$cfg" || { log "  missing: $line"; ok=1; }
		fi
	done < <(cat "$@")
	return $ok
}

# fnv1a32 STRING: the 32-bit FNV-1a of STRING, as 0x%08x.
fnv1a32() {
	local s=$1 h=2166136261 i c
	for ((i = 0; i < ${#s}; i++)); do
		printf -v c '%d' "'${s:i:1}"
		h=$(( ((h ^ c) * 16777619) & 0xffffffff ))
	done
	printf '0x%08x\n' "$h"
}

# type_id HASH MANGLED: a type id computed here and not by kcfi-as: FNV-1a
# of the mangled name in the default mode; in xxhash64 mode the value Clang
# (xxHash64) emits, for the two types LKDTM's test involves.
type_id() {
	case $1:$2 in
	fnv1a:*) fnv1a32 "$2" ;;
	xxhash64:_ZTSFvPiE) echo 0x7e0c52a5 ;;	# void (int *): the call's type
	xxhash64:_ZTSFiPiE) echo 0x3ad55aca ;;	# int (int *): lkdtm_increment_int
	esac
}

# initramfs ARCH OUT [MODULE [LIST]]: write to OUT a cpio with our init built
# by that arch's compiler and, if given, the test module as /kcfi_test.ko and
# the further gen_init_cpio lines of the file LIST.
initramfs() {
	local arch=$1 out=$2 ko=${3:-} more=${4:-} dir=$CACHE/init/$1 cc=${CROSS}gcc
	mkdir -p "$dir"
	if [ ! -x "$dir/init" ] || [ "$here/init.c" -nt "$dir/init" ]; then
		"$cc" -static -Os -s -Wall -o "$dir/init" "$here/init.c" || return 1
	fi
	cat > "$dir/list" <<-EOF
	dir /dev 0755 0 0
	nod /dev/console 0600 0 0 c 5 1
	dir /sys 0755 0 0
	dir /sys/kernel 0755 0 0
	dir /sys/kernel/debug 0755 0 0
	file /init $dir/init 0755 0 0
	EOF
	[ -z "$ko" ] || echo "file /kcfi_test.ko $ko 0644 0 0" >> "$dir/list"
	[ -z "$more" ] || cat "$more" >> "$dir/list"
	"$CACHE/tools/gen_init_cpio" "$dir/list" > "$out"
}

# kcfi_proof VMLINUX: fail unless the kernel is plausibly KCFI throughout.
# The tiny configs have ~7700 functions with a preamble (Clang on x86: 7673)
# and one trap entry (x86, riscv) or KCFI brk (arm64) per checked call site.
kcfi_proof() {
	local v=$1 nm=${CROSS}nm cfi traps=- ok=0
	cfi=$("$nm" "$v" | grep -c ' __cfi_')
	# arm's preamble is an unlabelled .word right before the entry: count
	# the functions with a data mapping symbol ($d) exactly 4 bytes before
	# them (code addresses without the Thumb bit).  Literal pools sit after
	# a function's code, so a kernel without CFI has few such functions.
	[ "$KARCH" = arm ] && cfi=$(readelf -sW "$v" | awk '
		function num(s,  i, n) { n = 0; s = tolower(s)
			for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return n }
		$8 == "$d" { d[num($2)] = 1 }
		$4 == "FUNC" && $2 !~ /^0+$/ { f[num($2)] = 1 }
		END { n = 0; for (a in f) if (((a - a % 2) - 4) in d) n++; print n }')
	if [ "$TRAPS" = yes ]; then
		local size
		size=$("${CROSS}size" -A "$v" | awk '$1 == "__kcfi_traps" { print $2 }')
		traps=$(( ${size:-0} / 4 ))
		[ "$traps" -ge 200 ] || ok=1
	else
		# arm64 and arm have no trap table: count the checks' traps instead,
		# arm64's brk #0x8000|..., arm's bkpt 0x80|T (Thumb) or 0x83e0|T.
		if [ "$KARCH" = arm ]; then
			traps=bkpt:$("${CROSS}objdump" -d "$v" | grep -Ec $'\tbkpt\t(0x008[0-9a-f]|0x83e[0-9a-f])$')
		else
			traps=brk:$("${CROSS}objdump" -d "$v" | grep -c $'\tbrk\t#0x8[0-3][0-9a-f][0-9a-f]$')
		fi
		[ "${traps#*:}" -ge 200 ] || ok=1
	fi
	[ "$cfi" -ge 1000 ] || ok=1
	# __nocfi (boot/patches) must reach the plugin: LKDTM's execute_location
	# calls through a pointer without a check.  Linux 6.1's LKDTM does not
	# mark it __nocfi (its only __nocfi calls are the BPF dispatcher's,
	# inlined, and arm64 hibernation's, neither in these kernels), so there
	# is no place to look in a 6.1 kernel: the proof says so.
	local body nocfi=ok
	if [ "${BOOT_KERNEL:-6.12}" = 6.1 ]; then
		nocfi=n/a-in-6.1
	else
		body=$("${CROSS}objdump" -d --no-show-raw-insn --disassemble=execute_location "$v")
		# (x86 with retpolines: the call goes through __x86_indirect_thunk_<reg>)
		grep -Eq $'\t(call +\*%|call +[0-9a-f]+ <__x86_indirect_thunk_|blr\t|blx\tr|c?\.?jalr\t)' <<< "$body" || nocfi=no-call
		grep -Eq $'(,%r10d|\tbrk\t#0x8|\tbkpt\t|\tc?\.?ebreak)' <<< "$body" && nocfi=checked
		[ "$nocfi" = ok ] || ok=1
	fi
	PROOF="__cfi_=$cfi traps=$traps nocfi=$nocfi"
	return $ok
}

# kcfi_audit VMLINUX: kcfi-audit (audit/, doc/kcfi-audit.md) on the kernel,
# its report kept as VMLINUX.audit.  Its exit status is the verdict: 0 when
# every indirect branch in a function kcfi-as instrumented is checked or
# recorded in .debug (inline asm, __nocfi, jump tables...), no record,
# trap table or preamble is malformed and no id disagrees; branches in
# code kcfi-as never saw (.S files, units built without CFI) are counted
# as outside instrumented code, from the ranges the kernel records, shown
# in PROOF and not failed (no --strict).  A kernel with no such ranges
# (built by a kcfi-as older than the records) or no checked call fails
# too: there is nothing to judge it by, and kcfi-audit passes a file with
# nothing instrumented.  Every architecture of the matrix is audited,
# arm's ELF32 vmlinux (Thumb-2 or ARM state) too.
kcfi_audit() {
	local v=$1 sum n rc
	"$KCFI_BUILDDIR/kcfi-audit" "$v" > "$v.audit" 2>&1
	rc=$?
	[ $rc -le 1 ] || { log "kcfi-audit could not read $v: $(tail -1 "$v.audit")"; return 1; }
	sum=$(grep -E "^$v: [a-z0-9_]+: [0-9]+ checked, " "$v.audit" | tail -1)
	local checked unchecked outside funcs
	audit_counts "$sum"
	PROOF="$PROOF audit:checked=${checked:-?},unchecked=${unchecked:-?},outside=${outside:-?},functions=${funcs:-?}"
	[ $rc -eq 0 ] && [ -n "$sum" ] && [ "${checked:-0}" -gt 0 ] && [ "${funcs:-0}" -gt 0 ] ||
		{ log "kcfi-audit: $v: exit $rc: $sum (findings in $v.audit)"; return 1; }
}

# audit_counts SUMMARY: the counts of one kcfi-audit summary line into the
# caller's checked unchecked outside funcs preambles traps findings (empty
# where the line lacks one).
audit_counts() {
	local sum=$1
	# field NAME: the count before NAME in the summary line.
	field() { sed -nE "s/.*[ (]([0-9]+) $1([,)].*|$)/\1/p" <<< "$sum"; }
	checked=$(sed -nE 's/.*: ([0-9]+) checked, .*/\1/p' <<< "$sum")
	unchecked=$(field unchecked) outside=$(field 'outside instrumented code')
	funcs=$(field 'instrumented functions') preambles=$(field preambles)
	traps=$(field traps) findings=$(field findings)
}

# run_variant NAME ARCH HASH MODE [fineibt]: boot the image of NAME/MODE and
# judge the console.  Sets booted report typeid matched verdict (see
# boot-check.sh).  With fineibt, the kernel is told cfi=fineibt.
run_variant() {
	local name=$1 arch=$2 hash=$3 mode=$4 cfi=${5:-kcfi}
	# boot/out/<arch>/console.log is the trapping run of the main route;
	# the others add the variant and mode: console-permissive.log,
	# console-as-xxhash64.log, console-fineibt.log.
	local img=$BUILDS/$name/images/$mode dir=$OUT/$arch
	local suffix=${name#"$arch"}
	[ "$mode" = strict ] || suffix=$suffix-$mode
	[ "$cfi" = kcfi ] || suffix=$suffix-$cfi
	local log=$dir/console$suffix.log cpio=$img/initramfs.cpio want append
	# debian-cloud: every module in the initramfs, their results on a
	# second serial port (boot/init.c load_modules).
	local modlog= more= ko=
	[ -f "$img/kcfi_test.ko" ] && ko=$img/kcfi_test.ko
	# The small profile's permissive rows: the module of deliberate
	# mismatches, loaded by init (boot/init.c test_mismatch).
	if [ -f "$img/kcfi_mismatch.ko" ]; then
		more=$img/initramfs-mismatch.list
		echo "file /kcfi_mismatch.ko $img/kcfi_mismatch.ko 0644 0 0" > "$more"
	fi
	if [ "$BOOT_CONFIG" = debian-cloud ]; then
		modlog=$dir/modules$suffix.log more=$img/initramfs.list
		cloud_initramfs_list "$img" > "$more" || { log "$name: no module tree in $img"; return; }
	fi
	arch_vars "$arch" || return
	mkdir -p "$dir" && rm -f "$log" ${modlog:+"$modlog"}
	initramfs "$arch" "$cpio" "$ko" "$more" ||
		{ log "$name: cannot build the initramfs"; return; }
	want=$(type_id "$hash" _ZTSFvPiE)
	TOOL_ID=
	if [ -x "$KCFI_BUILDDIR/kcfi-typeid" ]; then
		# The project's own tool must agree with the independent value.
		TOOL_ID=$("$KCFI_BUILDDIR/kcfi-typeid" --target="$TRIPLE" --hash="$hash" \
			'void (int *)' 2>&1 | head -1)
	fi
	local -a size=(-smp 1 -m 256)
	[ "$BOOT_CONFIG" = defconfig ] && size=(-smp 2 -m 1024)
	# (the second -serial is COM2, ttyS1)
	local -a port2=() qemu=("${QEMU[@]}")
	if [ "$BOOT_CONFIG" = debian-cloud ]; then
		size=(-smp 2 -m 2048) port2=(-serial "file:$modlog")
		# The widest CPU TCG emulates rather than qemu64: the crypto
		# modules written for AES-NI, PCLMUL, SSSE3 and AVX (17 of them)
		# then load and register their algorithms under KCFI instead of
		# counting as absent.  TCG has no CET, so the kernel still
		# picks kCFI, as the judge expects.
		qemu=(qemu-system-x86_64 -M pc -cpu max)
	fi
	append="console=$CONSOLE panic=-1 $EXTRA_APPEND"
	[ "$cfi" = fineibt ] && append="$append cfi=fineibt"

	timeout "$BOOT_TIMEOUT" "${qemu[@]}" "${size[@]}" -accel tcg -display none \
		-monitor none -serial "file:$log" "${port2[@]}" -no-reboot \
		-kernel "$img/image" -initrd "$cpio" -append "$append" \
		> "$dir/qemu$suffix.log" 2>&1
	local rc=$?
	[ $rc -eq 124 ] && echo "boot-check: QEMU timed out after ${BOOT_TIMEOUT}s" >> "$log"
	tr -d '\r' < "$log" > "$log.tmp" && mv "$log.tmp" "$log"
	[ -z "$modlog" ] || { tr -d '\r' < "$modlog" > "$modlog.tmp" && mv "$modlog.tmp" "$modlog"; }
	judge "$log" "$arch" "$mode" "$hash" "$img/vmlinux" "$BOOT_CONFIG" "$cfi" "$img/config" "$modlog"
	MISMATCH_SAID=
	[ -f "$img/kcfi_mismatch.ko" ] && mismatch_verdict "$log" "$img" "$dir/explain$suffix.txt" "$arch/$mode$([ "$cfi" = kcfi ] || echo "+$cfi")"
	verdict_detail > "$dir/verdict$suffix.txt"
}

# judge LOG ARCH MODE HASH VMLINUX [PROFILE [CFI [CONFIG [MODLOG]]]]: the
# pass criteria of the boot matrix (doc/kernel.md 5).  PROFILE
# small|defconfig|debian-cloud, CFI kcfi|fineibt (what the kernel was told),
# CONFIG its .config, MODLOG the module results of a debian-cloud boot.
judge() {
	local raw=$1 arch=$2 mode=$3 hash=$4 vmlinux=$5 profile=${6:-small} cfi=${7:-kcfi} config=${8:-} modlog=${9:-}
	local want site re log
	# Judged without printk's timestamps (PRINTK_TIME, on in defconfigs).
	# printk may also land inside a line of init's, before its newline: a
	# timestamp inside a line starts a new one, and the kcfi-boot: lines are
	# looked for anywhere in a line.
	log=$(mktemp) || return 1
	sed -E 's/(.)(\[ *[0-9]+\.[0-9]+\] )/\1\n\2/g' "$raw" | sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' > "$log"
	want=$(type_id "$hash" _ZTSFvPiE)
	if [ "$cfi" = fineibt ]; then
		# FineIBT checks in the callee's preamble, against the caller's id
		# as re-randomized at boot: the site is __cfi_<target>, the id random.
		site=__cfi_lkdtm_increment_int
	else
		site=lkdtm_indirect_call
	fi
	re='^CFI failure at '$site'\+0x[0-9a-f]+/0x[0-9a-f]+ \(target: lkdtm_increment_int\+0x0/0x[0-9a-f]+; expected type: (0x[0-9a-f]{8})\)$'
	local line failures before early rand=no
	RAND_SEED=
	# x86 with FineIBT configured re-randomizes every id at boot (unless
	# cfi=norand): the report then shows our id xor the boot's seed.
	[ -n "$config" ] && grep -qx 'CONFIG_FINEIBT=y' "$config" && rand=yes
	REASONS=()
	booted=no report=none typeid=- matched=no verdict=FAIL
	grep -q 'kcfi-boot: init running' "$log" && booted=yes
	[ $booted = yes ] || REASONS+=("init never ran")
	# No CFI failure may happen before our trigger, and only one after it.
	# The reports of the permissive rows' kcfi_mismatch module are
	# mismatch_verdict's: not counted here.
	failures=$(grep 'CFI failure at' "$log" | grep -vc '\[kcfi_mismatch\]')
	before=$(sed -n '/kcfi-boot: init running/q;p' "$log" | grep -c 'CFI failure at')
	[ "$before" -eq 0 ] || REASONS+=("$before spurious CFI failure(s) before init")
	line=$(grep -E "$re" "$log" | head -1)
	if [[ $line =~ $re ]]; then
		report=$site
		typeid=${BASH_REMATCH[1]}
		if [ "$rand" = yes ]; then
			rerandomized_id "$log" "$typeid" "$want" "$(type_id "$hash" _ZTSFiPiE)" "$cfi" ||
				REASONS+=("$RAND_WHY")
		else
			# riscv too: our beq has the expected id in rs1, which 6.12 reports.
			[ "$typeid" = "$want" ] || REASONS+=("type id $typeid, expected $want")
		fi
		if [ "$arch" = riscv64 ] &&
		   ! grep -Eq " t2 : (00000000|ffffffff)${want#0x} " "$log"; then
			REASONS+=("t2 does not hold the expected type $want")
		fi
	elif grep -q "CFI failure at $site" "$log"; then
		report=no-target-info
		REASONS+=("CFI report without target/type information")
	else
		REASONS+=("no CFI failure report from $site")
	fi
	if [ "$profile" = defconfig ] || [ "$profile" = debian-cloud ]; then
		# debian-cloud loads every module of the kernel instead.
		[ "$profile" = debian-cloud ] || grep -q 'kcfi-boot: module ok' "$log" ||
			REASONS+=("the test module did not load, run and unload cleanly")
		grep -q 'kcfi-boot: bpf ok' "$log" || REASONS+=("no BPF program ran through the JIT")
		grep -Eq '^smp: Brought up [0-9]+ nodes?, 2 CPUs$' "$log" || REASONS+=("2 CPUs did not come up")
		# What follows LKDTM's deliberate oops is aftermath; before it, nothing.
		early=$(sed -n '/^lkdtm: Performing direct entry CFI_FORWARD_PROTO/q;p' "$log" |
			grep -E 'WARNING:|BUG:|Oops|Call Trace' | head -1)
		[ -z "$early" ] || REASONS+=("before LKDTM: $early")
	fi
	# x86 with FineIBT configured rewrites every preamble and checked caller
	# at boot, in either mode; the kernel says which mode it chose.
	if [ -n "$config" ] && grep -qx 'CONFIG_FINEIBT=y' "$config"; then
		local says='Using kCFI'
		[ "$cfi" = fineibt ] && says='Using FineIBT CFI'
		grep -q "$says" "$log" || REASONS+=("the kernel never said '$says'")
	fi
	[ "$failures" -le 1 ] || REASONS+=("$failures CFI failures, expected 1")
	# The matched call must have run and returned before the mismatched one.
	if grep -q '^lkdtm: Calling matched prototype' "$log" &&
	   sed -n '/^lkdtm: Calling matched prototype/,$p' "$log" | grep -q '^lkdtm: Calling mismatched prototype'; then
		matched=ok
	else
		REASONS+=("the matched call did not complete")
	fi
	if [ "$mode" = permissive ]; then
		# (under FineIBT the warning is at the callee's preamble)
		grep -q "^WARNING: .* at $site" "$log" || REASONS+=("no WARNING in permissive mode")
		grep -q '^lkdtm: FAIL: survived mismatched prototype' "$log" ||
			REASONS+=("permissive kernel did not continue into the call")
		grep -q 'kcfi-boot: child exited 0' "$log" || REASONS+=("child did not exit normally")
	else
		grep -q '^lkdtm: FAIL: survived mismatched prototype' "$log" &&
			REASONS+=("the mismatched call went through")
		if [ "$arch" = riscv64 ]; then
			# riscv handles kernel ebreak in NMI context: die() panics, so init
			# cannot survive; Clang-built kernels do the same.
			grep -q 'Kernel panic - not syncing: Fatal exception in interrupt' "$log" ||
				grep -q 'kcfi-boot: child killed by signal' "$log" ||
				REASONS+=("no oops after the CFI failure")
		else
			grep -q 'kcfi-boot: child killed by signal' "$log" || REASONS+=("child was not killed")
			grep -q 'kcfi-boot: init done' "$log" || REASONS+=("init did not survive")
		fi
	fi
	kcfi_proof "$vmlinux" || REASONS+=("vmlinux does not look like KCFI: $PROOF")
	# A kernel configured with KUnit ran its suites before init: all of
	# them must finish, none may fail (KUnit calls every case through a
	# pointer, and the suites chosen make indirect calls of their own).
	if [ -n "$config" ] && grep -qx 'CONFIG_KUNIT=y' "$config"; then
		kunit_verdict "$raw"
		PROOF="$PROOF kunit:$KUNIT_SAID"
		[ -z "$KUNIT_WHY" ] || REASONS+=("KUnit: $KUNIT_WHY")
	fi
	if [ "$profile" = debian-cloud ]; then
		modload_verdict "$modlog"
		PROOF="$PROOF modules:$MODLOAD_SAID"
		[ -z "$MODLOAD_WHY" ] || REASONS+=("modules: $MODLOAD_WHY")
	fi
	if [ -n "${TOOL_ID:-}" ] && [ "$TOOL_ID" != "$want _ZTSFvPiE" ]; then
		REASONS+=("kcfi-typeid says '$TOOL_ID' for void (int *), expected $want _ZTSFvPiE")
	fi
	rm -f "$log"
	[ ${#REASONS[@]} -eq 0 ] && verdict=PASS
	for r in "${REASONS[@]}"; do log "  $arch/$mode$([ "$cfi" = kcfi ] || echo "+$cfi"): $r"; done
	return 0
}

# kunit_verdict LOG: read the KTAP of a console (boot/ktap.awk).  Sets
# KUNIT_SAID (ok/not ok/skipped cases and suites, for PROOF) and KUNIT_WHY
# (empty when every announced suite finished, at least one case passed and
# none failed).
kunit_verdict() {
	local r
	r=$(awk -f "$(dirname "${BASH_SOURCE[0]}")/ktap.awk" "$1" | awk -F'\t' '
		$1 == "case" { n[$3]++; if ($3 == "fail") bad = bad " " $2 }
		$1 == "plan" { plan = $2 } $1 == "done" { done = $2 } $1 == "last" { last = $2 }
		END { printf "%d %d %d %d %d %s %s\n", n["ok"], n["fail"], n["skip"], plan, done, last, bad }')
	local ok fail skip plan done last bad
	read -r ok fail skip plan done last bad <<< "$r"
	KUNIT_SAID="ok=$ok,fail=$fail,skip=$skip,suites=$done/$plan"
	KUNIT_WHY=
	if [ "${plan:-0}" -eq 0 ] && grep -q 'kunit: disabled' "$1"; then
		KUNIT_WHY="configured, but disabled at boot (CONFIG_KUNIT_DEFAULT_ENABLED=n and no kunit.enable=1)"
	elif [ "${plan:-0}" -eq 0 ]; then KUNIT_WHY="configured, but no KUnit output"
	elif [ "$done" -lt "$plan" ]; then KUNIT_WHY="stopped after $done of $plan suites (the last one started: $last)"
	elif [ "$fail" -gt 0 ]; then KUNIT_WHY="$fail case(s) failed: $bad"
	elif [ "$ok" -eq 0 ]; then KUNIT_WHY="no case passed"
	fi
}

# modload_verdict MODLOG: read a debian-cloud boot's module results
# (boot/modload.awk).  Sets MODLOAD_SAID (counts, for PROOF) and MODLOAD_WHY
# (empty when init finished loading, its count agrees, at least one module
# loaded and none failed that config/debian-cloud/explained.tsv does not
# explain).  Modules absent for want of hardware pass.
modload_verdict() {
	local here_=$(dirname "${BASH_SOURCE[0]}") r
	r=$( [ -f "${1:-}" ] && awk -v EX="$here_/config/debian-cloud/explained.tsv" -f "$here_/modload.awk" "$1" |
		awk -F'\t' '
		$1 == "mod" { n++; s[$3]++; if ($6 == "explained") x++
			else if ($3 == "failed") { f++; if (f <= 8) bad = bad " " $2 "(" $4 ($5 != "-" ? " via " $5 : "") ")" } }
		$1 == "summary" { sum = $2 " " $3 " " $4 " " $5 }
		$1 == "unfinished" { un = un " " $2 }
		END { printf "%d %d %d %d %d %d|%s|%s|%s\n", n, s["loaded"], s["absent"], s["failed"], x, f, sum, un, bad }')
	local counts sum un bad n loaded absent failed explained unexplained
	IFS='|' read -r counts sum un bad <<< "$r"
	read -r n loaded absent failed explained unexplained <<< "$counts"
	MODLOAD_SAID="total=${n:-0},loaded=${loaded:-0},absent=${absent:-0},failed=${failed:-0},explained=${explained:-0}"
	MODLOAD_WHY=
	if [ "${n:-0}" -eq 0 ]; then MODLOAD_WHY="no module results${1:+ in $1}"
	elif [ -z "$sum" ]; then MODLOAD_WHY="loading stopped after $n modules${un:+ (in:$un)}"
	elif [ "$sum" != "$n $loaded $absent $failed" ]; then MODLOAD_WHY="init counted $sum (total loaded absent failed), the log shows $n $loaded $absent $failed"
	elif [ "$unexplained" -gt 0 ]; then MODLOAD_WHY="$unexplained failed:$bad$([ "$unexplained" -gt 8 ] && echo " ...")"
	elif [ "$loaded" -eq 0 ]; then MODLOAD_WHY="no module loaded"
	fi
}

# rerandomized_id LOG SHOWN WANT TARGET CFI: SHOWN, the "expected type" of
# a kernel that re-randomized its ids at boot (each id xor one random seed),
# must be WANT under that seed.  The seed is not printed, but the check's
# scratch register is: in kCFI mode R10 = target's id - expected id (the
# addl), in FineIBT mode expected - target (the callee's subl), both as
# re-randomized.  Taking seed = SHOWN xor WANT, R10 must match; any other
# expected id would need another seed and break the equation.
rerandomized_id() {
	local log=$1 shown=$2 want=$3 target=$4 cfi=$5 r10 seed t e
	# (from the first report that is not one of kcfi_mismatch's)
	r10=$(sed -n '/\[kcfi_mismatch\]/!{/CFI failure at/,$p;}' "$log" | grep -Eom1 'R10: [0-9a-f]{16}' | cut -c14-)
	[ -n "$r10" ] || { RAND_WHY="no R10 in the register dump after the report"; return 1; }
	seed=$(( shown ^ want ))
	t=$(( target ^ seed )) e=$(( shown ))
	local expect
	if [ "$cfi" = fineibt ]; then expect=$(( (e - t) & 0xffffffff ))
	else expect=$(( (t - e) & 0xffffffff )); fi
	if [ $(( 0x$r10 )) -ne "$expect" ]; then
		RAND_WHY=$(printf 'type id %s is not %s re-randomized (R10 %08x, wanted %08x for seed %08x)' \
			"$shown" "$want" $(( 0x$r10 )) "$expect" "$seed")
		return 1
	fi
	RAND_SEED=$(printf '%08x' "$seed")
}

# mismatch_verdict LOG IMG OUT LABEL: kcfi-audit --explain on the console
# of a boot that loaded kcfi_mismatch.ko, its explanation kept in OUT, judged
# by boot/mismatch-judge.sh against the module's sources in IMG (each kind of
# mismatch: caller, target, differences, line to fix).  Adds to PROOF and
# REASONS, fails the verdict when a kind is not explained; MISMATCH_SAID is
# the judge's summary line, prefixed with LABEL (arch/mode).
mismatch_verdict() {
	local log=$1 img=$2 out=$3 label=$4 rc
	"$KCFI_BUILDDIR/kcfi-audit" --explain="$log" "$img/vmlinux" "$img/kcfi_mismatch.ko" > "$out" 2>&1
	rc=$?
	bash "$(dirname "${BASH_SOURCE[0]}")/mismatch-judge.sh" "$log" "$out" "$img" > "$out.verdict"
	local ok=$?
	MISMATCH_SAID="$label: $(tail -1 "$out.verdict") (kcfi-audit --explain exit $rc)"
	PROOF="$PROOF explain:$(sed -nE 's|^explain: ([0-9]+/4).*|\1|p' "$out.verdict")"
	if [ $ok -ne 0 ]; then
		while IFS= read -r r; do REASONS+=("mismatch $r"); log "  $label: mismatch $r"; done \
			< <(grep -E '^(kind .*: FAIL|console: FAIL)' "$out.verdict")
		verdict=FAIL
	fi
}

verdict_detail() {
	echo "booted=$booted report=$report typeid=$typeid matched=$matched $PROOF verdict=$verdict${RAND_SEED:+ seed=$RAND_SEED}"
	for r in "${REASONS[@]}"; do echo "reason: $r"; done
}

# route_flags DIR: the flags DIR's init/main.o was compiled with, minus what
# legitimately differs between the routes (compiler, paths, how KCFI and its
# hash are asked for).  A cc-option probe that fails only in one route shows
# up here as a missing flag.
route_flags() {
	head -1 "$1/init/.main.o.cmd" | tr ' ' '\n' | sed -n '4,$p' |
		sed -E -e "s|$CACHE/src(-[0-9.]+)?-[a-z]+/|SRC/|g" -e "s|$1/|BUILD/|g" |
		grep -Ev '^(-B|-fplugin=|-fsanitize=kcfi$|-fsanitize-kcfi-hash=|-Wa,--kcfi-|$)' | sort
}
