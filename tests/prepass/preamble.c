/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which functions get a preamble (.kcfi_func NAME, ID) and which do not
   (.kcfi_func NAME), and which declarations get .kcfi_extern.  */

extern void ext_taken (void);	/* address taken: .kcfi_extern */
extern int ext_called (int);	/* only called: nothing */
extern void rare_path (int) __attribute__ ((cold));

void pub_fn (int v) { __asm__ volatile ("" : : "r" (v)); }

static void st_taken (int v) { __asm__ volatile ("" : : "r" (v)); }

static __attribute__ ((noinline)) void
st_plain (int v)
{
  __asm__ volatile ("" : : "r" (v));
}

__attribute__ ((nocf_check)) void
nocf_fn (int v)
{
  __asm__ volatile ("" : : "r" (v));
}

__attribute__ ((cold)) void cold_fn (void) { __asm__ volatile (""); }

int renamed (int v) __asm__ ("custom_sym");
int renamed (int v) { return v + 1; }

/* A call to a cold function makes its block cold: -O2 moves it to .cold.  */
void
splitter (int c)
{
  if (c == 7)
    {
      volatile int w = c;
      while (w--)
	ext_called (w * 3);
      rare_path (w);
    }
}

void (*volatile hook) (int) = st_taken;
void (*volatile ext_hook) (void) = ext_taken;
int (*volatile renamed_hook) (int) = renamed;

int
main (void)
{
  hook (1);
  ext_hook ();
  st_plain (2);
  splitter (3);
  return ext_called (renamed_hook (4));
}
