/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exec gate's rules, given the inode that holds a file's data: the
 * file's own (exec_gate.bpf.c), or on an overlay the layer's that holds the
 * data (exec_gate_layers.bpf.c).
 */
#ifndef VERIGATE_EXEC_RULES_H
#define VERIGATE_EXEC_RULES_H

#include <stdbool.h>
#include <bpf/bpf_helpers.h>

#include "decide.h"

#define PROT_WRITE 0x2
#define PROT_EXEC 0x4
#define MAP_TYPE 0x0f
#define MAP_PRIVATE 0x02

/*
 * For each load of a pointer from a kernel struct the verifier looks up, by
 * name in the kernel's BTF, whether the pointer is trusted or RCU-protected:
 * milliseconds a load on 6.12 under TCG, where the search is linear. So the
 * helpers below take the inode and super block their caller already loaded.
 */
static __always_inline bool sb_trusted(struct super_block *sb)
{
	struct vg_verity_device *verity;
	__u64 bdev;

	if (sb->s_dev == trusted_dev)
		return true;
	if (sb->s_dev == initramfs_dev && !initramfs_sealed)
		return true;
	if (!verity_trust)
		return false;
	bdev = (__u64)sb->s_bdev;
	verity = bdev ? bpf_map_lookup_elem(&verity_devices, &bdev) : NULL;
	return verity && verity_device_trusted(verity);
}

/* inode == NULL stands for anonymous memory. */
static __always_inline int decide(enum vg_hook hook, bool allowed, struct inode *inode,
				  struct super_block *sb)
{
	__u32 dev = 0;
	__u64 ino = 0;

	if (allowed)
		return allow(hook);
	if (inode) {
		dev = sb->s_dev;
		ino = inode->i_ino;
	}
	vg_note_refusal(hook, VG_OP_NONE, dev, ino);
	return refuse(hook);
}

/* An exec of the file whose data inode holds; PID 1's first exec from the
 * verified tree ends the initramfs' trust. */
static __always_inline int exec_rule(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;

	if (sb->s_dev == trusted_dev && current_pid() == 1)
		initramfs_sealed = true;
	return decide(VG_HOOK_EXEC, sb_trusted(sb), inode, sb);
}

/* execveat(AT_EXECVE_CHECK): the answer of a real exec, without its side
 * effect on the initramfs' trust. */
static __always_inline int exec_check_rule(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;

	return decide(VG_HOOK_EXEC_CHECK, sb_trusted(sb), inode, sb);
}

/*
 * A writable private mapping of a trusted file can be filled with any code,
 * so once such memory is executable it is anonymous code, not the file's:
 * mapped writable and executable, made so by mprotect (before or after a
 * write), or made executable after a page was written.
 */
static __always_inline int mmap_rule(struct inode *inode, unsigned long prot,
				     unsigned long flags)
{
	struct super_block *sb = inode->i_sb;
	bool allowed = sb_trusted(sb);

	if (allowed && (prot & PROT_WRITE) && (flags & MAP_TYPE) == MAP_PRIVATE)
		allowed = !deny_anon_exec;
	return decide(VG_HOOK_MMAP, allowed, inode, sb);
}

#endif
