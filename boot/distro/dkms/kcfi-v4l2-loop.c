// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make dkms-check's use of v4l2loopback (a DKMS module built by kcfi-gcc):
 * through the device named on the command line, a child sets an output
 * format and writes frames of a known pattern; the parent reads a frame
 * back through the capture side and compares.  Every step goes through the
 * module's file and ioctl operations, which the kernel reaches by checked
 * indirect calls.  Exit 0 when the frame came back intact.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

enum { WIDTH = 64, HEIGHT = 48, FRAME = WIDTH * HEIGHT * 2 };

static void pattern(unsigned char *f)
{
	for (int i = 0; i < FRAME; i++)
		f[i] = (unsigned char)(i * 7 + 3);
}

static int writer(const char *dev)
{
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
	unsigned char frame[FRAME];
	int fd = open(dev, O_RDWR);

	if (fd < 0) {
		perror(dev);
		return 1;
	}
	fmt.fmt.pix.width = WIDTH;
	fmt.fmt.pix.height = HEIGHT;
	fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	fmt.fmt.pix.field = V4L2_FIELD_NONE;
	fmt.fmt.pix.bytesperline = WIDTH * 2;
	fmt.fmt.pix.sizeimage = FRAME;
	if (ioctl(fd, VIDIOC_S_FMT, &fmt) < 0) {
		perror("VIDIOC_S_FMT (output)");
		return 1;
	}
	pattern(frame);
	/* Until the parent has its frame (it kills us), at 20 frames/s. */
	for (int i = 0; i < 400; i++) {
		if (write(fd, frame, FRAME) != FRAME) {
			perror("write");
			return 1;
		}
		usleep(50000);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct v4l2_capability cap;
	unsigned char want[FRAME], got[FRAME];
	const char *dev = argc > 1 ? argv[1] : "/dev/video0";
	int fd, status;
	ssize_t n;
	pid_t child;

	fd = open(dev, O_RDWR);
	if (fd < 0 || ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0) {
		perror(dev);
		return 1;
	}
	printf("%s: driver %s, card %s\n", dev, (char *)cap.driver, (char *)cap.card);
	close(fd);
	child = fork();
	if (child == 0)
		_exit(writer(dev));
	sleep(1);	/* the format is the writer's to set */
	fd = open(dev, O_RDONLY);
	if (fd < 0) {
		perror(dev);
		return 1;
	}
	alarm(20);
	n = read(fd, got, sizeof(got));
	kill(child, SIGTERM);
	waitpid(child, &status, 0);
	if (n != FRAME) {
		fprintf(stderr, "read %zd bytes of %d: %s\n", n, FRAME, n < 0 ? strerror(errno) : "short");
		return 1;
	}
	pattern(want);
	if (memcmp(want, got, FRAME)) {
		fprintf(stderr, "the frame read back differs from the one written\n");
		return 1;
	}
	printf("a %dx%d frame written and read back\n", WIDTH, HEIGHT);
	return 0;
}
