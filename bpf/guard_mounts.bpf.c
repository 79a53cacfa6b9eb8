// SPDX-License-Identifier: GPL-2.0
/*
 * Guards of the mounts that hold the pins: the bpffs on /sys/fs/bpf, the
 * loader's anchor on /run, and /sys and the root above them. No unmount,
 * lazy or propagated from another mount namespace, move or mount over
 * them.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "guard.h"
#include "hook_args.h"

#define MNT_DETACH 0x2
#define MS_MOVE 8192
#define MNT_SHARED 0x1000 /* include/linux/mount.h, until 6.16 */
#define T_SHARED 1 /* fs/mount.h, since 6.17 */
#define MS_REMOUNT 32
#define MS_SLAVE 0x80000
#define MS_PROPAGATION (0x100000 | 0x40000 | 0x80000 | 0x20000) /* SHARED, PRIVATE, SLAVE, UNBINDABLE */

/* How many mounts a lazy unmount's tree may hold for the guard to look at
 * each, and how deep; a bigger tree is refused rather than half checked. */
#define UMOUNT_WALK_MAX 1024
#define UMOUNT_DEPTH_MAX 32
/* How many steps a walk of a propagation tree may take, a mount visited or
 * a level climbed back up each (a bigger tree counts as reaching the
 * initial namespace). */
#define PROPAGATION_WALK_MAX 512

/* The struct mount around a vfsmount (fs/mount.h's real_mount). */
static __always_inline struct mount *real_mount(unsigned long vfsmount)
{
	return (struct mount *)(vfsmount - bpf_core_field_offset(struct mount, mnt));
}

/* Whether a mount is shared: what happens under it happens under its peers
 * and slaves too, in every mount namespace they are in. */
static __always_inline bool mount_shared(struct mount *m)
{
	if (bpf_core_field_exists(struct mount___t_flags, mnt_t_flags))
		return BPF_CORE_READ((struct mount___t_flags *)m, mnt_t_flags) & T_SHARED;
	return BPF_CORE_READ(m, mnt.mnt_flags) & MNT_SHARED;
}

static __always_inline bool in_initial_ns(struct mount *m)
{
	return BPF_CORE_READ(m, mnt_ns, ns.inum) == init_mnt_ns;
}

/* The slave after the node whose pointer to it is at addr (m's slave list,
 * or a slave's place in its master's), or NULL past master's last. Up to
 * 6.16 the list is a ring that ends at the master's own head, since then
 * an hlist that ends in NULL; the next pointer comes first either way. */
static __always_inline struct mount *slave_after(unsigned long addr, struct mount *master)
{
	unsigned long list_off = bpf_core_field_offset(struct mount, mnt_slave_list);
	unsigned long node = 0;

	bpf_probe_read_kernel(&node, sizeof(node), (void *)addr);
	if (!node || node == (unsigned long)master + list_off)
		return NULL;
	return (struct mount *)(node - bpf_core_field_offset(struct mount, mnt_slave));
}

struct propagation_walk {
	struct mount *origin, *origin_master, *at;
	bool climbing; /* at and everything below it are done */
	bool reaches;
};

/*
 * One step of a walk over every mount that receives what happens under the
 * origin (fs/pnode.c's propagation_next): its peers, their slaves, and the
 * slaves' own peers and slaves, however they came to be (mount(2) with
 * MS_SLAVE, mount_setattr(2), which asks no LSM, or unshare). A step visits
 * a mount, or goes one level back up to a master: no loop in the step, so
 * the verifier checks it once. Stops at the first mount in the initial
 * namespace.
 */
static long propagation_step(__u32 index, struct propagation_walk *w)
{
	unsigned long list_off = bpf_core_field_offset(struct mount, mnt_slave_list);
	struct mount *m = w->at, *master, *next;

	if (!w->climbing) {
		if (in_initial_ns(m)) {
			w->reaches = true;
			return 1;
		}
		next = slave_after((unsigned long)m + list_off, m);
		if (next) {
			w->at = next;
			return 0;
		}
	}
	master = BPF_CORE_READ(m, mnt_master);
	if (master == w->origin_master) {
		next = (struct mount *)((unsigned long)BPF_CORE_READ(m, mnt_share.next) -
					bpf_core_field_offset(struct mount, mnt_share));
		w->at = next == w->origin ? NULL : next;
		w->climbing = false;
		return !w->at;
	}
	next = slave_after((unsigned long)m + bpf_core_field_offset(struct mount, mnt_slave), master);
	w->climbing = !next;
	w->at = next ?: master;
	return 0;
}

/*
 * Whether what happens under m also happens in the initial namespace: m is
 * shared, and one of the mounts it propagates to is there. A mount made a
 * slave of an initial one, as systemd's and container runtimes'
 * namespaces are, and shared again among its own copies, is not:
 * propagation runs from master to slave only. An initial mount made a
 * slave of a copy elsewhere is: the walk follows slaves too. A tree larger
 * than the walk counts as reaching it.
 */
static __always_inline bool propagates_to_initial_ns(struct mount *m)
{
	struct propagation_walk w = { .origin = m, .at = m };

	if (!mount_shared(m))
		return false;
	w.origin_master = BPF_CORE_READ(m, mnt_master);
	bpf_loop(PROPAGATION_WALK_MAX, propagation_step, &w, 0);
	return w.reaches || w.at;
}

/*
 * Whether unmounting m can take a mount of the gate's bpffs in the initial
 * namespace with it, and how (VG_OP_NONE: it cannot). m may be one itself
 * (under a lazily unmounted tree: /run holds the loader's anchor). Or the
 * kernel propagates the unmount to the initial namespace: it propagates to
 * the mounts at the same mountpoint under every peer and slave of m's
 * parent, which are copies of that parent, so on the same filesystem and
 * directory. So: m is a copy of the gate's bpffs (of /sys/fs/bpf, or of
 * the anchor on /run), or sits on the directory the bpffs or /sys is
 * mounted on, and its parent propagates to the initial namespace.
 */
static __always_inline __u32 gate_mount_op(struct mount *m)
{
	struct dentry *where = BPF_CORE_READ(m, mnt_mountpoint);
	__u32 dev = BPF_CORE_READ(where, d_sb, s_dev);
	__u64 ino = BPF_CORE_READ(where, d_inode, i_ino);
	bool gate_copy = BPF_CORE_READ(m, mnt.mnt_sb, s_dev) == bpffs_dev;

	if (gate_copy && in_initial_ns(m))
		return VG_OP_UMOUNT_BPFFS;
	if (!gate_copy && !(dev == sysfs_dev && ino == bpffs_mountpoint_ino) &&
	    !(dev == real_root_dev && ino == sys_mountpoint_ino))
		return VG_OP_NONE;
	return propagates_to_initial_ns(BPF_CORE_READ(m, mnt_parent)) ? VG_OP_UMOUNT_PROPAGATED :
									VG_OP_NONE;
}

struct umount_walk {
	struct mount *top, *at;
	__u32 op; /* why it is refused; VG_OP_NONE: it is not */
};

/*
 * One step of a depth-first walk over the mounts a lazy unmount takes
 * (fs/namespace.c's next_mnt): check the mount, then go to its first
 * child, or to the next sibling of it or of the nearest ancestor that has
 * one, never above the top.
 */
static long umount_walk_step(__u32 index, struct umount_walk *w)
{
	unsigned long children_off = bpf_core_field_offset(struct mount, mnt_mounts);
	unsigned long child_off = bpf_core_field_offset(struct mount, mnt_child);
	struct mount *m = w->at, *parent;
	unsigned long next;
	int depth;

	w->op = gate_mount_op(m);
	if (w->op != VG_OP_NONE)
		return 1;
	next = (unsigned long)BPF_CORE_READ(m, mnt_mounts.next);
	if (next != (unsigned long)m + children_off) {
		w->at = (struct mount *)(next - child_off);
		return 0;
	}
	for (depth = 0; depth < UMOUNT_DEPTH_MAX; depth++) {
		if (m == w->top) {
			w->at = NULL;
			return 1;
		}
		parent = BPF_CORE_READ(m, mnt_parent);
		next = (unsigned long)BPF_CORE_READ(m, mnt_child.next);
		if (next != (unsigned long)parent + children_off) {
			w->at = (struct mount *)(next - child_off);
			return 0;
		}
		m = parent;
	}
	w->op = VG_OP_UMOUNT_PROPAGATED; /* deeper than the walk looks */
	return 1;
}

/* Whether unmounting top (with MNT_DETACH: and every mount under it) can
 * take a mount of the gate's bpffs in the initial namespace with it, or
 * its /sys, from any mount namespace; and how (VG_OP_NONE: it cannot). */
static __always_inline __u32 umount_gate_op(struct mount *top, int flags)
{
	struct umount_walk w = { .top = top, .at = top };

	if (!(flags & MNT_DETACH))
		return gate_mount_op(top);
	bpf_loop(UMOUNT_WALK_MAX, umount_walk_step, &w, 0);
	if (w.op == VG_OP_NONE && w.at)
		return VG_OP_UMOUNT_PROPAGATED; /* the tree was larger than the walk */
	return w.op;
}

/*
 * The pins live as long as the bpffs is mounted somewhere. In the initial
 * namespace none of its mounts may be unmounted (/sys/fs/bpf, the loader's
 * anchor on /run), nor lazily a mount above one (/sys, /run, or the root:
 * the verified one, or the writable one under a verity /usr). In any
 * namespace, no unmount may reach them through propagation: a copy of
 * /sys or of the bpffs under a shared parent (unshare(CLONE_NEWNS) keeps
 * the copies peers of the originals).
 */
SEC("lsm/sb_umount")
int BPF_PROG(guard_umount, struct vfsmount *mnt, int flags, int ret)
{
	struct mount *top;
	__u32 dev, op;

	if (ret || !guarding())
		return ret;
	/* A bpffs mount of the initial namespace: umount_gate_op below. */
	if (in_initial_mount_ns()) {
		dev = mnt->mnt_sb->s_dev;
		if ((flags & MNT_DETACH) &&
		    (dev == sysfs_dev || dev == trusted_dev || dev == real_root_dev))
			return guard_refuse(VG_OP_UMOUNT_LAZY_ABOVE_BPFFS);
	}
	top = real_mount(arg_value(ctx, 0));
	op = umount_gate_op(top, flags);
	return op == VG_OP_NONE ? 0 : guard_refuse(op);
}

/*
 * Mounting onto the bpffs hides the pins; moving it lets an unmount of its
 * new parent drop it. The source of a mount(2) MS_MOVE is only a string
 * here, so every MS_MOVE in the initial mount namespace is refused. In
 * another namespace a mount onto a copy of the bpffs that propagates to
 * the initial namespace would land on the original. And the initial /, /sys
 * or bpffs made a slave (of its peers in another namespace) would receive
 * what is unmounted there.
 */
SEC("lsm/sb_mount")
int BPF_PROG(guard_mount, const char *dev_name, const struct path *path,
	     const char *type, unsigned long flags, void *data, int ret)
{
	__u32 dev;

	if (ret || !guarding())
		return ret;
	dev = path->dentry->d_sb->s_dev;
	if (in_initial_mount_ns()) {
		if (flags & MS_MOVE)
			return guard_refuse(VG_OP_MOUNT_MOVE);
		if (dev == bpffs_dev)
			return guard_refuse(VG_OP_MOUNT_OVER_BPFFS);
		if ((flags & MS_SLAVE) &&
		    (dev == sysfs_dev || dev == trusted_dev || dev == real_root_dev))
			return guard_refuse(VG_OP_MAKE_SLAVE);
		return 0;
	}
	if (dev == bpffs_dev && !(flags & (MS_REMOUNT | MS_PROPAGATION)) &&
	    propagates_to_initial_ns(real_mount((unsigned long)BPF_CORE_READ(path, mnt))))
		return guard_refuse(VG_OP_MOUNT_OVER_BPFFS);
	return 0;
}

/*
 * move_mount(2) names its source by fd or path: moving a mount that is
 * attached in the initial namespace is refused like MS_MOVE; attaching a
 * new mount (fsmount, open_tree's clone: not in any namespace yet) is
 * mounting, and stays allowed but onto the bpffs.
 */
SEC("lsm/move_mount")
int BPF_PROG(guard_move_mount, const struct path *from_path, const struct path *to_path,
	     int ret)
{
	if (ret || !guarding() || !in_initial_mount_ns())
		return ret;
	if (from_path->mnt->mnt_sb->s_dev == bpffs_dev ||
	    to_path->dentry->d_sb->s_dev == bpffs_dev)
		return guard_refuse(VG_OP_MOVE_MOUNT_BPFFS);
	if (in_initial_ns(real_mount((unsigned long)BPF_CORE_READ(from_path, mnt))))
		return guard_refuse(VG_OP_MOUNT_MOVE);
	return 0;
}
