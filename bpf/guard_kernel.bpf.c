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

/*
 * kernel.ftrace_enabled=0 turns every ftrace-patched call site back into a
 * no-op, and with them the trampolines that run every BPF LSM program:
 * the gate would stay pinned and never run. Writing it is refused from the
 * moment the gate is loaded (the loader refuses to load with it off: a
 * value set on the kernel command line).
 *
 * A cgroup/sysctl program on the root cgroup, not an LSM program on
 * file_open: the kernel runs it for sysctl reads and writes only, through
 * any procfs mount, in every cgroup and namespace (with BPF_F_ALLOW_MULTI
 * every descendant runs it too). It is attached without a link, so no pin
 * holds it and no fd can detach it. A later sysctl program could undo its
 * verdict (bpf_set_retval), so guard_bpf refuses to load another.
 */
SEC("cgroup/sysctl")
int guard_ftrace_switch(struct bpf_sysctl *ctx)
{
	static const char name[] = "kernel/ftrace_enabled";
	char buf[sizeof(name)];

	if (!ctx->write ||
	    bpf_sysctl_get_name(ctx, buf, sizeof(buf), 0) != sizeof(name) - 1 ||
	    bpf_strncmp(buf, sizeof(buf), name))
		return 1;
	return guard_refuse(VG_OP_FTRACE_SWITCH) ? 0 : 1;
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
