/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The last refusals (and, in audit mode, would-be refusals), kept in a ring
 * in the kernel for the read-only view /sys/fs/bpf/verigate/denials.
 */
#ifndef VERIGATE_DENIALS_H
#define VERIGATE_DENIALS_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "verigate_abi.h"

struct vg_denial {
	__u64 seq;     /* 1, 2, ...; 0 while empty or being written */
	__u64 boot_ns; /* CLOCK_BOOTTIME */
	__u32 pid;
	__u32 dev;     /* the file's s_dev (major << 20 | minor); 0 for anonymous memory and guards */
	__u64 ino;
	__u32 hook;    /* enum vg_hook */
	__u32 verdict; /* VG_VERDICT_DENY or VG_VERDICT_AUDIT */
	char comm[16]; /* as the task set it; the view makes it printable */
	__u32 op;      /* enum vg_op: what a guard or code-write hook refused */
};

struct vg_denial_ring {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, VG_DENIAL_RING);
	__type(key, __u32);
	__type(value, struct vg_denial);
};

extern struct vg_denial_ring denial_ring SEC(".maps");

#endif
