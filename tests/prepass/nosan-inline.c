/* SPDX-License-Identifier: GPL-2.0-or-later */
/* no_sanitize("kcfi") belongs to the body a call is written in, and stays
   with the call through inlining.  Two calls are checked, two are not.  */

extern void note (int);

__attribute__ ((noinline)) void
plain_host (void (*cb) (int))
{
  cb (10);			/* checked */
  note (10);
}

__attribute__ ((noinline, no_sanitize ("kcfi"))) void
exempt_host (void (*cb) (int))
{
  cb (20);			/* unchecked */
  note (20);
}

__attribute__ ((always_inline, no_sanitize ("kcfi"))) static inline void
exempt_body (void (*cb) (int))
{
  cb (30);			/* unchecked, also where inlined */
  note (30);
}

__attribute__ ((noinline)) void
plain_host_of_exempt (void (*cb) (int))
{
  exempt_body (cb);
}

__attribute__ ((always_inline)) static inline void
plain_body (void (*cb) (int))
{
  cb (40);			/* checked, also where inlined */
  note (40);
}

__attribute__ ((noinline, no_sanitize ("kcfi"))) void
exempt_host_of_plain (void (*cb) (int))
{
  plain_body (cb);
}

void handler (int v) { note (v); }
static void (*volatile current) (int) = handler;

int
main (void)
{
  void (*cb) (int) = current;
  plain_host (cb);
  exempt_host (cb);
  plain_host_of_exempt (cb);
  exempt_host_of_plain (cb);
  return 0;
}
