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

#include "exec_rules.h"
#include "hook_args.h"

SEC("lsm/bprm_check_security")
int BPF_PROG(verigate_exec, struct linux_binprm *bprm, int ret)
{
	if (ret)
		return ret;
	return exec_rule(bprm->file->f_inode);
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
	if (ret || !BPF_CORE_READ_BITFIELD(bprm, is_check))
		return ret;
	return exec_check_rule(bprm->file->f_inode);
}

SEC("lsm/mmap_file")
int BPF_PROG(verigate_mmap, struct file *file, unsigned long reqprot,
	     unsigned long prot, unsigned long flags, int ret)
{
	if (ret)
		return ret;
	if (!(prot & PROT_EXEC))
		return 0;
	if (arg_is_null(ctx, 0) || !file)
		return decide(VG_HOOK_MMAP, !deny_anon_exec, NULL, NULL);
	return mmap_rule(file->f_inode, prot, flags);
}

/*
 * An overlay's file mapping holds the file of the layer that has its data
 * (vm_file is the overlay's backing file), so this needs no resolution.
 */
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
