// SPDX-License-Identifier: GPL-2.0
/*
 * The exec gate for kernels with the kfunc bpf_real_data_inode (7.2): a
 * file on an overlay (or a stack of them) is judged by the layer that
 * holds its data, so a program of the verified root stays runnable under
 * an overlay such as systemd-sysext's, and a file written or copied up to
 * a writable upper layer is refused. The kfunc may sleep, so these are
 * sleepable programs; the loader attaches them instead of exec_gate.bpf.c's
 * on the same hooks. (file_mprotect needs no twin: an overlay's mapping
 * holds its data layer's file already.)
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "exec_rules.h"
#include "hook_args.h"

/* The inode holding a regular file's data: on an overlay, the upper or
 * lower layer's; elsewhere the file's own. */
extern struct inode *bpf_real_data_inode(struct file *file) __ksym __weak;

/* A file whose data inode the kernel cannot name is refused. */
static __always_inline int no_data_inode(enum vg_hook hook)
{
	vg_note_refusal(hook, VG_OP_NONE, 0, 0);
	return refuse(hook);
}

SEC("lsm.s/bprm_check_security")
int BPF_PROG(verigate_exec_layers, struct linux_binprm *bprm, int ret)
{
	struct inode *inode;

	if (ret)
		return ret;
	inode = bpf_real_data_inode(bprm->file);
	return inode ? exec_rule(inode) : no_data_inode(VG_HOOK_EXEC);
}

SEC("lsm.s/bprm_creds_for_exec")
int BPF_PROG(verigate_exec_check_layers, struct linux_binprm *bprm, int ret)
{
	struct inode *inode;

	if (ret || !BPF_CORE_READ_BITFIELD(bprm, is_check))
		return ret;
	inode = bpf_real_data_inode(bprm->file);
	return inode ? exec_check_rule(inode) : no_data_inode(VG_HOOK_EXEC_CHECK);
}

SEC("lsm.s/mmap_file")
int BPF_PROG(verigate_mmap_layers, struct file *file, unsigned long reqprot,
	     unsigned long prot, unsigned long flags, int ret)
{
	struct inode *inode;

	if (ret)
		return ret;
	if (!(prot & PROT_EXEC))
		return 0;
	if (arg_is_null(ctx, 0) || !file)
		return decide(VG_HOOK_MMAP, !deny_anon_exec, NULL, NULL);
	inode = bpf_real_data_inode(file);
	return inode ? mmap_rule(inode, prot, flags) : no_data_inode(VG_HOOK_MMAP);
}
