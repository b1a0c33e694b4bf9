// SPDX-License-Identifier: GPL-2.0-or-later
/* The module bench/runtime.sh's guest loads and unloads N times: the cost of
 * loading (relocation, symbol resolution, sysfs, the init call through a
 * pointer) and unloading a module, with almost nothing of its own. */
#include <linux/module.h>
#include <linux/init.h>

static int __init kcfi_bench_init(void)
{
	return 0;
}

static void __exit kcfi_bench_exit(void)
{
}

module_init(kcfi_bench_init);
module_exit(kcfi_bench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kcfi-as run-time bench: an empty module to load and unload");
