/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plugin's own tables: memory that lives as long as the process, a
 * text buffer, and a map from a GCC uid to a pointer.
 *
 * A TU with tens of thousands of prototypes made std::unordered_map and
 * std::string a large part of the plugin's cost: a node and a string per
 * entry, and as much again to free them all at exit, right before the
 * process ends anyway.  These tables are never freed and have no
 * destructors.  Nor does the plugin use anything else from libstdc++:
 * without it, cc1 need not load libstdc++.so for every file it compiles.
 */
#ifndef KCFI_TABLES_H
#define KCFI_TABLES_H

#include <stddef.h>
#include <string.h>

/* SIZE bytes (aligned for a pointer) that are never freed.  */
void *kcfi_permanent (size_t size);

/* A growing text, appended to in place: std::string's out-of-line append
   was a good part of printing tens of thousands of types.  Zero-initialised
   storage is an empty text; the memory is kept for reuse.  */
class kcfi_buffer
{
public:
  void append (const char *s, size_t n)
  {
    if (n >= cap - len)		/* never memcpy to a null buffer */
      grow (n);
    memcpy (buf + len, s, n);
    len += n;
  }
  kcfi_buffer &operator+= (const char *s)
  {
    append (s, strlen (s));
    return *this;
  }
  kcfi_buffer &operator+= (char c)
  {
    append (&c, 1);
    return *this;
  }
  /* N in decimal.  */
  void put_uint (unsigned long long n)
  {
    char digits[24], *p = digits + sizeof digits;
    do
      *--p = '0' + n % 10;
    while (n /= 10);
    append (p, digits + sizeof digits - p);
  }
  /* The text, NUL-terminated (the NUL is not part of it).  */
  const char *c_str ()
  {
    append ("", 1);
    len--;
    return buf;
  }
  const char *data () const { return buf; }
  size_t size () const { return len; }
  void clear () { len = 0; }

private:
  char *buf;
  size_t len, cap;

  void grow (size_t n)
  {
    cap = 2 * (len + n) > 256 ? 2 * (len + n) : 256;
    buf = XRESIZEVEC (char, buf, cap);
  }
};

/* A map from a uid (TYPE_UID, DECL_UID: never reused, unlike the
   addresses of collected trees) to a non-zero V (a pointer, a number),
   in one array of
   key/value slots, at most 3/4 full.  Uids made one after another mostly
   are looked up one after another (the plugin walks functions and their
   types in the order GCC made them): sixteen consecutive uids get
   neighbouring slots, so such a walk reads memory in runs instead of one
   random cache line per entry.  Zero-initialised storage is an empty map.  */
template <typename V>
class kcfi_uid_map
{
public:
  V get (unsigned uid) const
  {
    if (!used)
      return V ();
    for (size_t i = slot (uid);; i = (i + 1) & mask)
      {
	if (slots[i].key == uid + 1)
	  return slots[i].val;
	if (!slots[i].key)
	  return V ();
      }
  }

  void put (unsigned uid, V v)
  {
    if (4 * (used + 1) > 3 * capacity ())
      resize (2 * (used + 1));
    size_t i = slot (uid);
    for (; slots[i].key && slots[i].key != uid + 1; i = (i + 1) & mask)
      ;
    used += !slots[i].key;
    slots[i].key = uid + 1;
    slots[i].val = v;
  }

  /* Ask for the memory get (UID) and put (UID, ...) start at.  */
  void prefetch (unsigned uid) const
  {
    if (slots)
      __builtin_prefetch (&slots[slot (uid)]);
  }

  /* Make room for N entries in all, so that filling it never copies.  */
  void reserve (size_t n)
  {
    if (4 * n > 3 * capacity ())
      resize (n);
  }

private:
  struct entry
  {
    unsigned key;		/* uid + 1; 0: free */
    V val;
  };
  entry *slots;
  size_t mask;			/* capacity - 1 */
  size_t used;

  size_t capacity () const { return slots ? mask + 1 : 0; }

  size_t slot (unsigned uid) const
  {
    return ((size_t) ((uid >> 4) * 0x9e3779b1u) << 4 | (uid & 15)) & mask;
  }

  /* A capacity that holds N entries at most 3/4 full.  */
  void resize (size_t n)
  {
    entry *old = slots;
    size_t old_cap = capacity (), cap = 256;
    while (4 * n > 3 * cap)
      cap *= 2;
    slots = XCNEWVEC (entry, cap);
    mask = cap - 1;
    used = 0;
    for (size_t i = 0; i < old_cap; i++)
      if (old[i].key)
	put (old[i].key - 1, old[i].val);
    free (old);
  }
};

#endif
