# SPDX-License-Identifier: GPL-2.0-or-later
# The debian-cloud profile of boot-check.sh (doc/kernel.md 6a): Debian's own
# configuration of its kernel for virtual machines, built whole -- bzImage and
# every module -- with kcfi-gcc, and (route plain, for make distro-check's
# comparison) with plain gcc and without CFI.  Sourced after lib.sh; expects what lib.sh
# does plus $BUILDS, $BOOT_JOBS, $BOOT_BUILD_TIMEOUT.

CLOUD_CONFIG_PKG=linux-config-6.12
CLOUD_CONFIG=${DEBIAN_CLOUD_CONFIG:-/usr/src/linux-config-6.12/config.amd64_none_cloud-amd64.xz}
CLOUD_DIR=$(dirname "${BASH_SOURCE[0]}")/config/debian-cloud

# cloud_config: Debian's configuration file, its package installed if missing.
cloud_config() {
	[ -f "$CLOUD_CONFIG" ] || apt_install "$CLOUD_CONFIG_PKG" || return 1
	[ -f "$CLOUD_CONFIG" ] || { log "no $CLOUD_CONFIG"; return 1; }
}

# config_values CONFIG: "SYMBOL<TAB>value" for every symbol CONFIG answers,
# "n" for "is not set", sorted for join.
config_values() {
	sed -nE -e 's/^CONFIG_([A-Za-z0-9_]+)=(.*)/\1\t\2/p' \
		-e 's/^# CONFIG_([A-Za-z0-9_]+) is not set$/\1\tn/p' "$1" | LC_ALL=C sort
}

# config_delta DEBIAN OURS: "SYMBOL<TAB>Debian's value<TAB>ours" for each
# symbol whose answer differs; (absent) where a file does not mention it.
config_delta() {
	LC_ALL=C join -t $'\t' -a1 -a2 -e '(absent)' -o 0,1.2,2.2 \
		<(config_values "$1") <(config_values "$2") | awk -F'\t' '$2 != $3'
}

# delta_refused ALLOWED DELTA: the lines of DELTA (config_delta's) that
# ALLOWED (delta.tsv: SYMBOL<TAB>our value or *) does not allow, as
# "  SYMBOL: Debian X, ours Y".
delta_refused() {
	awk -F'\t' 'NR == FNR { if ($1 !~ /^#/ && $1 != "") ok[$1] = $2; next }
		!($1 in ok) || (ok[$1] != "*" && ok[$1] != $3) { print "  " $1 ": Debian " $2 ", ours " $3 }' "$1" "$2"
}

# cloud_configure DIR [ROUTE]: Debian's configuration with changes.config
# appended (route plain: less what only CFI has), settled by olddefconfig
# with the make command line in mk.  The fragment must survive, and every
# other symbol must keep Debian's answer unless delta.tsv lists it (its
# value there, or * where it is the machine's).
cloud_configure() {
	local O=$1 frag=$CLOUD_DIR/changes.config
	if [ "${2:-cc}" = plain ]; then
		without_cfi_only "$frag" > "$O/changes-plain.config" || return 1
		frag=$O/changes-plain.config
	fi
	xz -dc "$CLOUD_CONFIG" > "$O/debian.config" && cp "$O/debian.config" "$O/.config" &&
		cat "$frag" >> "$O/.config" || return 1
	(cd "$O" && "${mk[@]}" olddefconfig) > "$O/config.log" 2>&1 ||
		{ log "olddefconfig failed, see $O/config.log"; return 1; }
	check_config "$O/.config" "$frag" || { log "changes.config did not survive Kconfig"; return 1; }
	config_delta "$O/debian.config" "$O/.config" > "$O/config-delta.tsv"
	local unexpected
	unexpected=$(delta_refused "$CLOUD_DIR/delta.tsv" "$O/config-delta.tsv")
	if [ -n "$unexpected" ]; then
		log "the configuration differs from Debian's beyond config/debian-cloud/delta.tsv:"
		echo "$unexpected" >&2
		return 1
	fi
	CLOUD_DELTA=$(wc -l < "$O/config-delta.tsv")
	log "configured: Debian's $(basename "$CLOUD_CONFIG"), $CLOUD_DELTA symbols answered otherwise ($O/config-delta.tsv), $(grep -c '=m$' "$O/.config") modules"
}

# cloud_build NAME [ROUTE]: configure and build bzImage and every module in
# $BUILDS/NAME, install the modules twice -- as built (kcfi-audit reads
# .debug) and stripped as Debian ships them (the initramfs) -- and
# keep the results in $BUILDS/NAME/images/strict.  Cached by everything it
# depends on; a build cut short (BOOT_BUILD_TIMEOUT, the end of a session)
# resumes under the same key, its time added up in build-seconds.  ROUTE
# plain: make CC=gcc, the same configuration without CFI.
cloud_build() {
	local name=$1 route=${2:-cc} O=$BUILDS/$1 img=$BUILDS/$1/images/strict
	arch_vars x86_64 || return 1
	cloud_config || return 1
	local cc=$KCFI_BUILDDIR/kcfi-gcc tools
	if [ "$route" = plain ]; then cc=gcc tools=
	else tools=$(tool_id "$TRIPLE"); fi
	local -a mk=(make -C "$SRC" O="$O" ARCH=x86_64 -j"$BOOT_JOBS" CC="$cc")
	local key
	key=$( { echo "debian-cloud $KVER_PKG"; sha256sum < "$CLOUD_CONFIG";
		 cat "$CLOUD_DIR/changes.config" "$CLOUD_DIR/delta.tsv" "$CACHE/src-cc/stamp";
		 echo "$tools"; gcc --version | head -1; printf '%s\n' "${mk[@]}"; } |
		sha256sum | cut -c1-16)
	if [ -f "$img/vmlinux" ] && [ "$(cat "$img/key" 2>/dev/null)" = "$key" ]; then
		log "$name: cached build $key ($(cat "$img/build-seconds") s to build)"
		return 0
	fi
	rm -rf "$img"
	if [ -f "$O/.config" ] && [ "$(cat "$O/key.configured" 2>/dev/null)" = "$key" ]; then
		log "$name: resuming the build configured under $key ($(cat "$O/build-seconds" 2>/dev/null || echo 0) s so far)"
	else
		rm -rf "$O" && mkdir -p "$O" || return 1
		log "$name: configuring (${mk[*]})"
		cloud_configure "$O" "$route" || return 1
		echo "$key" > "$O/key.configured"
	fi
	log "$name: building bzImage modules (log $O/build.log)"
	local t0=$SECONDS rc
	(cd "$O" && timeout "$BOOT_BUILD_TIMEOUT" "${mk[@]}" bzImage modules) >> "$O/build.log" 2>&1
	rc=$?
	echo $(( $(cat "$O/build-seconds" 2>/dev/null || echo 0) + SECONDS - t0 )) > "$O/build-seconds"
	if [ $rc -ne 0 ]; then
		[ $rc -eq 124 ] && log "$name: stopped after BOOT_BUILD_TIMEOUT=${BOOT_BUILD_TIMEOUT}s; run again to resume"
		log "$name: build failed (status $rc), last lines of $O/build.log:"
		tail -n 25 "$O/build.log" >&2
		return 1
	fi
	log "$name: built in $(cat "$O/build-seconds") s; installing the modules"
	rm -rf "$O/install-full" "$O/install-boot"
	(cd "$O" && "${mk[@]}" INSTALL_MOD_PATH="$O/install-full" modules_install &&
	 "${mk[@]}" INSTALL_MOD_PATH="$O/install-boot" INSTALL_MOD_STRIP=1 modules_install) > "$O/install.log" 2>&1 ||
		{ log "$name: modules_install failed, see $O/install.log"; return 1; }
	local rel
	rel=$(cat "$O/include/config/kernel.release") || return 1
	[ -s "$O/install-boot/lib/modules/$rel/modules.dep" ] ||
		{ log "$name: modules_install wrote no modules.dep (depmod: kmod)"; return 1; }
	mkdir -p "$img" && cp "$O/arch/x86/boot/bzImage" "$img/image" && cp "$O/vmlinux" "$img/vmlinux" &&
		cp "$O/.config" "$img/config" && cp "$O/config-delta.tsv" "$O/build-seconds" "$img/" &&
		mv "$O/install-full" "$img/modules-full" && mv "$O/install-boot" "$img/modules-boot" || return 1
	grep -hE '(warning|error): objtool' "$O/build.log" | sed -E "s|$O/||g; s|$SRC/||g" | sort -u > "$img/objtool.txt"
	echo "$key" > "$img/key"
}

# cloud_initramfs_list IMG: the gen_init_cpio lines that add IMG's stripped
# module tree, a static busybox as /sbin/modprobe (the kernel's
# request_module runs it) and the second serial port for init's results.
cloud_initramfs_list() {
	local tree=$1/modules-boot bb
	[ -d "$tree/lib/modules" ] || return 1
	bb=$(command -v busybox) || { log "no busybox (busybox-static)"; return 1; }
	if readelf -lW "$bb" | grep -q 'INTERP'; then
		log "$bb is not static: the initramfs has no libc (busybox-static)"
		return 1
	fi
	echo "dir /lib 0755 0 0"
	(cd "$tree" && find lib -mindepth 1 \( -type d -printf 'dir /%p 0755 0 0\n' \) -o \
		\( -type f -printf "file /%p $tree/%p 0644 0 0\n" \))
	cat <<-EOF
	dir /bin 0755 0 0
	file /bin/busybox $bb 0755 0 0
	dir /sbin 0755 0 0
	slink /sbin/modprobe /bin/busybox 0777 0 0
	dir /proc 0755 0 0
	nod /dev/ttyS1 0600 0 0 c 4 65
	EOF
}

# has_code FILE: FILE has a non-empty executable section.
has_code() {
	objdump -h "$1" 2>/dev/null | awk '/^ *[0-9]+ / { size = $3 } /CODE/ && size !~ /^0+$/ { code = 1 } END { exit !code }'
}

# kcfi_audit_modules TREE REPORT: kcfi-audit on every module under TREE (the
# installed, unstripped tree; compressed ones are read decompressed), the
# report in REPORT.  Each module, like vmlinux (kcfi_audit), must have
# instrumented functions and no unchecked indirect branch among them --
# except a module with no code at all (cast_common and nls_ucs2_utils hold
# tables only), which has nothing to instrument -- and kcfi-audit must exit
# 0 (no malformed record or disagreeing id either; branches outside
# instrumented code do not count).  Adds the totals to PROOF;
# lists offenders in REPORT.bad.
kcfi_audit_modules() {
	local tree=$1 report=$2 tmp f rel list=()
	tmp=$(mktemp -d) || return 1
	while IFS= read -r -d '' f; do
		rel=${f#"$tree"/}
		case $f in
		*.ko) list+=("$f"); continue ;;
		*.ko.xz) mkdir -p "$tmp/${rel%/*}" && xz -dc "$f" > "$tmp/${rel%.xz}" ;;
		*.ko.zst) mkdir -p "$tmp/${rel%/*}" && zstd -dcq "$f" > "$tmp/${rel%.zst}" ;;
		*.ko.gz) mkdir -p "$tmp/${rel%/*}" && gzip -dc "$f" > "$tmp/${rel%.gz}" ;;
		*) continue ;;
		esac || { log "cannot decompress $f"; rm -rf "$tmp"; return 1; }
		list+=("$tmp/${rel%.*}")
	done < <(find "$tree" -name '*.ko*' -type f -print0 | LC_ALL=C sort -z)
	if [ ${#list[@]} -eq 0 ]; then
		PROOF="$PROOF modaudit:files=0"
		log "kcfi-audit: no module under $tree"
		rm -rf "$tmp"
		return 1
	fi
	"$KCFI_BUILDDIR/kcfi-audit" "${list[@]}" 2>&1 | sed "s|$tmp/|$tree/|g" > "$report"
	local rc=${PIPESTATUS[0]}
	local -A codeless=()
	for f in "${list[@]}"; do
		has_code "$f" || codeless[${f/#"$tmp"\//$tree/}]=1
	done
	rm -rf "$tmp"
	[ "$rc" -le 1 ] || { log "kcfi-audit could not read a module: $(grep -m1 'error:' "$report")"; return 1; }
	local n=0 bad=0 tc=0 tu=0 to=0 checked unchecked outside funcs line
	: > "$report.bad"
	while IFS= read -r line; do
		n=$((n + 1))
		audit_counts "$line"
		tc=$((tc + ${checked:-0})) tu=$((tu + ${unchecked:-0})) to=$((to + ${outside:-0}))
		if [ "${unchecked:-1}" -ne 0 ] || { [ "${funcs:-0}" -eq 0 ] && [ -z "${codeless[${line%%: *}]:-}" ]; }; then
			bad=$((bad + 1))
			echo "$line" >> "$report.bad"
		fi
	done < <(grep -E '^[^ ]+\.ko: [a-z0-9_]+: [0-9]+ checked, ' "$report")
	PROOF="$PROOF modaudit:files=${#list[@]},checked=$tc,unchecked=$tu,outside=$to"
	[ ${#codeless[@]} -eq 0 ] || PROOF="$PROOF,codeless=${#codeless[@]}"
	if [ "$n" -ne ${#list[@]} ] || [ "$bad" -gt 0 ]; then
		log "kcfi-audit: $bad of ${#list[@]} modules with unchecked branches or no records, $((${#list[@]} - n)) without a summary ($report.bad)"
		return 1
	fi
	# Its exit status: 1 for any lost or forged check (a malformed record,
	# a wrong id...), not only the unchecked branches counted above.
	if [ "$rc" -ne 0 ]; then
		log "kcfi-audit: exit $rc: findings other than outside instrumented code ($report)"
		return 1
	fi
}

# modload_table MODLOG: the result table of doc/kernel.md 6a from a boot's
# module log: counts by outcome and errno, then the modules not loaded.
modload_table() {
	awk -v EX="$CLOUD_DIR/explained.tsv" -f "$(dirname "${BASH_SOURCE[0]}")/modload.awk" "$1" |
	awk -F'\t' '
		$1 == "mod" { n++; k = $3 ($3 == "loaded" ? "" : " " $4) (($6 == "explained") ? " (explained)" : "")
			c[k]++; if ($3 != "loaded") rest[++r] = $3 "\t" $4 "\t" $2 ($5 != "-" ? " via " $5 : "") ($6 == "explained" ? " (explained)" : "") }
		$1 == "unfinished" { un = un " " $2 }
		END {
			printf "%d modules\n", n
			for (k in c) printf "%6d  %s\n", c[k], k | "sort -k2"
			close("sort -k2")
			if (un != "") printf "unfinished:%s\n", un
			for (i = 1; i <= r; i++) print rest[i] | "sort"
		}'
}
