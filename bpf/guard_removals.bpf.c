// SPDX-License-Identifier: GPL-2.0
/*
 * Guards of the names that hold the gate up: its pins, and, seen from
 * another mount namespace, every name that a mount sits on.
 *
 * The pins on verigate's bpffs keep the gate's links alive with no process
 * holding an fd, so none may be removed or renamed. Opening a pin is not
 * guarded: that would put a program on inode_permission, which runs for
 * every directory of every path walk. An fd for a pinned link gives
 * nothing. LSM links have neither detach nor update, and the link keeps
 * its program however many fds are closed. A view's iterator link can be
 * updated, but only to a program of the same iterator target, and
 * guard_bpf_prog hands out no fd for one.
 *
 * A mount point: the kernel refuses to remove, rename or rename onto a
 * name that is a mount point in the caller's own mount namespace (EBUSY),
 * but not one that is a mount point only in another. There it removes the
 * name and unmounts what sits on it, in every namespace and asking no LSM
 * (fs/namespace.c's __detach_mounts). From a private namespace that has
 * unmounted its own copies, root could so take /sys away from the initial
 * namespace where the root is writable (a verity /usr), and the anchor on
 * /run, and with them the last mounts of the bpffs: the pins would go,
 * and the gate with them. So outside the initial namespace no name a
 * mount sits on may be removed or renamed; inside it the kernel's own
 * check covers every such name.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "guard.h"
#include "own_objects.h"

/*
 * Whether a name in dir may be a pin: dir is on verigate's bpffs. One
 * chain of loads: unlink, rmdir and rename run for every file any process
 * removes or renames, and a rename never leaves its mount, so one
 * directory tells for both names.
 */
static __always_inline bool on_bpffs(struct inode *dir)
{
	return dir->i_sb->s_dev == bpffs_dev;
}

/* A pinned link, or the directory that holds them (inode on the bpffs). */
static __always_inline bool is_pin(struct inode *inode)
{
	__u64 ino;

	if (!inode)
		return false;
	ino = inode->i_ino;
	return ino == pin_dir_ino || own_object(VG_OWN_PIN, ino);
}

/* Whether a mount sits on the name, in any namespace (d_mountpoint()). */
static __always_inline bool mount_point(struct dentry *dentry)
{
	__u32 mounted = DCACHE_MOUNTED;

	if (bpf_core_enum_value_exists(enum dentry_flags, DCACHE_MOUNTED))
		mounted = bpf_core_enum_value(enum dentry_flags, DCACHE_MOUNTED);
	return dentry->d_flags & mounted;
}

static __always_inline bool mount_point_elsewhere(struct dentry *dentry)
{
	return mount_point(dentry) && !in_initial_mount_ns();
}

/* Removing dentry from dir (unlink, rmdir): pin_op names a pin's refusal. */
static __always_inline int guard_removal(struct inode *dir, struct dentry *dentry, __u32 pin_op)
{
	if (mount_point_elsewhere(dentry))
		return guard_refuse(VG_OP_REMOVE_MOUNTPOINT);
	return on_bpffs(dir) && is_pin(dentry->d_inode) ? guard_refuse(pin_op) : 0;
}

SEC("lsm/inode_unlink")
int BPF_PROG(guard_unlink, struct inode *dir, struct dentry *dentry, int ret)
{
	if (ret || !guarding())
		return ret;
	return guard_removal(dir, dentry, VG_OP_PIN_UNLINK);
}

SEC("lsm/inode_rmdir")
int BPF_PROG(guard_rmdir, struct inode *dir, struct dentry *dentry, int ret)
{
	if (ret || !guarding())
		return ret;
	return guard_removal(dir, dentry, VG_OP_PIN_RMDIR);
}

SEC("lsm/inode_rename")
int BPF_PROG(guard_rename, struct inode *old_dir, struct dentry *old_dentry,
	     struct inode *new_dir, struct dentry *new_dentry, int ret)
{
	if (ret || !guarding())
		return ret;
	if (mount_point_elsewhere(old_dentry) || mount_point_elsewhere(new_dentry))
		return guard_refuse(VG_OP_REMOVE_MOUNTPOINT);
	if (!on_bpffs(old_dir))
		return 0;
	if (is_pin(old_dentry->d_inode) || is_pin(new_dentry->d_inode) || is_pin(new_dir))
		return guard_refuse(VG_OP_PIN_RENAME);
	return 0;
}
