// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make dkms-check's use of a DKMS crypto module: the digest of a file by a
 * kernel hash algorithm through AF_ALG, printed in hex.  The file goes in
 * 61-byte pieces with MSG_MORE, so the module's update runs many times
 * between its init and its final: each a checked call from the kernel's
 * crypto API into the module.
 */
#include <linux/if_alg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG, .salg_type = "hash" };
	unsigned char buf[61], digest[64];
	FILE *f;
	size_t n;
	ssize_t got;
	int tfm, op;

	if (argc != 3 || strlen(argv[1]) >= sizeof(sa.salg_name)) {
		fprintf(stderr, "usage: %s ALGORITHM FILE\n", argv[0]);
		return 2;
	}
	strcpy((char *)sa.salg_name, argv[1]);
	tfm = socket(AF_ALG, SOCK_SEQPACKET, 0);
	if (tfm < 0 || bind(tfm, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror(argv[1]);
		return 1;
	}
	op = accept(tfm, NULL, 0);
	f = fopen(argv[2], "rb");
	if (op < 0 || !f) {
		perror(op < 0 ? "accept" : argv[2]);
		return 1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (send(op, buf, n, MSG_MORE) != (ssize_t)n) {
			perror("send");
			return 1;
		}
	if (send(op, buf, 0, 0) < 0 || (got = read(op, digest, sizeof(digest))) <= 0) {
		perror("digest");
		return 1;
	}
	for (ssize_t i = 0; i < got; i++)
		printf("%02x", digest[i]);
	printf("\n");
	return 0;
}
