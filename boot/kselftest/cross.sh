# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by kselftest-check.sh (after lib.sh): what the selftests of an
# architecture other than the host's need and Debian 12 does not ship for
# it -- a static busybox (busybox-static exists for Debian's own
# architectures only, and riscv64 is not one) and the static libraries of
# the targets that link one (seccomp: libcap; mqueue: popt; BPF's
# test_verifier: libelf, with zlib under it).  Each is built
# here from Debian's source with the cross gcc the kernels use, once per
# architecture, under $CACHE/tools.  The sources come through a private
# package list (deb-src of the archive the machine already uses), so the
# machine's apt configuration is left as it was.

# apt_src ARGS...: apt-get with a private deb-src list of the archive the
# machine uses, its lists under $CACHE/tools/apt-src.
apt_src() {
	local d=$CACHE/tools/apt-src
	apt-get -q -o Dir::Etc::SourceList="$d/src.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$d/lists" -o APT::Sandbox::User=root "$@"
}

# apt_src_lists: apt_src's package lists, fetched once per shell (the index
# of every source package: several megabytes, the same for each library).
APT_SRC_READY=
apt_src_lists() {
	[ -n "$APT_SRC_READY" ] && return 0
	local d=$CACHE/tools/apt-src uri
	mkdir -p "$d/lists/partial" || return 1
	uri=$(sed -nE 's/^URIs: (.*)/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
	echo "deb-src ${uri:-http://deb.debian.org/debian} bookworm main" > "$d/src.list"
	apt_src update > "$d/update.log" 2>&1 ||
		{ log "cannot read Debian's source package lists (see $d/update.log)"; return 1; }
	APT_SRC_READY=1
}

# debian_source PKG DIR: Debian's source of PKG (its upstream tarball)
# unpacked in DIR/src.
debian_source() {
	local pkg=$1 d=$2 orig
	apt_src_lists || return 1
	(cd "$d" && apt_src source --download-only "$pkg") > "$d/apt.log" 2>&1 ||
		{ log "cannot download $pkg's source (see $d/apt.log)"; return 1; }
	orig=$(ls "$d/${pkg}_"*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -1)
	[ -n "$orig" ] || { log "no $pkg orig tarball in $d"; return 1; }
	rm -rf "$d/src" && mkdir -p "$d/src" && tar -xf "$orig" -C "$d/src" --strip-components=1
}

# source_tree PKG: sets src to the unpacked source of PKG under
# $CACHE/tools/src-PKG, fetched if missing.  It sets a variable rather than
# printing, so that the lists apt_src_lists reads stay read for the next
# package (a $(...) would read them again).
source_tree() {
	local d=$CACHE/tools/src-$1
	src=$d/src
	mkdir -p "$d" || return 1
	[ -f "$d/src/Makefile" ] || [ -f "$d/src/configure" ] || debian_source "$1" "$d"
}

# cross_busybox ARCH: the path of a static busybox for ARCH (arch_vars
# already run for it), built if missing: its defconfig, static, without
# tc (its traffic-control code does not build against every kernel's
# headers, and no selftest here uses it).
cross_busybox() {
	local arch=$1 out=$CACHE/tools/busybox-$1 src b=$CACHE/tools/build-busybox-$1
	if [ -x "$out" ]; then echo "$out"; return 0; fi
	source_tree busybox || return 1
	rm -rf "$b" && mkdir -p "$b" || return 1
	log "busybox for $arch: building from Debian's source (log $b/build.log)"
	(cd "$src" && make O="$b" CROSS_COMPILE="$CROSS" defconfig &&
	 sed -i -e 's/^# CONFIG_STATIC is not set$/CONFIG_STATIC=y/' -e 's/^CONFIG_TC=y$/# CONFIG_TC is not set/' "$b/.config" &&
	 make O="$b" CROSS_COMPILE="$CROSS" oldconfig < /dev/null &&
	 nice make O="$b" CROSS_COMPILE="$CROSS" -j"$BOOT_JOBS" busybox) > "$b/build.log" 2>&1 ||
		{ log "busybox for $arch does not build, see $b/build.log"; return 1; }
	needs_interp "$b/busybox" && { log "busybox for $arch came out dynamic"; return 1; }
	cp "$b/busybox" "$out" && echo "$out"
}

# cross_libs ARCH: a prefix holding static libcap, libpopt, zlib and libelf
# for ARCH (include/, lib/), built if missing; prints the prefix.  A
# library that does not build is left out with a message: its target then
# fails to link and is dropped with the linker's reason.  zlib and libelf
# are position-independent: libbpf's build links a shared libbpf.so from
# them too (test_verifier itself links statically).
cross_libs() {
	local arch=$1 p=$CACHE/tools/libs-$1 src b set="libcap popt zlib libelf"
	# The set is the marker: a prefix made for fewer libraries is redone.
	if [ "$(cat "$p/built" 2>/dev/null)" = "$set" ]; then echo "$p"; return 0; fi
	rm -rf "$p" && mkdir -p "$p/include/sys" "$p/lib" || return 1
	if source_tree libcap2; then
		b=$CACHE/tools/build-libcap-$arch
		rm -rf "$b" && cp -a "$src" "$b" &&
		(cd "$b" && nice make -C libcap BUILD_CC=gcc CC="${CROSS}gcc" AR="${CROSS}ar" \
			RANLIB="${CROSS}ranlib" libcap.a) > "$b.log" 2>&1 &&
		cp "$b/libcap/libcap.a" "$p/lib/" && cp "$b"/libcap/include/sys/*.h "$p/include/sys/" ||
			log "libcap for $arch does not build, see $b.log"
	fi
	if source_tree popt; then
		b=$CACHE/tools/build-popt-$arch
		rm -rf "$b" && cp -a "$src" "$b" &&
		(cd "$b" && ./configure -q --host="${CROSS%-}" --disable-shared --enable-static --disable-nls \
			--prefix="$p" && nice make -C src -j"$BOOT_JOBS" && make -C src install) > "$b.log" 2>&1 ||
			log "popt for $arch does not build, see $b.log"
	fi
	if source_tree zlib; then
		b=$CACHE/tools/build-zlib-$arch
		rm -rf "$b" && cp -a "$src" "$b" &&
		(cd "$b" && CFLAGS="-O2 -fPIC" CHOST="${CROSS%-}" CC="${CROSS}gcc" ./configure --static \
			--prefix="$p" && nice make -j"$BOOT_JOBS" libz.a && make install) > "$b.log" 2>&1 ||
			log "zlib for $arch does not build, see $b.log"
	fi
	if [ -f "$p/lib/libz.a" ] && source_tree elfutils; then
		b=$CACHE/tools/build-elfutils-$arch
		rm -rf "$b" && cp -a "$src" "$b" &&
		(cd "$b" && ./configure -q --host="${CROSS%-}" --prefix="$p" --disable-debuginfod \
			--disable-libdebuginfod --without-zstd --without-bzlib --without-lzma --disable-nls \
			CFLAGS="-O2 -fPIC" CPPFLAGS="-I$p/include" LDFLAGS="-L$p/lib" &&
		 nice make -j"$BOOT_JOBS" -C lib && nice make -j"$BOOT_JOBS" -C libelf libelf.a) > "$b.log" 2>&1 &&
		cp "$b/libelf/libelf.a" "$p/lib/" && cp "$b"/libelf/{libelf.h,gelf.h,nlist.h} "$p/include/" ||
			log "libelf for $arch does not build, see $b.log"
	fi
	echo "$set" > "$p/built" && echo "$p"
}
