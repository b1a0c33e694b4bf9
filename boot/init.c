/* SPDX-License-Identifier: GPL-2.0-or-later */
/* init for the boot matrix: the only process of a test kernel.
 *
 * When the initramfs holds a module tree (/lib/modules/<release>/modules.dep,
 * the debian-cloud profile), it first loads every module of it, one line per
 * module on the second serial port (see load_modules).
 * When the initramfs holds our test module (the defconfig profile), it first
 * loads and unloads it: the module calls into vmlinux through pointers and
 * is called back from vmlinux the same way.  When it holds the module of
 * deliberate mismatches (the small profile's permissive rows), it loads it
 * and leaves it loaded: a permissive kernel reports each mismatch.  Where the kernel has BPF, it
 * loads a BPF program and runs it with BPF_PROG_TEST_RUN, so the kernel
 * calls JIT-generated code through a checked pointer.  Then it asks LKDTM
 * for CFI_FORWARD_PROTO (one indirect call through a pointer
 * of the right type, then one through a pointer of the wrong type) from a
 * forked child, so that the oops of a trapping kernel takes the child and
 * not init, then reports what became of the child and stops the machine.
 * boot/run.sh reads the "kcfi-boot:" lines from the serial console.
 *
 * Built static with each cross compiler; no kcfi here, it is user space.
 */
#define _GNU_SOURCE	/* strerrorname_np */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define LKDTM_DIRECT "/sys/kernel/debug/provoke-crash/DIRECT"
#define TEST_MODULE "/kcfi_test.ko"
#define TEST_MODULE_NAME "kcfi_test"
#define MISMATCH_MODULE "/kcfi_mismatch.ko"
/* The module results go to their own port: printk writes to the console
 * port directly, past the tty, and can land inside any line there. */
#define MODLOG KCFI_ROOT "/dev/ttyS1"
/* tests/boot/modload.sh runs the loader in a directory, on fake modules. */
#ifndef KCFI_ROOT
#define KCFI_ROOT ""
#endif
#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif
/* Longest a module's init may take before it counts as hung. */
#define MODULE_TIMEOUT_MS (600 * 1000)

/* One write per line: printk output may land between two of ours. */
static void say(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(1, buf, (size_t)n) < 0)
		return;
}

static void stop(void)
{
	/* x86 without ACPI cannot power off: run.sh passes kcfi_exit=reboot
	 * and QEMU -no-reboot turns the reboot into an exit. */
	const char *how = getenv("kcfi_exit");
	sync();
	reboot(how && !strcmp(how, "reboot") ? RB_AUTOBOOT : RB_POWER_OFF);
	say("kcfi-boot: reboot failed: %s", strerror(errno));
	for (;;)
		pause();
}

static int provoke(const char *what)
{
	int fd = open(LKDTM_DIRECT, O_WRONLY);
	if (fd < 0) {
		say("kcfi-boot: open %s: %s", LKDTM_DIRECT, strerror(errno));
		return 2;
	}
	ssize_t n = write(fd, what, strlen(what));
	if (n < 0) {
		say("kcfi-boot: write %s: %s", what, strerror(errno));
		return 3;
	}
	close(fd);
	return 0;
}

/* The module's init checks both directions of the calls itself and fails
 * the load if one of them went wrong; its exit is called by delete_module. */
static void test_module(void)
{
	int fd = open(TEST_MODULE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;		/* the small profile has none */
	if (syscall(SYS_finit_module, fd, "", 0)) {
		say("kcfi-boot: module load failed: %s", strerror(errno));
		close(fd);
		return;
	}
	close(fd);
	if (syscall(SYS_delete_module, TEST_MODULE_NAME, O_NONBLOCK)) {
		say("kcfi-boot: module unload failed: %s", strerror(errno));
		return;
	}
	say("kcfi-boot: module ok");
}

/* The permissive rows' module of deliberate mismatches: its init makes four
 * mismatched indirect calls, each reported by a permissive kernel, which goes
 * on (boot/mismatch-judge.sh explains them).  Loaded in a child, so that a
 * kernel that traps after all takes the child and not init; never unloaded. */
static void test_mismatch(void)
{
	if (access(MISMATCH_MODULE, F_OK))
		return;		/* strict rows have none */
	say("kcfi-boot: loading the mismatch module");
	pid_t pid = fork();
	if (pid < 0) {
		say("kcfi-boot: fork: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		int fd = open(MISMATCH_MODULE, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || syscall(SYS_finit_module, fd, "", 0)) {
			say("kcfi-boot: mismatch module load failed: %s", strerror(errno));
			_exit(1);
		}
		_exit(0);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(st))
		say("kcfi-boot: mismatch module: child killed by signal %d", WTERMSIG(st));
	else if (WEXITSTATUS(st) == 0)
		say("kcfi-boot: mismatch module loaded");
}

/* ---- every module of the tree: the debian-cloud profile ------------------
 * modprobe's exit status does not say why a module was refused, and that is
 * the verdict: so init does what modprobe does -- the module's dependencies
 * from depmod's modules.dep first, then finit_module, the kernel
 * decompressing .ko.xz itself as kmod asks it to -- and keeps the errno.
 * Each load runs in a child: an oops in a module's init kills the child, and
 * init goes on to report it.  Busybox's modprobe is /sbin/modprobe for the
 * kernel's own request_module calls during these loads.
 *
 * Lines on MODLOG (doc/kernel.md 6a; read by boot/modload.awk):
 *   kcfi-modload-try: NAME                    before its finit_module
 *   kcfi-modload: NAME loaded 0
 *   kcfi-modload: NAME absent ENODEV [via=DEP]
 *   kcfi-modload: NAME failed EINVAL [via=DEP]   (or SIG<n>, TIMEOUT)
 *   kcfi-modload-summary: total=N loaded=A absent=B failed=C
 * "absent" is what drivers return when their device, CPU feature or
 * hypervisor is not there: ENODEV, ENXIO, and EOPNOTSUPP (kvm_intel and
 * kvm_amd without VMX/SVM, ptp_kvm without KVM).  A module whose dependency
 * did not load shares its state, via= naming the module at the root. */

enum { M_UNKNOWN, M_LOADING, M_LOADED, M_ABSENT, M_FAILED };
static const char *const state_name[] = { "?", "?", "loaded", "absent", "failed" };

struct mod {
	char *name, *path;
	int *deps, ndeps;
	int state, via;
	char err[24];
};
static struct mod *mods;
static int nmods;
static int report_fd = -1;	/* the child's pipe to init */

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct mod *)a)->path, ((const struct mod *)b)->path);
}

static int find_mod(const char *path)
{
	struct mod key = { .path = (char *)path };
	struct mod *m = bsearch(&key, mods, (size_t)nmods, sizeof(*mods), by_path);
	return m ? (int)(m - mods) : -1;
}

static char *mod_name(const char *path)
{
	const char *b = strrchr(path, '/');
	char *n = strdup(b ? b + 1 : path), *p;
	if ((p = strstr(n, ".ko")))
		*p = 0;
	for (p = n; *p; p++)
		if (*p == '-')
			*p = '_';
	return n;
}

/* modules.dep, in its order ("path: dep dep ..."); returns the order. */
static int *read_modules_dep(const char *file)
{
	FILE *f = fopen(file, "r");
	char *line = NULL;
	size_t cap = 0;
	int n = 0, cnt = 0;
	char **lines = NULL;
	if (!f)
		return NULL;
	while (getline(&line, &cap, f) > 0) {
		if (!strchr(line, ':'))
			continue;
		lines = realloc(lines, sizeof(*lines) * (size_t)(n + 1));
		lines[n++] = strdup(line);
	}
	fclose(f);
	mods = calloc((size_t)n + 1, sizeof(*mods));
	for (int i = 0; i < n; i++) {
		*strchr(lines[i], ':') = 0;
		mods[i].path = lines[i];
		mods[i].name = mod_name(lines[i]);
		mods[i].via = -1;
	}
	nmods = n;
	/* Remember each line's rank before sorting for the lookups. */
	char **order = malloc(sizeof(*order) * (size_t)n + 1);
	for (int i = 0; i < n; i++)
		order[i] = mods[i].path;
	qsort(mods, (size_t)n, sizeof(*mods), by_path);
	int *seq = malloc(sizeof(int) * (size_t)n + 1);
	for (int i = 0; i < n; i++) {
		int k = find_mod(order[i]);
		char *deps = order[i] + strlen(order[i]) + 1, *tok, *save;
		seq[cnt++] = k;
		for (tok = strtok_r(deps, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
			int d = find_mod(tok);
			if (d < 0)
				continue;
			mods[k].deps = realloc(mods[k].deps, sizeof(int) * (size_t)(mods[k].ndeps + 1));
			mods[k].deps[mods[k].ndeps++] = d;
		}
	}
	free(order);
	free(lines);
	free(line);
	return seq;
}

/* Loaded already: by the kernel's request_module, or as a dependency. */
static int live(const char *name)
{
	char p[300], buf[16] = "";
	snprintf(p, sizeof(p), KCFI_ROOT "/sys/module/%s/initstate", name);
	int fd = open(p, O_RDONLY);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 && !strncmp(buf, "live", 4);
}

static void report(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0 && write(report_fd, buf, (size_t)n) < 0)
		_exit(1);
}

static void settle(int i, int state, const char *err, int via)
{
	mods[i].state = state;
	mods[i].via = via;
	snprintf(mods[i].err, sizeof(mods[i].err), "%s", err);
	report("R %d %d %s %d\n", i, state, err, via);
}

/* In the child: load module i after its dependencies. */
static void load(int i)
{
	struct mod *m = &mods[i];
	if (m->state != M_UNKNOWN)
		return;
	m->state = M_LOADING;	/* a dependency cycle ends here */
	for (int k = 0; k < m->ndeps; k++) {
		int d = m->deps[k];
		load(d);
		if (mods[d].state == M_ABSENT || mods[d].state == M_FAILED) {
			settle(i, mods[d].state, mods[d].err, mods[d].via >= 0 ? mods[d].via : d);
			return;
		}
	}
	if (live(m->name)) {
		settle(i, M_LOADED, "0", -1);
		return;
	}
	report("T %d\n", i);
	int fd = open(m->path, O_RDONLY | O_CLOEXEC), e;
	unsigned flags = strstr(m->path, ".ko.") ? MODULE_INIT_COMPRESSED_FILE : 0;
	if (fd < 0)
		e = errno;
	else
		e = syscall(SYS_finit_module, fd, "", flags) ? errno : 0;
	if (fd >= 0)
		close(fd);
	if (e == EEXIST && live(m->name))
		e = 0;		/* finished loading meanwhile */
	const char *en = e ? strerrorname_np(e) : "0";
	char unknown[16];
	if (!en) {
		snprintf(unknown, sizeof(unknown), "E%d", e);
		en = unknown;
	}
	settle(i, !e ? M_LOADED : (e == ENODEV || e == ENXIO || e == EOPNOTSUPP) ? M_ABSENT : M_FAILED, en, -1);
}

static void modlog(int fd, int i)
{
	struct mod *m = &mods[i];
	char via[300] = "";
	if (m->via >= 0)
		snprintf(via, sizeof(via), " via=%s", mods[m->via].name);
	dprintf(fd, "kcfi-modload: %s %s %s%s\n", m->name, state_name[m->state], m->err, via);
}

/* Run load(i) in a child; take over what it settled, and what became of
 * the module it was in when it died or hung. */
static void load_in_child(int i, int out)
{
	int p[2];
	if (pipe(p)) {
		say("kcfi-boot: pipe: %s", strerror(errno));
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		report_fd = p[1];
		load(i);
		_exit(0);
	}
	close(p[1]);
	if (pid < 0) {
		say("kcfi-boot: fork: %s", strerror(errno));
		close(p[0]);
		return;
	}
	FILE *f = fdopen(p[0], "r");
	setvbuf(f, NULL, _IONBF, 0);	/* poll must see every byte not yet read */
	char line[128];
	int trying = -1, hung = 0;
	for (;;) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		int r = poll(&pf, 1, MODULE_TIMEOUT_MS);
		if (r == 0) {
			hung = 1;
			break;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (!fgets(line, sizeof(line), f))
			break;
		int k, st, via;
		char err[24];
		if (sscanf(line, "T %d", &k) == 1 && line[0] == 'T') {
			trying = k;
			dprintf(out, "kcfi-modload-try: %s\n", mods[k].name);
		} else if (sscanf(line, "R %d %d %23s %d", &k, &st, err, &via) == 4) {
			mods[k].state = st;
			mods[k].via = via;
			snprintf(mods[k].err, sizeof(mods[k].err), "%s", err);
			modlog(out, k);
			if (k == trying)
				trying = -1;
		}
	}
	fclose(f);
	int st = 0;
	if (hung) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, WNOHANG);	/* it may be stuck in the kernel */
	} else {
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	if (trying >= 0 || mods[i].state == M_UNKNOWN) {
		int k = trying >= 0 ? trying : i;
		mods[k].state = M_FAILED;
		if (hung)
			snprintf(mods[k].err, sizeof(mods[k].err), "TIMEOUT");
		else
			snprintf(mods[k].err, sizeof(mods[k].err), "SIG%d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		modlog(out, k);
	}
}

static void load_modules(void)
{
	struct utsname u;
	char dir[300], dep[340];
	if (uname(&u))
		return;
	snprintf(dir, sizeof(dir), KCFI_ROOT "/lib/modules/%s", u.release);
	snprintf(dep, sizeof(dep), "%s/modules.dep", dir);
	if (access(dep, R_OK))
		return;		/* the small and defconfig profiles have none */
	int *seq = read_modules_dep(dep);
	if (!seq || chdir(dir)) {
		say("kcfi-boot: cannot read %s", dep);
		return;
	}
	int out = open(MODLOG, O_WRONLY | O_NOCTTY);
	if (out < 0) {
		say("kcfi-boot: open %s: %s; module results on the console", MODLOG, strerror(errno));
		out = 1;
	}
	say("kcfi-boot: loading %d modules (results on %s)", nmods, out == 1 ? "the console" : MODLOG);
	/* A child that died in a dependency leaves the module it was asked
	 * for unsettled: the next child finds the dependency failed. */
	for (int k = 0; k < nmods; k++)
		for (int tries = 0; mods[seq[k]].state == M_UNKNOWN && tries < 3; tries++)
			load_in_child(seq[k], out);
	int n[5] = { 0 };
	for (int k = 0; k < nmods; k++) {
		if (mods[k].state < M_LOADED) {
			mods[k].state = M_FAILED;
			snprintf(mods[k].err, sizeof(mods[k].err), "UNSETTLED");
			modlog(out, k);
		}
		n[mods[k].state]++;
	}
	dprintf(out, "kcfi-modload-summary: total=%d loaded=%d absent=%d failed=%d\n",
		nmods, n[M_LOADED], n[M_ABSENT], n[M_FAILED]);
	if (out != 1) {
		tcdrain(out);	/* the machine stops soon: let the port empty */
		close(out);
	}
	say("kcfi-boot: modules: %d total, %d loaded, %d absent, %d failed",
	    nmods, n[M_LOADED], n[M_ABSENT], n[M_FAILED]);
	if (chdir(KCFI_ROOT "/"))
		return;
}

static long bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* r0 = 42; exit: small enough to need no verifier log, and its return value
 * proves the JIT-compiled code really ran. */
static void test_bpf(void)
{
	static const struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 42 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static const char license[] = "GPL";
	unsigned char packet[64] = { 0 };
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)prog;
	attr.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	attr.license = (unsigned long)license;
	int fd = (int)bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0 && errno == ENOSYS) {
		say("kcfi-boot: no bpf in this kernel");
		return;
	}
	if (fd < 0) {
		say("kcfi-boot: bpf load failed: %s", strerror(errno));
		return;
	}
	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = (unsigned)fd;
	attr.test.data_in = (unsigned long)packet;
	attr.test.data_size_in = sizeof(packet);
	attr.test.repeat = 1;
	if (bpf(BPF_PROG_TEST_RUN, &attr)) {
		say("kcfi-boot: bpf test run failed: %s", strerror(errno));
	} else if (attr.test.retval != 42) {
		say("kcfi-boot: bpf returned %u, not 42", attr.test.retval);
	} else {
		say("kcfi-boot: bpf ok");
	}
	close(fd);
}

int main(void)
{
	/* The kernel opened /dev/console for us only if the node exists. */
	if (fcntl(1, F_GETFD) < 0) {
		int fd = open("/dev/console", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
	}
	/* sysfs (/sys/module/<name>/initstate) and proc (busybox's modprobe)
	 * for the module loads; sysfs before debugfs, which mounts inside it. */
	if (!access("/lib/modules", F_OK)) {
		mount("sysfs", "/sys", "sysfs", 0, NULL);
		mount("proc", "/proc", "proc", 0, NULL);
	}
	if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) && errno != EBUSY) {
		say("kcfi-boot: mount debugfs: %s", strerror(errno));
		stop();
	}
	say("kcfi-boot: init running");
	load_modules();
	test_module();
	test_mismatch();
	test_bpf();
	say("kcfi-boot: triggering CFI_FORWARD_PROTO");

	pid_t pid = fork();
	if (pid < 0) {
		say("kcfi-boot: fork: %s", strerror(errno));
		stop();
	}
	if (pid == 0)
		_exit(provoke("CFI_FORWARD_PROTO"));

	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(st))
		say("kcfi-boot: child killed by signal %d", WTERMSIG(st));
	else
		say("kcfi-boot: child exited %d", WEXITSTATUS(st));
	say("kcfi-boot: init done");
	stop();
	return 0;
}
