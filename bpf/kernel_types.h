/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel fields verigate reads. preserve_access_index makes clang
 * record each access as a CO-RE relocation, which libbpf resolves against the
 * running kernel's BTF at load time: no multi-megabyte vmlinux.h in the tree,
 * and the build never depends on the build host's kernel.
 */
#ifndef VERIGATE_KERNEL_TYPES_H
#define VERIGATE_KERNEL_TYPES_H

#include <linux/types.h>

#define PTRACE_MODE_ATTACH 0x02 /* include/linux/ptrace.h */

struct anon_vma;

struct block_device;

struct super_block {
	__u32 s_dev; /* dev_t, kernel encoding: major << 20 | minor */
	unsigned long s_magic;
	struct block_device *s_bdev;
} __attribute__((preserve_access_index));

struct inode {
	unsigned long i_ino;
	__u32 i_rdev;
	struct super_block *i_sb;
} __attribute__((preserve_access_index));

struct qstr {
	const unsigned char *name;
} __attribute__((preserve_access_index));

/*
 * include/linux/dcache.h: DCACHE_MOUNTED, a bit of d_flags, is a #define
 * for bit 16 in 6.1 and 6.12; by 7.2 it is in an enum dentry_flags, as
 * bit 15. The enum's value here is the old #define's.
 */
enum dentry_flags {
	DCACHE_MOUNTED = 0x10000,
};

struct dentry {
	unsigned int d_flags;
	struct dentry *d_parent;
	struct qstr d_name;
	struct inode *d_inode;
	struct super_block *d_sb;
} __attribute__((preserve_access_index));

struct vfsmount {
	struct super_block *mnt_sb;
	int mnt_flags; /* MNT_SHARED lives here until 6.16 */
} __attribute__((preserve_access_index));

struct list_head {
	struct list_head *next;
} __attribute__((preserve_access_index));

struct mnt_namespace;

/* fs/mount.h: the vfsmount is embedded in it. */
struct mount {
	struct mount *mnt_parent;
	struct dentry *mnt_mountpoint;
	struct vfsmount mnt;
	struct mnt_namespace *mnt_ns;
	struct list_head mnt_mounts; /* the children, linked by their mnt_child */
	struct list_head mnt_child;
	struct list_head mnt_share;  /* the ring of its peers */
	/* Its slaves, and its place among its master's slaves: list_heads up
	 * to 6.16, an hlist_head and hlist_node since. Only their offsets are
	 * used: either way a pointer to the first (next) node comes first. */
	struct list_head mnt_slave_list;
	struct list_head mnt_slave;
	struct mount *mnt_master; /* whose slave it is, or NULL */
} __attribute__((preserve_access_index));

/* Since 6.17 "shared" is T_SHARED (1) in a field of its own. */
struct mount___t_flags {
	int mnt_t_flags;
} __attribute__((preserve_access_index));

struct path {
	struct vfsmount *mnt;
	struct dentry *dentry;
} __attribute__((preserve_access_index));

struct file {
	struct path f_path;
	struct inode *f_inode;
	unsigned int f_mode; /* fmode_t */
} __attribute__((preserve_access_index));

struct linux_binprm {
	struct file *file;
	unsigned int is_check : 1; /* execveat(AT_EXECVE_CHECK), 6.14+ */
} __attribute__((preserve_access_index));

struct vm_area_struct {
	struct file *vm_file;
	struct anon_vma *anon_vma; /* set once a private page was copied on write */
} __attribute__((preserve_access_index));

struct bpf_map {
	__u32 id;
} __attribute__((preserve_access_index));

struct bpf_prog_aux {
	__u32 id;
	__u32 attach_btf_id;
} __attribute__((preserve_access_index));

struct bpf_prog {
	__u16 kprobe_override : 1; /* set by the verifier for bpf_override_return */
	enum bpf_attach_type expected_attach_type;
	struct bpf_prog_aux *aux;
} __attribute__((preserve_access_index));

struct ns_common {
	unsigned int inum;
} __attribute__((preserve_access_index));

struct mnt_namespace {
	struct ns_common ns;
} __attribute__((preserve_access_index));

struct nsproxy {
	struct mnt_namespace *mnt_ns;
} __attribute__((preserve_access_index));

struct task_struct {
	int tgid;
	struct nsproxy *nsproxy;
} __attribute__((preserve_access_index));

/*
 * From a dm device's block_device to its verity target. The device-mapper
 * types are found in the BTF of the dm_mod and dm_verity modules, which are
 * loaded whenever the root is a verity device.
 */
struct gendisk {
	void *private_data; /* struct mapped_device */
} __attribute__((preserve_access_index));

struct block_device {
	__u32 bd_dev;
	struct gendisk *bd_disk;
} __attribute__((preserve_access_index));

struct mapped_device {
	void *map; /* struct dm_table, the live table */
} __attribute__((preserve_access_index));

struct target_type {
	const char *name;
} __attribute__((preserve_access_index));

struct dm_target {
	struct target_type *type;
	void *private; /* struct dm_verity for a verity target */
} __attribute__((preserve_access_index));

struct dm_table {
	unsigned int num_targets;
	struct dm_target *targets;
} __attribute__((preserve_access_index));

enum verity_mode {
	DM_VERITY_MODE_LOGGING, /* ignore_corruption: a mismatch is only logged */
};

struct dm_verity {
	__u8 *root_digest;
	unsigned int digest_size;
	enum verity_mode mode;            /* what a hash mismatch does */
	unsigned long *validated_blocks;  /* set by check_at_most_once */
} __attribute__((preserve_access_index));

#endif
