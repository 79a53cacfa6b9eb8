// SPDX-License-Identifier: GPL-2.0
/*
 * Guards of the pins on verigate's bpffs: they keep the gate's links alive
 * with no process holding an fd, so none may be opened for an fd (the
 * views only for reading), removed or renamed.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "guard.h"
#include "own_objects.h"

#define MAY_EXEC 0x1
#define MAY_WRITE 0x2
#define MAY_APPEND 0x8
#define MAY_OPEN 0x20

/* The inode's number if it is on verigate's bpffs, else 0 (each field is
 * loaded once: see exec_gate.bpf.c on what a load costs the verifier). */
static __always_inline __u64 bpffs_ino(struct inode *inode)
{
	return inode && inode->i_sb->s_dev == bpffs_dev ? inode->i_ino : 0;
}

/* The value for an inode on verigate's bpffs that is one of its pins. */
static __always_inline __u32 *own_pin(struct inode *inode)
{
	return own_object(VG_OWN_PIN, bpffs_ino(inode));
}

/* A pinned link, or the directory that holds them. */
static __always_inline bool is_pin(struct inode *inode)
{
	__u64 ino = bpffs_ino(inode);

	return ino && (ino == pin_dir_ino || own_object(VG_OWN_PIN, ino) != NULL);
}

/*
 * BPF_OBJ_GET of a pin checks the pin inode's permission, without MAY_OPEN;
 * open(2) asks with MAY_OPEN. A view may be opened for reading, which runs
 * its iterator and yields text; a link fd for it (which could swap the
 * iterator's program) is refused like every other.
 */
SEC("lsm/inode_permission")
int BPF_PROG(guard_pin_open, struct inode *inode, int mask, int ret)
{
	__u32 *pin;

	if (ret || !guarding())
		return ret;
	pin = own_pin(inode);
	if (!pin)
		return 0;
	if ((*pin & VG_OWN_VIEW) && (mask & MAY_OPEN) &&
	    !(mask & (MAY_WRITE | MAY_APPEND | MAY_EXEC)))
		return 0;
	return guard_refuse(VG_OP_PIN_OPEN);
}

SEC("lsm/inode_unlink")
int BPF_PROG(guard_pin_unlink, struct inode *dir, struct dentry *dentry, int ret)
{
	if (ret || !guarding())
		return ret;
	return is_pin(dentry->d_inode) ? guard_refuse(VG_OP_PIN_UNLINK) : 0;
}

SEC("lsm/inode_rmdir")
int BPF_PROG(guard_pin_rmdir, struct inode *dir, struct dentry *dentry, int ret)
{
	if (ret || !guarding())
		return ret;
	return is_pin(dentry->d_inode) ? guard_refuse(VG_OP_PIN_RMDIR) : 0;
}

SEC("lsm/inode_rename")
int BPF_PROG(guard_pin_rename, struct inode *old_dir, struct dentry *old_dentry,
	     struct inode *new_dir, struct dentry *new_dentry, int ret)
{
	if (ret || !guarding())
		return ret;
	if (is_pin(old_dentry->d_inode) || is_pin(new_dentry->d_inode) ||
	    is_pin(new_dir))
		return guard_refuse(VG_OP_PIN_RENAME);
	return 0;
}
