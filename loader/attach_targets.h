/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VG_ATTACH_TARGETS_H
#define VG_ATTACH_TARGETS_H

#include <bpf/libbpf.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "kernel_features.h"

#define VG_TARGETS_MAX 48

/*
 * The kernel functions the programs attach to: bpf_lsm_HOOK for a program
 * in section lsm/HOOK, bpf_iter_NAME for one in iter/NAME. Their BTF ids
 * come from the feature probe's one pass over the kernel's BTF (funcs) and
 * reach libbpf through section handlers of verigate's own, which replace
 * libbpf's: those search the BTF once for each program.
 */
struct vg_attach_targets {
	size_t count;
	const struct bpf_program *progs[VG_TARGETS_MAX];
	char names[VG_TARGETS_MAX][64];
	const char *name_ptrs[VG_TARGETS_MAX];
	uint32_t ids[VG_TARGETS_MAX];
	struct vg_btf_funcs funcs; /* for vg_kernel_features_probe */
	/* When libbpf handed each program to the kernel (monotonic), in the
	 * order it did: handed[k] is loaded_progs[k]'s (cgroup programs, which
	 * have no target, too). libbpf loads one program at a time, so a
	 * program's load lasts until the next is handed over; what comes
	 * before the first is libbpf's preparation. */
	size_t loaded;
	const struct bpf_program *loaded_progs[VG_TARGETS_MAX];
	struct timespec handed[VG_TARGETS_MAX];
};

/* Before the object is opened: the handlers for lsm/, iter/ and
 * cgroup/sysctl (once per process), which from now on use t's ids. */
int vg_attach_targets_register(struct vg_attach_targets *t, char *err, size_t errlen);

/* After it is opened: each program's target, for the probe to find. */
int vg_attach_targets_collect(struct vg_attach_targets *t, const struct bpf_object *obj,
			      char *err, size_t errlen);

/* After the probe: 0 if every program that will load has its target in
 * this kernel, else -1 with err naming the first that has none. */
int vg_attach_targets_check(const struct vg_attach_targets *t, char *err, size_t errlen);

/* After the load, which ended at load_end: how long the kernel took over
 * prog (microseconds, from its hand-over to the next's or to load_end; 0
 * if it was not loaded). */
long vg_attach_targets_load_us(const struct vg_attach_targets *t, const struct bpf_program *prog,
			       const struct timespec *load_end);

/* After the object is closed: the handlers use t no more. */
void vg_attach_targets_unregister(struct vg_attach_targets *t);

#endif
