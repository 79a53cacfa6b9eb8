// SPDX-License-Identifier: GPL-2.0
/*
 * Guards of the kernel itself: no kernel code from outside the verified
 * root, no other kernel started without the firmware, no write to kernel
 * memory, no tracing of PID 1, and no switching off the ftrace patching
 * that runs every BPF LSM program.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "guard.h"

#define PROC_SUPER_MAGIC 0x9fa0
#define FMODE_WRITE 0x2

/* Only the names matter: CO-RE reads each value from the kernel's BTF. */
enum kernel_read_file_id { READING_KEXEC_IMAGE, READING_KEXEC_INITRAMFS };
enum kernel_load_data_id { LOADING_KEXEC_IMAGE };
enum lockdown_reason {
	LOCKDOWN_NONE,
	LOCKDOWN_INTEGRITY_MAX,
	LOCKDOWN_KCORE,
	LOCKDOWN_DBG_READ_KERNEL,
	LOCKDOWN_PERF,
	LOCKDOWN_XFRM_SECRET,
};

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

/*
 * Another kernel, started without the firmware (kexec_file_load, and its
 * crash kernel): its image and initramfs are refused whatever device they
 * are on and whatever signed them. A kernel on the verified image, signed
 * by a key the kernel trusts (the firmware's db, through .platform), passes
 * kexec's own signature check, so lockdown is never asked, and it would
 * boot with a command line of root's choosing.
 */
static __always_inline bool kexec_file(int id)
{
	return id == bpf_core_enum_value(enum kernel_read_file_id, READING_KEXEC_IMAGE) ||
	       id == bpf_core_enum_value(enum kernel_read_file_id, READING_KEXEC_INITRAMFS);
}

/* Modules, firmware and policies read from a file; kexec images. */
SEC("lsm/kernel_read_file")
int BPF_PROG(guard_kernel_read_file, struct file *file, int id, bool contents, int ret)
{
	if (ret || !guarding())
		return ret;
	if (kexec_file(id))
		return guard_refuse(VG_OP_KEXEC);
	if (file->f_inode->i_sb->s_dev != trusted_dev)
		return guard_refuse(VG_OP_KERNEL_READ_FILE);
	return 0;
}

/* init_module, kexec_load and other loads from a buffer: no file to trust. */
SEC("lsm/kernel_load_data")
int BPF_PROG(guard_kernel_load_data, int id, bool contents, int ret)
{
	if (ret || !guarding())
		return ret;
	if (id == bpf_core_enum_value(enum kernel_load_data_id, LOADING_KEXEC_IMAGE))
		return guard_refuse(VG_OP_KEXEC);
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
