/* init for the boot matrix: the only process of a test kernel.
 *
 * When the initramfs holds our test module (the defconfig profile), it first
 * loads and unloads it: the module calls into vmlinux through pointers and
 * is called back from vmlinux the same way.  Where the kernel has BPF, it
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
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LKDTM_DIRECT "/sys/kernel/debug/provoke-crash/DIRECT"
#define TEST_MODULE "/kcfi_test.ko"
#define TEST_MODULE_NAME "kcfi_test"

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
	if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) && errno != EBUSY) {
		say("kcfi-boot: mount debugfs: %s", strerror(errno));
		stop();
	}
	say("kcfi-boot: init running");
	test_module();
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
