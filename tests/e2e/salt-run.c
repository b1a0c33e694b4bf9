/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cfi_salt at run time (Clang 22's attribute, the kernel's __cfi_salt).
   Salted functions called through salted pointers of the same salt run,
   also through a typedef'd pointer, a struct member and a salted function
   type; unsalted ones through unsalted pointers run.  The argument picks a
   call across: a salted pointer to an unsalted function (or the reverse,
   or another salt) must trap at the check, though the C types are the
   same but for the salt.  A salted declaration needs a salted definition:
   to Clang, and with the plugin to GCC, the salt is part of the type.  */
#include <stdio.h>
#include <string.h>

#define __cfi_salt(s) __attribute__ ((cfi_salt (s)))

typedef int (*kvm_fn) (int) __cfi_salt ("kvm");
typedef int (*plain_fn) (int);
typedef int other_fn_t (int) __cfi_salt ("other");
struct ops
{
  int (*op) (int) __cfi_salt ("kvm");
};

int __cfi_salt ("kvm") salted_twice (int x) { return 2 * x; }
int salted_thrice (int x) __cfi_salt ("kvm");
int __cfi_salt ("kvm") salted_thrice (int x) { return 3 * x; }
int plain_twice (int x) { return 2 * x; }
other_fn_t other_twice;
int __cfi_salt ("other") other_twice (int x) { return 2 * x; }

kvm_fn volatile kvm_ptr;
plain_fn volatile plain_ptr;
other_fn_t *volatile other_ptr;
struct ops volatile_ops;

int
main (int argc, char **argv)
{
  int sum = 0;
  kvm_ptr = salted_twice, sum += kvm_ptr (1);
  kvm_ptr = salted_thrice, sum += kvm_ptr (1);
  volatile_ops.op = salted_twice, sum += volatile_ops.op (1);
  plain_ptr = plain_twice, sum += plain_ptr (1);
  other_ptr = other_twice, sum += other_ptr (1);
  printf ("salted calls ran: %d\n", sum);
  fflush (stdout);
  const char *how = argc > 1 ? argv[1] : "";
  if (!strcmp (how, "salted-to-plain"))
    kvm_ptr = (kvm_fn) plain_twice, sum = kvm_ptr (1);
  else if (!strcmp (how, "plain-to-salted"))
    plain_ptr = (plain_fn) salted_twice, sum = plain_ptr (1);
  else if (!strcmp (how, "other-salt"))
    kvm_ptr = (kvm_fn) other_twice, sum = kvm_ptr (1);
  return how[0] ? 2 : 0;
}
