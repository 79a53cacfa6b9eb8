// SPDX-License-Identifier: GPL-2.0
/*
 * Guard of device-mapper before 6.12: no command that changes a device.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <linux/dm-ioctl.h>

#include "guard.h"

/*
 * device-mapper commands that change a device, refused for every device:
 * the ioctl's argument names the device in user memory, which another
 * thread can change after a check, and on 6.1 nothing later in the kernel
 * would catch it. Loaded only where the kernel has no bdev_setintegrity
 * hook: from 6.12 on, verity_trust.bpf.c refuses any new table on the
 * root before it goes live, and what is left to these commands (suspend,
 * rename, remove, an "error" table) can stop the machine, which root can
 * anyway, but not run unverified code.
 */
static __always_inline int guard_dm_cmd(struct file *file, unsigned int cmd)
{
	if (file->f_inode->i_rdev != dm_control_rdev || ((cmd >> 8) & 0xff) != DM_IOCTL)
		return 0;
	switch (cmd & 0xff) {
	case DM_REMOVE_ALL_CMD: /* would mark the root for deferred removal */
	case DM_DEV_REMOVE_CMD:
	case DM_DEV_RENAME_CMD:
	case DM_DEV_SUSPEND_CMD:
	case DM_TABLE_LOAD_CMD:
	case DM_TABLE_CLEAR_CMD:
	case DM_TARGET_MSG_CMD:
	case DM_DEV_SET_GEOMETRY_CMD:
		return guard_refuse(VG_OP_DM_IOCTL);
	}
	return 0;
}

SEC("lsm/file_ioctl")
int BPF_PROG(guard_dm_ioctl, struct file *file, unsigned int cmd, unsigned long arg,
	     int ret)
{
	if (ret || !guarding())
		return ret;
	return guard_dm_cmd(file, cmd);
}

/* 32-bit callers have a hook of their own since 6.8; loaded where it exists. */
SEC("lsm/file_ioctl_compat")
int BPF_PROG(guard_dm_ioctl32, struct file *file, unsigned int cmd, unsigned long arg,
	     int ret)
{
	if (ret || !guarding())
		return ret;
	return guard_dm_cmd(file, cmd);
}
