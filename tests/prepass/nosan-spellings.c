/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every spelling of no_sanitize("kcfi") is accepted silently; other
   sanitizers named with it still reach GCC's own handler.  */

extern int work (int);
typedef int (*op_fn) (int);

__attribute__ ((__no_sanitize__ ("kcfi"))) int
sp_underscores (op_fn f) { return f (1) + 1; }

[[gnu::no_sanitize ("kcfi")]] int
sp_std_attribute (op_fn f) { return f (2) + 1; }

__attribute__ ((no_sanitize ("kcfi", "address"))) int
sp_two_strings (op_fn f, int *p) { return f (*p) + 3; }

__attribute__ ((no_sanitize ("address,kcfi"))) int
sp_one_list (op_fn f, int *p) { return f (*p) + 4; }

int sp_declared_first (op_fn f);
__attribute__ ((no_sanitize ("kcfi"))) int sp_declared_first (op_fn f);
int sp_declared_first (op_fn f) { return f (5) + 1; }

/* The control: checked, and instrumented under -fsanitize=address.  */
int
sp_checked (op_fn f, int *p)
{
  return f (*p) + 1;
}
