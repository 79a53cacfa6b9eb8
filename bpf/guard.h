/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every guard shares (guard_*.bpf.c). Once the real init runs, nobody,
 * PID 1 included, may reach verigate's BPF objects, remove its pins,
 * unmount or hide the bpffs that holds them (or, from another mount
 * namespace, remove a name that a mount sits on), load kernel code or start
 * another kernel, write kernel memory, trace PID 1 or reconfigure
 * device-mapper. Each check is a compare or a hash lookup, but that of a
 * lazy unmount, which looks at each mount it takes.
 */
#ifndef VERIGATE_GUARD_H
#define VERIGATE_GUARD_H

#include <stdbool.h>

#include "decide.h"

/* Guards are off until the initramfs is done with: it set them up. */
static __always_inline bool guarding(void)
{
	return initramfs_sealed;
}

static __always_inline bool in_initial_mount_ns(void)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return task->nsproxy->mnt_ns->ns.inum == init_mnt_ns;
}

#endif
