// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - /dev/nosec_exec and its ioctl, execve_nosecurity().
 *
 * The ioctl validates its argument and arms the task's next execveat()
 * (exec_arm.c): the syscall that entered the ioctl leaves it as a real
 * execveat() syscall, which runs as a nosecurity exec.  On success the new
 * program starts; on failure the ioctl returns execveat's error and the
 * task is as it was.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/compat.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/cred.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include <uapi/linux/nosec_exec.h>

#include "task.h"
#include "exec.h"
#include "main.h"
#include "device.h"

static long nosec_ioctl_execveat(void __user *uargs)
{
	struct nosec_execveat_args args;

	/* Checked at open, and again for an fd passed on or kept. */
	if (!nosec_exec_permitted())
		return -EACCES;
	if (copy_from_user(&args, uargs, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NOSEC_EXEC_FLAGS_ALL)
		return -EINVAL;
	/* PR_RESTRICT_EXEC_NOSECURITY: the armed execveat would be denied. */
	if (nosec_task_flags(current) & NOSEC_TASK_RESTRICT_NOSEC)
		return nosec_exec_refused();
	if (in_compat_syscall() &&
	    (args.pathname >> 32 || args.argv >> 32 || args.envp >> 32))
		return -EFAULT;

	return nosec_exec_arm(&args);
}

/*
 * Who may perform a nosecurity exec: everyone by default (the device is
 * 0666; it cannot raise privileges), or, with exec_group=GID, the members
 * of that group only (one line in /etc/modprobe.d).  Set at load only.
 */
static kgid_t nosec_exec_gid = INVALID_GID;	/* invalid: everyone */

/* exec_group=-1 or a group ID, 0 to 4294967294; anything else refuses the load. */
static int nosec_exec_group_set(const char *val, const struct kernel_param *kp)
{
	u32 gid;

	if (sysfs_streq(val, "-1")) {
		nosec_exec_gid = INVALID_GID;
		return 0;
	}
	if (kstrtou32(val, 10, &gid) ||
	    !gid_valid(make_kgid(&init_user_ns, gid))) {
		pr_err("exec_group=%s: not a group ID (0 to 4294967294) or -1 (everyone)\n",
		       val);
		return -EINVAL;
	}
	nosec_exec_gid = make_kgid(&init_user_ns, gid);
	return 0;
}

static int nosec_exec_group_get(char *buf, const struct kernel_param *kp)
{
	if (!gid_valid(nosec_exec_gid))
		return sysfs_emit(buf, "-1\n");
	return sysfs_emit(buf, "%u\n", from_kgid(&init_user_ns, nosec_exec_gid));
}

static const struct kernel_param_ops nosec_exec_group_ops = {
	.set = nosec_exec_group_set,
	.get = nosec_exec_group_get,
};

module_param_cb(exec_group, &nosec_exec_group_ops, NULL, 0444);
MODULE_PARM_DESC(exec_group,
		 "only members of this group (0 to 4294967294) may perform nosecurity execs (-1: everyone)");

/**
 * nosec_exec_permitted() - may the current task perform nosecurity execs?
 *
 * Return: true for everyone, or, with exec_group set, for its members.
 * Checked when the device is opened, at each ioctl, and when force mode
 * is turned on.
 */
bool nosec_exec_permitted(void)
{
	return !gid_valid(nosec_exec_gid) || in_group_p(nosec_exec_gid);
}

static int nosec_dev_open(struct inode *inode, struct file *file)
{
	/* Loading: nothing may be armed before every hook is live. */
	if (!nosec_is_live())
		return -ENODEV;
	return nosec_exec_permitted() ? 0 : -EACCES;
}

static long nosec_dev_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	switch (cmd) {
	case NOSEC_IOC_EXECVEAT:
		return nosec_ioctl_execveat((void __user *)arg);
	}
	return -ENOTTY;
}

#ifdef CONFIG_COMPAT
static long nosec_dev_compat_ioctl(struct file *file, unsigned int cmd,
				   unsigned long arg)
{
	return nosec_dev_ioctl(file, cmd, (unsigned long)compat_ptr(arg));
}
#endif

static const struct file_operations nosec_dev_fops = {
	.owner = THIS_MODULE,
	.open = nosec_dev_open,
	.unlocked_ioctl = nosec_dev_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl = nosec_dev_compat_ioctl,
#endif
	.llseek = noop_llseek,
};

static struct miscdevice nosec_miscdev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = NOSEC_EXEC_DEVICE_NAME,
	.fops = &nosec_dev_fops,
	/* Cannot raise privileges: everyone may use it. */
	.mode = 0666,
};

/**
 * nosec_device_register() - create /dev/nosec_exec
 *
 * Return: 0 or the misc_register() error.
 */
int nosec_device_register(void)
{
	BUILD_BUG_ON(sizeof(struct nosec_execveat_args) != 32);
	BUILD_BUG_ON(NOSEC_EXEC_EMPTY_PATH != AT_EMPTY_PATH);
	BUILD_BUG_ON(NOSEC_EXEC_SYMLINK_NOFOLLOW != AT_SYMLINK_NOFOLLOW);
	return misc_register(&nosec_miscdev);
}

/**
 * nosec_device_unregister() - remove /dev/nosec_exec
 */
void nosec_device_unregister(void)
{
	misc_deregister(&nosec_miscdev);
}
