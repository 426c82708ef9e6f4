// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_null - the benchmark's noise floor: a module that loads and
 * unloads like nosec_exec but registers nothing.  Whatever difference the
 * benchmark shows between "no module" and this one is noise.
 */
#include <linux/init.h>
#include <linux/module.h>

static int __init nosec_null_init(void)
{
	return 0;
}

static void __exit nosec_null_exit(void)
{
}

module_init(nosec_null_init);
module_exit(nosec_null_exit);
MODULE_DESCRIPTION("nosec_exec benchmark noise floor: registers nothing");
MODULE_LICENSE("GPL");
