// SPDX-License-Identifier: GPL-2.0
/*
 * Guard of device-mapper: no command that changes the verified root's
 * device (every device's, on 6.1).
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <linux/dm-ioctl.h>

#include "guard.h"

/*
 * Whether the DM ioctl at user address arg names the root, the way the
 * kernel looks a device up: by uuid, name or number. Any one matching is
 * enough; an unreadable argument counts as the root.
 */
static __always_inline bool names_root(unsigned long arg)
{
	struct dm_ioctl *io = (struct dm_ioctl *)arg;
	char name[DM_NAME_LEN], uuid[DM_UUID_LEN];
	__u64 dev;

	if (bpf_probe_read_user(&dev, sizeof(dev), &io->dev) ||
	    bpf_probe_read_user(name, sizeof(name), io->name) ||
	    bpf_probe_read_user(uuid, sizeof(uuid), io->uuid))
		return true;
	name[DM_NAME_LEN - 1] = uuid[DM_UUID_LEN - 1] = '\0';
	return dev == root_dm_dev || (name[0] && !bpf_strncmp(name, sizeof(name), (const char *)root_dm_name)) ||
	       (uuid[0] && root_dm_uuid[0] && !bpf_strncmp(uuid, sizeof(uuid), (const char *)root_dm_uuid));
}

/*
 * device-mapper commands that change a device. On 6.1 they are refused for
 * every device: the ioctl's argument names the device in user memory, which
 * another thread can change after a check, and nothing later in the kernel
 * would catch it. Where verity_trust.bpf.c watches every verity table
 * before it goes live (6.12+), only commands that name the root are
 * refused, so that more verity devices can be set up; a command whose
 * argument is changed to the root after this check still meets that
 * watch, and the worst it can do is leave the root suspended.
 */
static __always_inline int guard_dm_cmd(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (file->f_inode->i_rdev != dm_control_rdev || ((cmd >> 8) & 0xff) != DM_IOCTL)
		return 0;
	switch (cmd & 0xff) {
	case DM_REMOVE_ALL_CMD: /* would mark the root for deferred removal */
		return guard_refuse(VG_OP_DM_IOCTL);
	case DM_DEV_REMOVE_CMD:
	case DM_DEV_RENAME_CMD:
	case DM_DEV_SUSPEND_CMD:
	case DM_TABLE_LOAD_CMD:
	case DM_TABLE_CLEAR_CMD:
	case DM_TARGET_MSG_CMD:
	case DM_DEV_SET_GEOMETRY_CMD:
		if (!verity_trust || names_root(arg))
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
	return guard_dm_cmd(file, cmd, arg);
}

/* 32-bit callers have a hook of their own since 6.8; loaded where it exists. */
SEC("lsm/file_ioctl_compat")
int BPF_PROG(guard_dm_ioctl32, struct file *file, unsigned int cmd, unsigned long arg,
	     int ret)
{
	if (ret || !guarding())
		return ret;
	return guard_dm_cmd(file, cmd, arg);
}
