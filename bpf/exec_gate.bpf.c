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
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "decide.h"
#include "hook_args.h"

#define PROT_WRITE 0x2
#define PROT_EXEC 0x4
#define MAP_TYPE 0x0f
#define MAP_PRIVATE 0x02

static __always_inline bool file_trusted(struct file *file)
{
	struct super_block *sb = file->f_inode->i_sb;
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

/* file == NULL stands for anonymous memory. */
static __always_inline int decide(enum vg_hook hook, bool allowed, struct file *file)
{
	__u32 dev = 0;
	__u64 ino = 0;

	if (allowed)
		return allow(hook);
	if (file) {
		dev = file->f_inode->i_sb->s_dev;
		ino = file->f_inode->i_ino;
	}
	vg_note_refusal(hook, VG_OP_NONE, dev, ino);
	return refuse(hook);
}

SEC("lsm/bprm_check_security")
int BPF_PROG(verigate_exec, struct linux_binprm *bprm, int ret)
{
	__u32 dev;

	if (ret)
		return ret;
	dev = bprm->file->f_inode->i_sb->s_dev;
	if (dev == trusted_dev && current_pid() == 1)
		initramfs_sealed = true;
	return decide(VG_HOOK_EXEC, file_trusted(bprm->file), bprm->file);
}

/*
 * A writable private mapping of a trusted file can be filled with any code,
 * so once such memory is executable it is anonymous code, not the file's.
 */
SEC("lsm/mmap_file")
int BPF_PROG(verigate_mmap, struct file *file, unsigned long reqprot,
	     unsigned long prot, unsigned long flags, int ret)
{
	bool allowed;

	if (ret)
		return ret;
	if (!(prot & PROT_EXEC))
		return 0;
	if (arg_is_null(ctx, 0) || !file)
		return decide(VG_HOOK_MMAP, !deny_anon_exec, NULL);
	allowed = file_trusted(file);
	if (allowed && (prot & PROT_WRITE) && (flags & MAP_TYPE) == MAP_PRIVATE)
		allowed = !deny_anon_exec;
	return decide(VG_HOOK_MMAP, allowed, file);
}

SEC("lsm/file_mprotect")
int BPF_PROG(verigate_mprot, struct vm_area_struct *vma, unsigned long reqprot,
	     unsigned long prot, int ret)
{
	struct file *file;
	bool allowed;

	if (ret)
		return ret;
	if (!(prot & PROT_EXEC))
		return 0;
	file = vma->vm_file;
	if (!file)
		return decide(VG_HOOK_MPROTECT, !deny_anon_exec, NULL);
	allowed = file_trusted(file);
	if (allowed && vma->anon_vma)
		allowed = !deny_anon_exec;
	return decide(VG_HOOK_MPROTECT, allowed, file);
}
