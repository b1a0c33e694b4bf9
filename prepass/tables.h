/* The plugin's own tables: memory that lives as long as the process, a
 * text buffer, and a map from a GCC uid to a pointer.
 *
 * A TU with tens of thousands of prototypes made std::unordered_map and
 * std::string a large part of the plugin's cost: a node and a string per
 * entry, and as much again to free them all at exit, right before the
 * process ends anyway.  These tables are never freed and have no
 * destructors.
 */
#ifndef KCFI_TABLES_H
#define KCFI_TABLES_H

#include <stddef.h>
#include <string.h>
#include <string>

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
  kcfi_buffer &operator+= (const std::string &s)
  {
    append (s.data (), s.size ());
    return *this;
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
   addresses of collected trees) to a non-null V *.  Zero-initialised
   storage is an empty map.  */
template <typename V>
class kcfi_uid_map
{
public:
  V *get (unsigned uid) const
  {
    if (!used)
      return NULL;
    for (size_t i = slot (uid);; i = (i + 1) & mask)
      {
	if (keys[i] == uid + 1)
	  return vals[i];
	if (!keys[i])
	  return NULL;
      }
  }

  void put (unsigned uid, V *v)
  {
    if (2 * (used + 1) > mask + 1)
      grow ();
    size_t i = slot (uid);
    for (; keys[i] && keys[i] != uid + 1; i = (i + 1) & mask)
      ;
    used += !keys[i];
    keys[i] = uid + 1;
    vals[i] = v;
  }

private:
  unsigned *keys;		/* uid + 1; 0: free */
  V **vals;
  size_t mask;			/* capacity - 1 */
  size_t used;

  size_t slot (unsigned uid) const
  {
    return (uid * 0x9e3779b1u) & mask;
  }

  void grow ()
  {
    unsigned *old_keys = keys;
    V **old_vals = vals;
    size_t old_cap = keys ? mask + 1 : 0;
    mask = old_cap ? 2 * old_cap - 1 : 255;
    keys = XCNEWVEC (unsigned, mask + 1);
    vals = XNEWVEC (V *, mask + 1);
    used = 0;
    for (size_t i = 0; i < old_cap; i++)
      if (old_keys[i])
	put (old_keys[i] - 1, old_vals[i]);
    free (old_keys);
    free (old_vals);
  }
};

#endif
