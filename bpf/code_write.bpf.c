// SPDX-License-Identifier: GPL-2.0
/*
 * With rd.verigate.anon_exec=deny no new code may appear in memory. A
 * tracer can write into read-only text (the kernel copies the page for it,
 * FOLL_FORCE, with no mprotect), so it could plant code that the mmap and
 * mprotect hooks never see. The doors: ptrace attach (PTRACE_POKETEXT, and
 * /proc/PID/mem of another process), PTRACE_TRACEME (the parent becomes the
 * tracer), and /proc/self/mem (the kernel skips the ptrace check for the
 * caller's own process, so the open of the file is checked). The loader
 * loads these programs only in deny mode.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "decide.h"

#define FMODE_WRITE 0x2
#define PROC_SUPER_MAGIC 0x9fa0

#define code_write_refuse(op) refuse_op(VG_HOOK_CODE_WRITE, op)

SEC("lsm/ptrace_access_check")
int BPF_PROG(verigate_ptrace, struct task_struct *child, unsigned int mode, int ret)
{
	if (ret || !(mode & PTRACE_MODE_ATTACH))
		return ret;
	return code_write_refuse(VG_OP_PTRACE_ATTACH);
}

SEC("lsm/ptrace_traceme")
int BPF_PROG(verigate_traceme, struct task_struct *parent, int ret)
{
	if (ret)
		return ret;
	return code_write_refuse(VG_OP_PTRACE_TRACEME);
}

/* procfs names every process's memory file "mem". */
static __always_inline bool is_proc_mem(struct file *file)
{
	char name[4] = {};

	if (file->f_inode->i_sb->s_magic != PROC_SUPER_MAGIC)
		return false;
	bpf_probe_read_kernel(name, sizeof(name), file->f_path.dentry->d_name.name);
	return name[0] == 'm' && name[1] == 'e' && name[2] == 'm' && !name[3];
}

SEC("lsm/file_open")
int BPF_PROG(verigate_mem_write, struct file *file, int ret)
{
	if (ret || !(file->f_mode & FMODE_WRITE) || !is_proc_mem(file))
		return ret;
	return code_write_refuse(VG_OP_PROC_MEM_WRITE);
}
