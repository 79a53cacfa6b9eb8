// SPDX-License-Identifier: GPL-2.0
/*
 * verigate guards: once the real init runs, nobody (PID 1 included) may
 * reach verigate's BPF objects, remove its pins, unmount or hide the bpffs
 * that holds them, load code that could override its verdicts, load kernel
 * code from outside the verified root, write kernel memory, trace PID 1 or
 * reconfigure device-mapper, or switch off the ftrace patching that runs
 * every BPF LSM program. Each check is a compare or a hash lookup, but
 * that of a lazy unmount, which looks at each mount it takes.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/dm-ioctl.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "decide.h"
#include "hook_args.h"
#include "own_objects.h"

#define MAY_EXEC 0x1
#define MAY_WRITE 0x2
#define MAY_READ 0x4
#define MAY_APPEND 0x8
#define MAY_OPEN 0x20
#define MNT_DETACH 0x2
#define MS_MOVE 8192
#define MNT_SHARED 0x1000 /* include/linux/mount.h, until 6.16 */
#define T_SHARED 1 /* fs/mount.h, since 6.17 */
#define MS_REMOUNT 32
#define MS_SLAVE 0x80000
#define MS_PROPAGATION (0x100000 | 0x40000 | 0x80000 | 0x20000) /* SHARED, PRIVATE, SLAVE, UNBINDABLE */
#define PROC_SUPER_MAGIC 0x9fa0
#define FMODE_WRITE 0x2

enum kernel_load_data_id { LOADING_UNKNOWN };
enum lockdown_reason {
	LOCKDOWN_NONE,
	LOCKDOWN_INTEGRITY_MAX,
	LOCKDOWN_KCORE,
	LOCKDOWN_DBG_READ_KERNEL,
	LOCKDOWN_PERF,
	LOCKDOWN_XFRM_SECRET,
};

/* Guards are off until the initramfs is done with: it set them up. */
static __always_inline bool guarding(void)
{
	return initramfs_sealed;
}

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

static __always_inline bool in_initial_mount_ns(void)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return task->nsproxy->mnt_ns->ns.inum == init_mnt_ns;
}

static __always_inline int guard_bpf_cmd(int cmd, union bpf_attr *attr)
{
	switch (cmd) {
	case BPF_PROG_GET_FD_BY_ID:
		return own_object(VG_OWN_PROG, attr->prog_id) ? guard_refuse(VG_OP_PROG_GET_FD) : 0;
	case BPF_MAP_GET_FD_BY_ID:
		return own_object(VG_OWN_MAP, attr->map_id) ? guard_refuse(VG_OP_MAP_GET_FD) : 0;
	case BPF_LINK_GET_FD_BY_ID:
		return own_object(VG_OWN_LINK, attr->link_id) ? guard_refuse(VG_OP_LINK_GET_FD) : 0;
	case BPF_PROG_LOAD:
		/* Programs that can change what an LSM hook returns. */
		if (attr->prog_type == BPF_PROG_TYPE_LSM)
			return guard_refuse(VG_OP_LOAD_LSM);
		if (attr->prog_type == BPF_PROG_TYPE_EXT)
			return guard_refuse(VG_OP_LOAD_FREPLACE);
		if (attr->prog_type == BPF_PROG_TYPE_TRACING &&
		    attr->expected_attach_type == BPF_MODIFY_RETURN)
			return guard_refuse(VG_OP_LOAD_FMOD_RET);
		if (attr->prog_type == BPF_PROG_TYPE_KPROBE && kprobe_override)
			return guard_refuse(VG_OP_LOAD_KPROBE);
		return 0;
	}
	return 0;
}

/* The bpf hook until 6.15; the loader picks one of the two by BTF. */
SEC("lsm/bpf")
int BPF_PROG(guard_bpf, int cmd, union bpf_attr *attr, unsigned int size, int ret)
{
	if (ret || !guarding())
		return ret;
	return guard_bpf_cmd(cmd, attr);
}

/* Since 6.15 the hook also says whether the kernel itself calls bpf(). */
SEC("lsm/bpf")
int BPF_PROG(guard_bpf_kern, int cmd, union bpf_attr *attr, unsigned int size, bool kernel,
	     int ret)
{
	if (ret || !guarding())
		return ret;
	return guard_bpf_cmd(cmd, attr);
}

/* An fd for one of verigate's maps or programs, however it was obtained. */
SEC("lsm/bpf_map")
int BPF_PROG(guard_bpf_map, struct bpf_map *map, unsigned int fmode, int ret)
{
	if (ret || !guarding())
		return ret;
	return own_object(VG_OWN_MAP, map->id) ? guard_refuse(VG_OP_MAP_FD) : 0;
}

SEC("lsm/bpf_prog")
int BPF_PROG(guard_bpf_prog, struct bpf_prog *prog, int ret)
{
	if (ret || !guarding())
		return ret;
	return own_object(VG_OWN_PROG, prog->aux->id) ? guard_refuse(VG_OP_PROG_FD) : 0;
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

/* Whether a dentry's name is name (at most 15 characters). */
static __always_inline bool dentry_named(struct dentry *d, const char *name, __u32 len)
{
	char buf[16];

	if (bpf_probe_read_kernel_str(buf, sizeof(buf), BPF_CORE_READ(d, d_name.name)) != len + 1)
		return false;
	return !bpf_strncmp(buf, len + 1, name);
}

/*
 * kernel.ftrace_enabled=0 turns every ftrace-patched call site back into a
 * no-op, and with them the trampolines that run every BPF LSM program:
 * the gate would stay pinned and never run. Writing it is refused through
 * any procfs mount, from the moment the gate is loaded (the loader refuses
 * to load with it off: a value set on the kernel command line).
 */
SEC("lsm/file_open")
int BPF_PROG(guard_ftrace_switch, struct file *file, int ret)
{
	struct dentry *d;

	if (ret || !(file->f_mode & FMODE_WRITE) ||
	    file->f_inode->i_sb->s_magic != PROC_SUPER_MAGIC)
		return ret;
	d = file->f_path.dentry;
	if (dentry_named(d, "ftrace_enabled", 14) && dentry_named(d->d_parent, "kernel", 6))
		return guard_refuse(VG_OP_FTRACE_SWITCH);
	return 0;
}

/* Modules, kexec images, firmware and policies read from a file. */
SEC("lsm/kernel_read_file")
int BPF_PROG(guard_kernel_read_file, struct file *file, int id, bool contents, int ret)
{
	if (ret || !guarding())
		return ret;
	if (file->f_inode->i_sb->s_dev != trusted_dev)
		return guard_refuse(VG_OP_KERNEL_READ_FILE);
	return 0;
}

/* init_module, kexec_load and other loads from a buffer: no file to trust. */
SEC("lsm/kernel_load_data")
int BPF_PROG(guard_kernel_load_data, enum kernel_load_data_id id, bool contents, int ret)
{
	if (ret || !guarding())
		return ret;
	return guard_refuse(VG_OP_KERNEL_LOAD_DATA);
}

/* A lockdown reason this kernel knows, by name (values shift between kernels). */
#define lockdown_is(what, reason)                                              \
	(bpf_core_enum_value_exists(enum lockdown_reason, reason) &&          \
	 (what) == bpf_core_enum_value(enum lockdown_reason, reason))

/*
 * The integrity half of kernel lockdown: /dev/mem, /dev/port, ioperm/iopl,
 * MSRs, hibernation, kexec, unsigned modules, bpf_probe_write_user, debugfs
 * and more; and, of the confidentiality half, the raw reads of kernel memory
 * (/proc/kcore, kgdb, perf raw samples, xfrm secrets). bpf_probe_read_kernel
 * and tracefs stay, so tracing keeps working.
 */
SEC("lsm/locked_down")
int BPF_PROG(guard_lockdown, enum lockdown_reason what, int ret)
{
	if (ret || !guarding() || what == LOCKDOWN_NONE)
		return ret;
	if (what < bpf_core_enum_value(enum lockdown_reason, LOCKDOWN_INTEGRITY_MAX) ||
	    lockdown_is(what, LOCKDOWN_KCORE) || lockdown_is(what, LOCKDOWN_DBG_READ_KERNEL) ||
	    lockdown_is(what, LOCKDOWN_PERF) || lockdown_is(what, LOCKDOWN_XFRM_SECRET))
		return guard_refuse(VG_OP_LOCKDOWN);
	return 0;
}

/* Attaching to PID 1, or writing or reading its memory (/proc/1/mem,
 * process_vm_*); the read-only looks at /proc/1 stay allowed. */
SEC("lsm/ptrace_access_check")
int BPF_PROG(guard_ptrace_init, struct task_struct *child, unsigned int mode, int ret)
{
	if (ret || !guarding())
		return ret;
	if ((mode & PTRACE_MODE_ATTACH) && child->tgid == 1 && current_pid() != 1)
		return guard_refuse(VG_OP_PTRACE_PID1);
	return 0;
}

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
