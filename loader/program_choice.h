/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which of verigate's programs a kernel gets, decided from what the kernel
 * is (its hooks, as its BTF tells, and whether it forces writes through
 * /proc/PID/mem) and the policy, with nothing loaded: the loader makes the
 * choice before it loads, and verigatectl makes the same one offline to
 * predict what a boot will measure.
 */
#ifndef VG_PROGRAM_CHOICE_H
#define VG_PROGRAM_CHOICE_H

#include <bpf/libbpf.h>
#include <stdbool.h>

#include "kernel_features.h"

/* What, beyond the kernel's hooks, decides the choice. */
struct vg_program_needs {
	bool deny_anon_exec;  /* rd.verigate.anon_exec=deny */
	bool proc_mem_forced; /* the kernel forces a process's writes to its own
			       * read-only pages through /proc/self/mem */
};

/* Turn off the autoload of every program of obj this kernel and policy do
 * not get. */
void vg_programs_choose(struct bpf_object *obj, const struct vg_kernel_features *f,
			const struct vg_program_needs *needs);

bool vg_program_is_guard(const struct bpf_program *prog);

/* One of the read-only views (an iterator) rather than a hook. */
bool vg_program_is_view(const struct bpf_program *prog);

/* The hook a program is attached to ("file_open" from "lsm/file_open",
 * "sysctl" from "cgroup/sysctl"), or "iterator" for a view. */
const char *vg_program_hook(const struct bpf_program *prog);

/* Why no trigger of the liveness proof can make a hook run, or NULL. */
const char *vg_hook_unprovable(const char *hook);

/* The chosen programs: how many, how many are guards, and how many the
 * liveness proof makes run on a sound gate (those whose hooks it can
 * trigger, and the views). */
struct vg_program_counts {
	int programs, guards, provable;
};

void vg_programs_count(const struct bpf_object *obj, struct vg_program_counts *c);

#endif
