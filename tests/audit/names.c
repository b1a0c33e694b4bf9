/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-audit --targets names types: one checked call of each of five
 * function types, with a different number of functions of each, so that
 * the most permissive list has a fixed order. */
struct obj;
typedef void (*put_fn)(void *);
typedef int (*vlog_fn)(const char *, ...);
typedef long (*op_fn)(struct obj *, unsigned int);
typedef void (*each_fn)(int (*)(int));
typedef unsigned char (*get_fn)(void);

void put_a(void *p) { (void)p; }
void put_b(void *p) { (void)p; }
void put_c(void *p) { (void)p; }
void put_d(void *p) { (void)p; }
void put_e(void *p) { (void)p; }
int vlog_a(const char *f, ...) { return f[0]; }
int vlog_b(const char *f, ...) { return f[1]; }
int vlog_c(const char *f, ...) { return f[2]; }
int vlog_d(const char *f, ...) { return f[3]; }
long op_a(struct obj *o, unsigned int n) { return (long)o + n; }
long op_b(struct obj *o, unsigned int n) { return (long)o - n; }
long op_c(struct obj *o, unsigned int n) { return (long)o ^ n; }
void each_a(int (*f)(int)) { (void)f; }
void each_b(int (*f)(int)) { (void)f; }
unsigned char get_a(void) { return 1; }

put_fn puts_[] = { put_a, put_b, put_c, put_d, put_e };
vlog_fn vlogs[] = { vlog_a, vlog_b, vlog_c, vlog_d };
op_fn ops[] = { op_a, op_b, op_c };
each_fn eachs[] = { each_a, each_b };
get_fn gets[] = { get_a };

void call_put(put_fn f, void *p) { f(p); __asm__ volatile("" ::: "memory"); }
int call_vlog(vlog_fn f, const char *s) { return f(s, 1) + 1; }
long call_op(op_fn f, struct obj *o) { return f(o, 3) + 1; }
void call_each(each_fn f) { f(0); __asm__ volatile("" ::: "memory"); }
int call_get(get_fn f) { return f() + 1; }
