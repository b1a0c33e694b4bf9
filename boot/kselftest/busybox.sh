# Sourced by kselftest-check.sh (after lib.sh): a static busybox for an
# architecture other than the host's.  Debian 12 has busybox-static for
# its own architectures only, and none at all for riscv64, so it is built
# here from Debian's busybox source with the cross gcc the kernels use,
# once per architecture, into $CACHE/tools/busybox-ARCH.  The source comes
# through a private package list (deb-src of the archive the machine
# already uses), so the machine's apt configuration is left as it was.

BUSYBOX_SRC_PKG=busybox

# busybox_source DIR: Debian's busybox source, unpacked in DIR/src.
busybox_source() {
	local d=$1 lists=$1/apt-lists orig
	mkdir -p "$lists/partial" || return 1
	sed -nE 's/^URIs: (.*)/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1 > "$d/uri"
	[ -s "$d/uri" ] || echo http://deb.debian.org/debian > "$d/uri"
	echo "deb-src $(cat "$d/uri") bookworm main" > "$d/src.list"
	local -a apt=(apt-get -q -o Dir::Etc::SourceList="$d/src.list" -o Dir::Etc::SourceParts=/dev/null
		      -o Dir::State::Lists="$lists" -o APT::Sandbox::User=root)
	(cd "$d" && "${apt[@]}" update && "${apt[@]}" source --download-only "$BUSYBOX_SRC_PKG") \
		> "$d/apt.log" 2>&1 || { log "cannot download busybox's source (see $d/apt.log)"; return 1; }
	orig=$(ls "$d"/busybox_*.orig.tar.* 2>/dev/null | head -1)
	[ -n "$orig" ] || { log "no busybox orig tarball in $d"; return 1; }
	rm -rf "$d/src" && mkdir -p "$d/src" && tar -xf "$orig" -C "$d/src" --strip-components=1
}

# cross_busybox ARCH: the path of a static busybox for ARCH (arch_vars
# already run for it), built if missing.  Its defconfig, static, without
# tc (its traffic-control code does not build against every kernel's
# headers and no selftest here uses it).
cross_busybox() {
	local arch=$1 out=$CACHE/tools/busybox-$1 d=$CACHE/tools/busybox-build
	if [ -x "$out" ]; then echo "$out"; return 0; fi
	command -v "${CROSS}gcc" > /dev/null || { log "no ${CROSS}gcc for $arch's busybox"; return 1; }
	mkdir -p "$d" || return 1
	[ -f "$d/src/Makefile" ] || busybox_source "$d" || return 1
	local b=$d/$arch
	rm -rf "$b" && mkdir -p "$b" || return 1
	log "busybox for $arch: building from Debian's source (log $b/build.log)"
	(cd "$d/src" && make O="$b" CROSS_COMPILE="$CROSS" defconfig &&
	 sed -i -e 's/^# CONFIG_STATIC is not set$/CONFIG_STATIC=y/' -e 's/^CONFIG_TC=y$/# CONFIG_TC is not set/' "$b/.config" &&
	 make O="$b" CROSS_COMPILE="$CROSS" oldconfig < /dev/null &&
	 nice make O="$b" CROSS_COMPILE="$CROSS" -j"$BOOT_JOBS" busybox) > "$b/build.log" 2>&1 ||
		{ log "busybox for $arch does not build, see $b/build.log"; return 1; }
	needs_interp "$b/busybox" && { log "busybox for $arch came out dynamic"; return 1; }
	cp "$b/busybox" "$out" && echo "$out"
}
