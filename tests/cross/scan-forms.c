/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Call and jump shapes for the cross scan test: checked calls and sibcalls,
 * calls through struct members and arrays, a no_sanitize body, a jump table
 * (compressed on aarch64), computed gotos, a TLS access (a descriptor call
 * on aarch64 with -fpic) and functions that do or do not get a preamble. */
struct ops {
	int (*open)(const char *, int);
	void (*close)(int);
	long (*many)(long, long, long, long, long, long, long, long, long);
};

extern __thread int tls_counter;
extern int leaf(int);

static int st_taken(int v) { return v * 2; }
static int st_called(int v) { return v + leaf(v); }
__attribute__((weak)) int weak_fn(int v) { return v - 1; }
int (*const taken_ptr)(int) = st_taken;

int via_struct(struct ops *o, const char *name)
{
	int fd = o->open(name, 0);
	o->close(fd);
	return fd + (int)o->many(1, 2, 3, 4, 5, 6, 7, 8, 9);
}

long sibcall(struct ops *o) { return o->many(9, 8, 7, 6, 5, 4, 3, 2, 1); }

int through_array(int (*const fns[])(int), int n)
{
	int r = 0;
	for (int i = 0; i < n; i++)
		r += fns[i](i);
	return r + st_called(n);
}

__attribute__((no_sanitize("kcfi"))) int unchecked(int (*f)(int)) { return f(1) + 1; }

int table(int k, int v)
{
	switch (k) {
	case 0: return leaf(v);
	case 1: return leaf(v + 1) * 3;
	case 2: return leaf(v - 2) ^ 5;
	case 3: return leaf(v * 7);
	case 4: return leaf(v) + 11;
	case 5: return leaf(v | 8) - 1;
	case 6: return leaf(v & 3);
	case 7: return leaf(v << 2);
	case 8: return leaf(v >> 1);
	case 9: return leaf(~v);
	case 10: return leaf(-v);
	case 11: return leaf(v + 100);
	default: return 0;
	}
}

int threaded(const unsigned char *code)
{
	static void *const ops[] = { &&add, &&dbl, &&end };
	int acc = 0;
	goto *ops[*code++];
add:
	acc++;
	goto *ops[*code++];
dbl:
	acc *= 2;
	goto *ops[*code++];
end:
	return acc;
}

int *tls_address(void) { return &tls_counter; }

int variadic_call(int (*p)(const char *, ...)) { return p("%d", 1) + weak_fn(2); }
