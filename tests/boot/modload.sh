#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The debian-cloud profile's module loads without a kernel: boot/init.c's
# load_modules, built with finit_module replaced by a fake that answers what
# each fake module file says, runs in a directory tree; then its log goes
# through boot/modload.awk and the judge's modload_verdict.  Dependencies
# first, via= for modules whose dependency did not load, an oops (a child
# killed) in a dependency, a load the kernel finished meanwhile, the
# compressed-file flag, the summary; and the verdict's reasons.
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null || skip "bash not found"
command -v gcc >/dev/null || skip "gcc not found"

R=$T/r
rel=$(uname -r)
M=$R/lib/modules/$rel
mkdir -p "$M/kernel/a" "$M/kernel/b" "$M/kernel/c" "$R/sys/module" "$R/dev" || fail "tree"
: > "$R/dev/ttyS1"
# A module file holds what the fake finit_module does with it.
mod() { printf '%s' "$2" > "$M/kernel/$1"; }
mod a/base.ko.xz ok
mod a/user-one.ko ok
mod b/hv_vmbus.ko ENODEV
mod b/hv_netvsc.ko ok
mod b/kvm_intel.ko EOPNOTSUPP
mod b/other.ko ENXIO
mod c/broken.ko EINVAL
mod c/needs_broken.ko ok
mod c/tcrypt.ko EAGAIN
mod c/oops.ko crash
mod c/after_oops.ko ok
mod c/raced.ko raced
# modules.dep as depmod writes it; after_oops before oops, so that the
# child that meets the oops was asked for another module.
cat > "$M/modules.dep" <<'EOF'
kernel/a/user-one.ko: kernel/a/base.ko.xz
kernel/a/base.ko.xz:
kernel/b/hv_netvsc.ko: kernel/b/hv_vmbus.ko
kernel/b/hv_vmbus.ko:
kernel/b/kvm_intel.ko:
kernel/b/other.ko:
kernel/c/needs_broken.ko: kernel/c/broken.ko
kernel/c/broken.ko:
kernel/c/tcrypt.ko:
kernel/c/after_oops.ko: kernel/c/oops.ko
kernel/c/oops.ko:
kernel/c/raced.ko:
EOF

cat > "$T/fake.c" <<'EOF'
#define main init_main
#define syscall fake_syscall
#include <stdarg.h>
long fake_syscall(long nr, ...);
#include "init.c"
#undef syscall
#undef main
/* finit_module(fd, params, flags) from the file's word; a loaded module
 * shows in sysfs, as the kernel's would. */
long fake_syscall(long nr, ...)
{
	va_list ap;
	va_start(ap, nr);
	int fd = va_arg(ap, int);
	(void)va_arg(ap, const char *);
	unsigned flags = va_arg(ap, unsigned);
	va_end(ap);
	if (nr != SYS_finit_module) { errno = ENOSYS; return -1; }
	char path[512], lnk[64], what[32] = "", dir[600];
	snprintf(lnk, sizeof(lnk), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(lnk, path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = 0;
	n = read(fd, what, sizeof(what) - 1);
	what[n > 0 ? n : 0] = 0;
	if (!!strstr(path, ".ko.xz") != !!(flags & MODULE_INIT_COMPRESSED_FILE)) { errno = EBADMSG; return -1; }
	if (!strcmp(what, "crash")) raise(SIGSEGV);
	char *name = mod_name(path);
	if (!strcmp(what, "ok") || !strcmp(what, "raced")) {
		snprintf(dir, sizeof(dir), KCFI_ROOT "/sys/module/%s", name);
		mkdir(dir, 0755);
		strcat(dir, "/initstate");
		FILE *f = fopen(dir, "w");
		fputs("live\n", f);
		fclose(f);
		if (!strcmp(what, "raced")) { errno = EEXIST; return -1; }
		return 0;
	}
	errno = !strcmp(what, "ENODEV") ? ENODEV : !strcmp(what, "ENXIO") ? ENXIO :
		!strcmp(what, "EOPNOTSUPP") ? EOPNOTSUPP : !strcmp(what, "EAGAIN") ? EAGAIN : EINVAL;
	return -1;
}
int main(void) { load_modules(); return 0; }
EOF
gcc -O1 -w -I"$top_srcdir/boot" -DKCFI_ROOT="\"$R\"" -o "$T/loader" "$T/fake.c" ||
	{ fail "cannot build the loader"; finish; }
"$T/loader" > "$T/console" 2>&1 || fail "the loader exited $?"
L=$R/dev/ttyS1

has() { grep -qxF "$2" "$L" && pass "$1" || { fail "$1: no '$2' in the log"; sed 's/^/    /' "$L"; }; }
has "a dependency loads first (compressed: the kernel decompresses)" "kcfi-modload: base loaded 0"
has "then the module, its name with underscores" "kcfi-modload: user_one loaded 0"
has "ENODEV is absent hardware" "kcfi-modload: hv_vmbus absent ENODEV"
has "a module needing an absent one is absent through it" "kcfi-modload: hv_netvsc absent ENODEV via=hv_vmbus"
has "EOPNOTSUPP is absent hardware (kvm without VMX)" "kcfi-modload: kvm_intel absent EOPNOTSUPP"
has "ENXIO is absent hardware" "kcfi-modload: other absent ENXIO"
has "another errno fails" "kcfi-modload: broken failed EINVAL"
has "a module needing a failed one fails through it" "kcfi-modload: needs_broken failed EINVAL via=broken"
has "an oops in a dependency's init: the child's signal" "kcfi-modload: oops failed SIG11"
has "the module asked for fails through the oopsed one" "kcfi-modload: after_oops failed SIG11 via=oops"
has "loaded by the kernel meanwhile (EEXIST, live): loaded" "kcfi-modload: raced loaded 0"
has "the summary counts each module once" "kcfi-modload-summary: total=12 loaded=3 absent=4 failed=5"
check "each load is announced before it starts" grep -qxF "kcfi-modload-try: oops" "$L"
check "one result line per module" sh -c "[ \$(grep -c '^kcfi-modload: ' '$L') -eq 12 ]"
check "the console has the counts" grep -qF "kcfi-boot: modules: 12 total, 3 loaded, 4 absent, 5 failed" "$T/console"

# verdict LOG: modload_verdict as the judge calls it.
verdict() {
	bash -c '. "$1/boot/lib.sh"; modload_verdict "$2"; echo "said=$MODLOAD_SAID"; echo "why=$MODLOAD_WHY"' \
		verdict "$top_srcdir" "$1"
}
verdict "$L" > "$T/v.out"
check "verdict: counts, tcrypt's EAGAIN explained (explained.tsv)" \
	grep -qx 'said=total=12,loaded=3,absent=4,failed=5,explained=1' "$T/v.out"
check "verdict: the unexplained failures, each with its errno and root" \
	grep -qx 'why=4 failed: broken(EINVAL) needs_broken(EINVAL via broken) oops(SIG11) after_oops(SIG11 via oops)' "$T/v.out"
grep -Ev ' (broken|needs_broken|oops|after_oops)( |$)' "$L" |
	sed 's/total=12 loaded=3 absent=4 failed=5/total=8 loaded=3 absent=4 failed=1/' > "$T/clean.log"
verdict "$T/clean.log" > "$T/v.out"
check "verdict: absent and explained only: no reason" grep -qx 'why=' "$T/v.out"
# The machine died in oops's init: the log ends after its try line.
sed '/^kcfi-modload-try: oops$/q' "$L" > "$T/cut.log"
n=$(grep -c '^kcfi-modload: ' "$T/cut.log")
verdict "$T/cut.log" > "$T/v.out"
check "verdict: no summary: loading stopped, in the module tried last" \
	grep -qx "why=loading stopped after $n modules (in: oops)" "$T/v.out"
sed 's/total=8 /total=9 /' "$T/clean.log" > "$T/miscount.log"
verdict "$T/miscount.log" > "$T/v.out"
check "verdict: init's count and the lines disagree" grep -q '^why=init counted' "$T/v.out"
verdict "$T/nonexistent" > "$T/v.out"
check "verdict: no module log" grep -q '^why=no module results' "$T/v.out"
finish
