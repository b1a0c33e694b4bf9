/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cfi_salt and x86 address spaces as the plugin prints them: each
   function's own type, the types of the calls through salted pointers
   (typedef'd, struct member, salted function typedef), salts inside
   parameter types, escapes.  */
#define __cfi_salt(s) __attribute__ ((cfi_salt (s)))

typedef void (*kvm_fn) (int) __cfi_salt ("kvm");
typedef void plain_ft (int);
typedef void kvm_ft (int) __cfi_salt ("kvm");
struct ops { void (*op) (int) __cfi_salt ("ops"); void (*plain) (int); };

void __cfi_salt ("kvm") s_prefix (int x) { (void) x; }
void s_postfix (int x) __cfi_salt ("kvm");
void __cfi_salt ("kvm") s_postfix (int x) { (void) x; }
kvm_ft s_typedef;
void __cfi_salt ("kvm") s_typedef (int x) { (void) x; }
void s_empty (int) __cfi_salt ("");
void s_escapes (void) __cfi_salt ("q\"b\\n\né");
void s_params (kvm_fn, void (*) (int), kvm_ft *, plain_ft *);
void (*s_returns (void)) (int) __cfi_salt ("outer");
void s_variadic (int, ...) __cfi_salt ("v");
void s_gs (const __seg_gs int *, __seg_fs char *, int *__seg_gs *, __seg_gs long (*)[2]);
void *taken[] = { s_empty, s_escapes, s_params, s_returns, s_variadic, s_gs };

void
calls (kvm_fn f, kvm_ft *g, struct ops *o, plain_ft *p)
{
  f (1);
  g (2);
  o->op (3);
  o->plain (4);
  p (5);
}
