/* init for the boot matrix: the only process of a test kernel.
 *
 * It asks LKDTM for CFI_FORWARD_PROTO (one indirect call through a pointer
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
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LKDTM_DIRECT "/sys/kernel/debug/provoke-crash/DIRECT"

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
	say("kcfi-boot: init running, triggering CFI_FORWARD_PROTO");

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
