/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two pointer types, three calls inlined into one function: the two calls
   of the second type may share a check, the first must keep its own.  */

struct node { int id; };
struct item { int id; };
struct blob { int id; };

struct visibility
{
  const char *label;
  int (*item_visible) (struct node *, struct item *, int);
  int (*blob_visible) (struct node *, const struct blob *, int);
  int (*blob_visible_too) (struct node *, const struct blob *, int);
  struct item **items;
  const struct blob **blobs;
};

static int
first_visible (const struct visibility *v, struct node *n)
{
  if (v->items && v->items[0] && v->item_visible)
    return v->item_visible (n, v->items[0], 0);
  if (v->blobs && v->blobs[0] && v->blob_visible)
    return v->blob_visible (n, v->blobs[0], 0);
  if (v->blobs && v->blobs[0] && v->blob_visible_too)
    return v->blob_visible_too (n, v->blobs[0], 0);
  return 0;
}

int
any_visible (struct node *n, const struct visibility *v)
{
  return first_visible (v, n);
}
