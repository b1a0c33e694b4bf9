/* SPDX-License-Identifier: GPL-2.0-or-later */
/* __builtin_linux_abi_kcfi_name/_hash of salted function types and of
   types in x86 address spaces: the name of a salted function type is the
   string its id hashes, "<mangled>.<salt>", as Clang 22 hashes it; a
   pointer to one is a pointer type, named without the salt.  The hashes
   are what the checks of such calls use: HASH_OF is the id the test
   computes itself (FNV-1a, or xxHash64 with KCFI_XXHASH).  */
#include <stdio.h>
#include <string.h>

#define __cfi_salt(s) __attribute__ ((cfi_salt (s)))
typedef void kvm_fn (int) __cfi_salt ("kvm");
typedef void (*kvm_ptr) (int) __cfi_salt ("kvm");
void __cfi_salt ("kvm") handler (int x) { (void) x; }

static int failed, passed;

static void
expect (const char *what, const char *got, const char *want)
{
  if (strcmp (got, want))
    printf ("FAIL %s: got %s, want %s\n", what, got, want), failed++;
  else
    passed++;
}

static void
expect_hash (const char *what, unsigned got, unsigned want)
{
  if (got != want)
    printf ("FAIL %s: got %08x, want %08x\n", what, got, want), failed++;
  else
    passed++;
}

int
main (int argc, char **argv)
{
  (void) argc;
  expect ("salted function typedef", __builtin_linux_abi_kcfi_name (kvm_fn),
	  "_ZTSFviE.kvm");
  expect ("typeof a salted function", __builtin_linux_abi_kcfi_name (typeof (handler)),
	  "_ZTSFviE.kvm");
  expect ("pointer to a salted function", __builtin_linux_abi_kcfi_name (kvm_ptr),
	  "_ZTSPFviE");
  expect ("unsalted", __builtin_linux_abi_kcfi_name (void (int)), "_ZTSFviE");
  expect ("__seg_gs pointee", __builtin_linux_abi_kcfi_name (const __seg_gs int *),
	  "_ZTSPU5AS256Ki");
  expect ("__seg_fs function", __builtin_linux_abi_kcfi_name (void (__seg_fs char *)),
	  "_ZTSFvPU5AS257cE");
  /* argv[1]: the ids of _ZTSFviE.kvm and _ZTSFviE as the test computed them */
  unsigned salted, plain;
  if (sscanf (argv[1], "%x", &salted) != 1 || sscanf (argv[2], "%x", &plain) != 1)
    return 2;
  expect_hash ("hash of the salted type", __builtin_linux_abi_kcfi_hash (kvm_fn), salted);
  expect_hash ("hash of the unsalted type", __builtin_linux_abi_kcfi_hash (void (int)), plain);
  printf ("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
