#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Write a C file with N functions shaped like kernel code: struct-member
# indirect calls, callbacks through parameters, tail calls, switch tables.
# Usage: bench/gen-corpus.sh N > corpus.c
n=${1:-2000}
cat <<'END'
struct ops {
	int (*open)(void *, int);
	void (*release)(void *);
	long (*ioctl)(void *, unsigned int, unsigned long);
	int (*show)(void *, const char *, ...);
};
extern struct ops *table[64];
extern int sink;
END
i=0
while [ $i -lt "$n" ]; do
	cat <<END
int fn$i(struct ops *o, void *p, int x, int (*cb)(int))
{
	int r = o->open(p, x + $i);
	if (r < 0)
		return cb(r);
	switch (x & 7) {
	case 0: r += o->ioctl(p, $i, x); break;
	case 1: r ^= table[x & 63]->open(p, r); break;
	case 2: o->release(p); break;
	case 3: r += $i * x; break;
	case 4: r -= cb(x); break;
	case 5: r += o->show(p, "%d", r); break;
	default: r = sink + x; break;
	}
	sink = r;
	return table[(r + $i) & 63]->open(p, r);
}
END
	i=$((i + 1))
done
