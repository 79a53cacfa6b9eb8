// SPDX-License-Identifier: GPL-2.0
/*
 * verigate exec gate: code may only be executed or mapped executable from
 * the dm-verity root the loader verified. Until the real init is executed
 * (the first exec by PID 1 of a file on the trusted device), the initramfs
 * is trusted too, so that the initrd can finish its work. On 6.12+, verity
 * devices that verity_trust.bpf.c found trustworthy are trusted as well.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "decide.h"
#include "hook_args.h"

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

SEC("lsm/bprm_check_security")
int BPF_PROG(verigate_exec, struct linux_binprm *bprm, int ret)
{
	struct inode *inode;
	struct super_block *sb;

	if (ret)
		return ret;
	inode = bprm->file->f_inode;
	sb = inode->i_sb;
	if (sb->s_dev == trusted_dev && current_pid() == 1)
		initramfs_sealed = true;
	return decide(VG_HOOK_EXEC, sb_trusted(sb), inode, sb);
}

/*
 * execveat(fd, "", ..., AT_EMPTY_PATH | AT_EXECVE_CHECK) is how a script
 * interpreter asks whether the kernel would run a file: the exec stops
 * after bprm_creds_for_exec, before bprm_check_security. The answer here
 * is the one a real exec of the same file gets. (The loader attaches this
 * only on kernels that have the flag: 6.14+.)
 */
SEC("lsm/bprm_creds_for_exec")
int BPF_PROG(verigate_exec_check, struct linux_binprm *bprm, int ret)
{
	struct inode *inode;
	struct super_block *sb;

	if (ret || !BPF_CORE_READ_BITFIELD(bprm, is_check))
		return ret;
	inode = bprm->file->f_inode;
	sb = inode->i_sb;
	return decide(VG_HOOK_EXEC_CHECK, sb_trusted(sb), inode, sb);
}

/*
 * A writable private mapping of a trusted file can be filled with any code,
 * so once such memory is executable it is anonymous code, not the file's:
 * mapped writable and executable, made so by mprotect (before or after a
 * write), or made executable after a page was written.
 */
SEC("lsm/mmap_file")
int BPF_PROG(verigate_mmap, struct file *file, unsigned long reqprot,
	     unsigned long prot, unsigned long flags, int ret)
{
	struct inode *inode;
	struct super_block *sb;
	bool allowed;

	if (ret)
		return ret;
	if (!(prot & PROT_EXEC))
		return 0;
	if (arg_is_null(ctx, 0) || !file)
		return decide(VG_HOOK_MMAP, !deny_anon_exec, NULL, NULL);
	inode = file->f_inode;
	sb = inode->i_sb;
	allowed = sb_trusted(sb);
	if (allowed && (prot & PROT_WRITE) && (flags & MAP_TYPE) == MAP_PRIVATE)
		allowed = !deny_anon_exec;
	return decide(VG_HOOK_MMAP, allowed, inode, sb);
}

SEC("lsm/file_mprotect")
int BPF_PROG(verigate_mprot, struct vm_area_struct *vma, unsigned long reqprot,
	     unsigned long prot, int ret)
{
	struct inode *inode;
	struct super_block *sb;
	struct file *file;
	bool allowed;

	if (ret)
		return ret;
	if (!(prot & PROT_EXEC))
		return 0;
	file = vma->vm_file;
	if (!file)
		return decide(VG_HOOK_MPROTECT, !deny_anon_exec, NULL, NULL);
	inode = file->f_inode;
	sb = inode->i_sb;
	allowed = sb_trusted(sb);
	/* Written already (a page copied on write), or writable from now on. */
	if (allowed && (vma->anon_vma || (prot & PROT_WRITE)))
		allowed = !deny_anon_exec;
	return decide(VG_HOOK_MPROTECT, allowed, inode, sb);
}
