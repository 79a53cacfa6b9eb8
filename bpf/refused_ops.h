/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a guard or a code-write hook refused, by number in the denial ring
 * and by name in the kernel log and the denials view.
 */
#ifndef VERIGATE_REFUSED_OPS_H
#define VERIGATE_REFUSED_OPS_H

enum vg_op {
	VG_OP_NONE, /* an exec or mapping: the record names the file */
	VG_OP_PROG_GET_FD,
	VG_OP_MAP_GET_FD,
	VG_OP_LINK_GET_FD,
	VG_OP_LOAD_LSM,
	VG_OP_LOAD_FREPLACE,
	VG_OP_LOAD_FMOD_RET,
	VG_OP_LOAD_KPROBE,
	VG_OP_MAP_FD,
	VG_OP_PROG_FD,
	VG_OP_PIN_UNLINK,
	VG_OP_PIN_RMDIR,
	VG_OP_PIN_RENAME,
	VG_OP_UMOUNT_BPFFS,
	VG_OP_UMOUNT_LAZY_ABOVE_BPFFS,
	VG_OP_MOUNT_MOVE,
	VG_OP_MOUNT_OVER_BPFFS,
	VG_OP_MOVE_MOUNT_BPFFS,
	VG_OP_KERNEL_READ_FILE,
	VG_OP_KERNEL_LOAD_DATA,
	VG_OP_LOCKDOWN,
	VG_OP_PTRACE_PID1,
	VG_OP_DM_IOCTL,
	VG_OP_VERITY_TABLE_ON_ROOT,
	VG_OP_PTRACE_ATTACH,
	VG_OP_PTRACE_TRACEME,
	VG_OP_PROC_MEM_WRITE,
	VG_OP_UMOUNT_PROPAGATED,
	VG_OP_FTRACE_SWITCH,
	VG_OP_MAKE_SLAVE,
	VG_OP_KEXEC,
	VG_OP_LOAD_VIEW_ITER,
	VG_OP_LOAD_SYSCTL,
	VG_OP_REMOVE_MOUNTPOINT,
	VG_OP_COUNT,
};

/* Arrays of characters, not of pointers: libbpf cannot relocate a table
 * of string pointers in .rodata. */
static const char vg_op_names[VG_OP_COUNT][24] = {
	[VG_OP_NONE] = "-",
	[VG_OP_PROG_GET_FD] = "prog-get-fd",
	[VG_OP_MAP_GET_FD] = "map-get-fd",
	[VG_OP_LINK_GET_FD] = "link-get-fd",
	[VG_OP_LOAD_LSM] = "load-lsm",
	[VG_OP_LOAD_FREPLACE] = "load-freplace",
	[VG_OP_LOAD_FMOD_RET] = "load-fmod-ret",
	[VG_OP_LOAD_KPROBE] = "load-kprobe-override",
	[VG_OP_MAP_FD] = "map-fd",
	[VG_OP_PROG_FD] = "prog-fd",
	[VG_OP_PIN_UNLINK] = "pin-unlink",
	[VG_OP_PIN_RMDIR] = "pin-rmdir",
	[VG_OP_PIN_RENAME] = "pin-rename",
	[VG_OP_UMOUNT_BPFFS] = "umount-bpffs",
	[VG_OP_UMOUNT_LAZY_ABOVE_BPFFS] = "umount-lazy-above-bpffs",
	[VG_OP_MOUNT_MOVE] = "mount-move",
	[VG_OP_MOUNT_OVER_BPFFS] = "mount-over-bpffs",
	[VG_OP_MOVE_MOUNT_BPFFS] = "move-mount-bpffs",
	[VG_OP_KERNEL_READ_FILE] = "kernel-read-file",
	[VG_OP_KERNEL_LOAD_DATA] = "kernel-load-data",
	[VG_OP_LOCKDOWN] = "lockdown",
	[VG_OP_PTRACE_PID1] = "ptrace-pid1",
	[VG_OP_DM_IOCTL] = "dm-ioctl",
	[VG_OP_VERITY_TABLE_ON_ROOT] = "verity-table-on-root",
	[VG_OP_PTRACE_ATTACH] = "ptrace-attach",
	[VG_OP_PTRACE_TRACEME] = "ptrace-traceme",
	[VG_OP_PROC_MEM_WRITE] = "proc-mem-write",
	[VG_OP_UMOUNT_PROPAGATED] = "umount-propagated",
	[VG_OP_FTRACE_SWITCH] = "ftrace-switch",
	[VG_OP_MAKE_SLAVE] = "make-slave",
	[VG_OP_KEXEC] = "kexec",
	[VG_OP_LOAD_VIEW_ITER] = "load-view-iter",
	[VG_OP_LOAD_SYSCTL] = "load-sysctl",
	[VG_OP_REMOVE_MOUNTPOINT] = "remove-mountpoint",
};

#endif
