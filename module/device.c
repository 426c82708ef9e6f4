// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - /dev/nosec_exec and its ioctl, execve_nosecurity().
 *
 * The ioctl marks the task as being inside a nosecurity exec and runs the
 * kernel's own execveat() syscall function on the arguments it was given,
 * so every step and every error of a real exec applies.  On success the
 * new program starts when the ioctl returns; on failure the mark is
 * removed and the task is as it was.
 */
#include <linux/build_bug.h>
#include <linux/compat.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <uapi/linux/nosec_exec.h>

#include "nosec.h"

typedef long (*nosec_syscall_fn)(const struct pt_regs *regs);

static long nosec_call_execveat(const struct nosec_execveat_args *args)
{
	struct pt_regs regs = {};
	nosec_syscall_fn execveat;

	if (in_compat_syscall()) {
		/* The i386 syscall convention, 32-bit pointers. */
		regs.bx = args->dirfd;
		regs.cx = args->pathname;
		regs.dx = args->argv;
		regs.si = args->envp;
		regs.di = args->flags;
		execveat = (nosec_syscall_fn)
			nosec_hook_original(NOSEC_HOOK_COMPAT_SYS_EXECVEAT);
	} else {
		regs.di = args->dirfd;
		regs.si = args->pathname;
		regs.dx = args->argv;
		regs.r10 = args->envp;
		regs.r8 = args->flags;
		execveat = (nosec_syscall_fn)
			nosec_hook_original(NOSEC_HOOK_SYS_EXECVEAT);
	}
	return execveat(&regs);
}

static long nosec_ioctl_execveat(void __user *uargs)
{
	struct nosec_execveat_args args;
	long ret;

	if (copy_from_user(&args, uargs, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~NOSEC_EXEC_FLAGS_ALL)
		return -EINVAL;
	if (in_compat_syscall() &&
	    (args.pathname >> 32 || args.argv >> 32 || args.envp >> 32))
		return -EFAULT;

	ret = nosec_task_set_flags(NOSEC_TASK_IOCTL_EXEC);
	if (ret)
		return ret;
	ret = nosec_call_execveat(&args);
	nosec_task_clear_flags(NOSEC_TASK_IOCTL_EXEC | NOSEC_TASK_CREDS_KEPT);
	return ret;
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
