// SPDX-License-Identifier: GPL-2.0
/*
 * Guards of the pins on verigate's bpffs: they keep the gate's links alive
 * with no process holding an fd, so none may be removed or renamed.
 *
 * Opening a pin is not guarded: that would put a program on
 * inode_permission, which runs for every directory of every path walk. An
 * fd for a pinned link gives nothing. LSM links have neither detach nor
 * update, and the link keeps its program however many fds are closed. A
 * view's iterator link can be updated, but only to a program of the same
 * iterator target, and guard_bpf_prog hands out no fd for one.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "guard.h"
#include "own_objects.h"

/*
 * Whether a name in dir may be a pin: dir is on verigate's bpffs. Checked
 * first, with one chain of loads: unlink, rmdir and rename run for every
 * file any process removes or renames, and a rename never leaves its
 * mount, so one directory tells for both names.
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

SEC("lsm/inode_unlink")
int BPF_PROG(guard_pin_unlink, struct inode *dir, struct dentry *dentry, int ret)
{
	if (ret || !on_bpffs(dir) || !guarding())
		return ret;
	return is_pin(dentry->d_inode) ? guard_refuse(VG_OP_PIN_UNLINK) : 0;
}

SEC("lsm/inode_rmdir")
int BPF_PROG(guard_pin_rmdir, struct inode *dir, struct dentry *dentry, int ret)
{
	if (ret || !on_bpffs(dir) || !guarding())
		return ret;
	return is_pin(dentry->d_inode) ? guard_refuse(VG_OP_PIN_RMDIR) : 0;
}

SEC("lsm/inode_rename")
int BPF_PROG(guard_pin_rename, struct inode *old_dir, struct dentry *old_dentry,
	     struct inode *new_dir, struct dentry *new_dentry, int ret)
{
	if (ret || !on_bpffs(old_dir) || !guarding())
		return ret;
	if (is_pin(old_dentry->d_inode) || is_pin(new_dentry->d_inode) || is_pin(new_dir))
		return guard_refuse(VG_OP_PIN_RENAME);
	return 0;
}
