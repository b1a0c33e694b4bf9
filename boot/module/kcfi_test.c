// SPDX-License-Identifier: GPL-2.0-only
/*
 * The boot profile's test module: indirect calls across the module boundary,
 * both ways, each through a KCFI check.
 *
 *  - vmlinux -> module: list_sort() (lib/list_sort.c) calls our comparison
 *    function through its cmp pointer; the module loader calls our init and
 *    delete_module() our exit the same way.
 *  - module -> vmlinux: we call kstrtoint() and strscpy()'s exported function
 *    (sized_strscpy since 6.8, strscpy itself before: 6.1) through pointers
 *    the optimizer cannot see through, so the calls stay indirect and
 *    checked against vmlinux's preambles.
 *
 * Every result is verified; a wrong one fails the load with -EINVAL, which
 * boot/init.c reports.  A type mismatch would oops instead.
 */
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/list.h>
#include <linux/list_sort.h>
#include <linux/module.h>
#include <linux/version.h>
#include <linux/string.h>

struct kcfi_item {
	struct list_head node;
	int key;
};

static int kcfi_test_cmp(void *priv, const struct list_head *a,
			 const struct list_head *b)
{
	unsigned int *calls = priv;

	(*calls)++;
	return list_entry(a, struct kcfi_item, node)->key -
	       list_entry(b, struct kcfi_item, node)->key;
}

static int __init kcfi_test_builtin_calls_module(void)
{
	struct kcfi_item items[] = { { .key = 3 }, { .key = 1 }, { .key = 4 },
				     { .key = 2 } };
	struct kcfi_item *it;
	unsigned int calls = 0;
	int i, prev = 0;
	LIST_HEAD(head);

	for (i = 0; i < ARRAY_SIZE(items); i++)
		list_add_tail(&items[i].node, &head);
	list_sort(&calls, &head, kcfi_test_cmp);
	list_for_each_entry(it, &head, node) {
		if (it->key <= prev)
			return -EINVAL;
		prev = it->key;
	}
	return calls ? 0 : -EINVAL;
}

static int __init kcfi_test_module_calls_builtin(void)
{
	int (*parse)(const char *, unsigned int, int *) = kstrtoint;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
	ssize_t (*copy)(char *, const char *, size_t) = sized_strscpy;
#else
	ssize_t (*copy)(char *, const char *, size_t) = strscpy;
#endif
	char buf[8];
	int value = 0;

	/* Keep the calls indirect: GCC would otherwise call the known target. */
	OPTIMIZER_HIDE_VAR(parse);
	OPTIMIZER_HIDE_VAR(copy);
	if (parse("1234", 10, &value) || value != 1234)
		return -EINVAL;
	if (copy(buf, "kcfi", sizeof(buf)) != 4 || strcmp(buf, "kcfi"))
		return -EINVAL;
	return 0;
}

static int __init kcfi_test_init(void)
{
	int err = kcfi_test_builtin_calls_module();

	if (!err)
		err = kcfi_test_module_calls_builtin();
	pr_info("kcfi_test: calls across the module boundary: %s\n",
		err ? "WRONG" : "ok");
	return err;
}

static void __exit kcfi_test_exit(void)
{
	pr_info("kcfi_test: unloaded\n");
}

module_init(kcfi_test_init);
module_exit(kcfi_test_exit);
MODULE_DESCRIPTION("kcfi-as boot test: indirect calls across the module boundary");
MODULE_LICENSE("GPL");
