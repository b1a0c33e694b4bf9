/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /init of bench/runtime.sh's guest.  Mounts what the workloads need, brings
 * up the loopback interface, then runs each line of /workloads
 * ("NAME N COMMAND ARGS...", {} in an argument standing for the number of
 * operations) twice, with N and with 2N operations.  Around each run it
 * executes the marker instruction the TCG plugin (kinsn.c) watches for, and
 * prints "bench-guest: workload NAME OPS BEFORE AFTER" with the sequence
 * numbers of the two markers.  COMMAND @bpf runs a small BPF program OPS
 * times through BPF_PROG_TEST_RUN; @module FILE loads and unloads the module
 * FILE (read before the first marker) OPS times; @exec forks OPS children that each exec this
 * (static) program, which exits at once when given --exit.  Last it prints "bench-guest: done" and
 * reboots (QEMU runs with -no-reboot and exits). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <net/if.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned long marks;

/* nopl 0x4b434649(%rax): the plugin's marker */
static __attribute__((noinline)) unsigned long mark(void)
{
	__asm__ volatile(".byte 0x0f, 0x1f, 0x80, 0x49, 0x46, 0x43, 0x4b" ::: "memory");
	return ++marks;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (write(1, buf, strlen(buf)) < 0)
		return;
}

static void finish(int ok)
{
	say("bench-guest: %s\n", ok ? "done" : "failed");
	sync();
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

static int run_command(char **argv)
{
	int status;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execv(argv[0], argv);
		say("bench-guest: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		say("bench-guest: %s exited with status %#x\n", argv[0], status);
		return -1;
	}
	return 0;
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static int bpf_fd = -1;

/* A socket filter that touches its context a little: r0 = skb->len & 0xff. */
static int bpf_load(void)
{
	struct bpf_insn prog[] = {
		{ .code = BPF_LDX | BPF_W | BPF_MEM, .dst_reg = BPF_REG_0, .src_reg = BPF_REG_1,
		  .off = offsetof(struct __sk_buff, len) },
		{ .code = BPF_ALU64 | BPF_AND | BPF_K, .dst_reg = BPF_REG_0, .imm = 0xff },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (unsigned long)prog;
	a.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	a.license = (unsigned long)"GPL";
	bpf_fd = sys_bpf(BPF_PROG_LOAD, &a);
	if (bpf_fd < 0)
		say("bench-guest: BPF_PROG_LOAD: %s\n", strerror(errno));
	return bpf_fd < 0 ? -1 : 0;
}

static int bpf_run(unsigned long ops)
{
	unsigned char data[64];
	union bpf_attr a;
	memset(data, 0, sizeof(data));
	memset(&a, 0, sizeof(a));
	a.test.prog_fd = bpf_fd;
	a.test.data_in = (unsigned long)data;
	a.test.data_size_in = sizeof(data);
	a.test.repeat = ops;
	if (sys_bpf(BPF_PROG_TEST_RUN, &a) < 0) {
		say("bench-guest: BPF_PROG_TEST_RUN: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static char *ko;
static size_t ko_size;

/* module_read FILE: the whole file in ko, outside the measured run. */
static int module_read(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	free(ko);
	ko = NULL;
	if (fd < 0 || fstat(fd, &st) || !(ko = malloc(st.st_size)) ||
	    read(fd, ko, st.st_size) != st.st_size) {
		say("bench-guest: cannot read %s\n", path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	ko_size = st.st_size;
	close(fd);
	return 0;
}

static int module_run(unsigned long ops)
{
	unsigned long i;
	for (i = 0; i < ops; i++) {
		if (syscall(SYS_init_module, ko, ko_size, "")) {
			say("bench-guest: init_module: %s\n", strerror(errno));
			return -1;
		}
		if (syscall(SYS_delete_module, "kcfi_bench", O_NONBLOCK)) {
			say("bench-guest: delete_module: %s\n", strerror(errno));
			return -1;
		}
	}
	return 0;
}

static int exec_run(unsigned long ops)
{
	char *argv[] = { "/init", "--exit", NULL };
	unsigned long i;
	for (i = 0; i < ops; i++)
		if (run_command(argv))
			return -1;
	return 0;
}

/* run NAME OPS ARGV: one measured run, between two markers. */
static int run(const char *name, unsigned long ops, char **argv)
{
	char *args[64], num[32];
	unsigned long before, after;
	int i, rc;
	snprintf(num, sizeof(num), "%lu", ops);
	for (i = 0; argv[i] && i < 63; i++)
		args[i] = strcmp(argv[i], "{}") ? argv[i] : num;
	args[i] = NULL;
	if (!strcmp(args[0], "@bpf")) {
		before = mark();
		rc = bpf_run(ops);
		after = mark();
	} else if (!strcmp(args[0], "@module")) {
		if (!args[1])
			say("bench-guest: %s: @module needs the module's file\n", name);
		if (!args[1] || module_read(args[1]))
			return -1;
		before = mark();
		rc = module_run(ops);
		after = mark();
	} else if (!strcmp(args[0], "@exec")) {
		before = mark();
		rc = exec_run(ops);
		after = mark();
	} else {
		before = mark();
		rc = run_command(args);
		after = mark();
	}
	if (rc)
		return -1;
	say("bench-guest: workload %s %lu %lu %lu\n", name, ops, before, after);
	return 0;
}

static void loopback_up(void)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0)
		return;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		if (ioctl(s, SIOCSIFFLAGS, &ifr))
			say("bench-guest: lo: %s\n", strerror(errno));
	}
	close(s);
}

int main(int argc, char **argv0)
{
	char line[1024];
	FILE *f;
	int fd;
	if (argc > 1 && !strcmp(argv0[1], "--exit"))
		return 0;
	fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0), dup2(fd, 1), dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("tmpfs", "/tmp", "tmpfs", 0, "size=64m");
	setenv("PATH", "/bin", 1);
	setenv("HOME", "/tmp", 1);
	loopback_up();
	if (bpf_load())
		finish(0);
	f = fopen("/workloads", "r");
	if (!f)
		finish(0);
	while (fgets(line, sizeof(line), f)) {
		char *argv[64], *name, *n, *save;
		unsigned long ops;
		int i = 0;
		line[strcspn(line, "\n")] = 0;
		name = strtok_r(line, " \t", &save);
		if (!name || name[0] == '#')
			continue;
		n = strtok_r(NULL, " \t", &save);
		ops = n ? strtoul(n, NULL, 10) : 0;
		while (i < 63 && (argv[i] = strtok_r(NULL, " \t", &save)))
			i++;
		argv[i] = NULL;
		if (!ops || !argv[0]) {
			say("bench-guest: bad line for %s\n", name);
			finish(0);
		}
		say("bench-guest: running %s\n", name);
		if (run(name, ops, argv) || run(name, 2 * ops, argv))
			finish(0);
	}
	finish(1);
	return 0;
}
