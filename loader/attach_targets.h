/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VG_ATTACH_TARGETS_H
#define VG_ATTACH_TARGETS_H

#include <bpf/libbpf.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "kernel_features.h"

#define VG_TARGETS_MAX 32

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
	/* When libbpf handed the first program to the kernel (monotonic; 0
	 * until then): what comes before is its own preparation. */
	struct timespec first_prog_load;
};

/* Before the object is opened: the handlers for lsm/ and iter/ (once per
 * process), which from now on use t's ids. */
int vg_attach_targets_register(struct vg_attach_targets *t, char *err, size_t errlen);

/* After it is opened: each program's target, for the probe to find. */
int vg_attach_targets_collect(struct vg_attach_targets *t, const struct bpf_object *obj,
			      char *err, size_t errlen);

/* After the probe: 0 if every program that will load has its target in
 * this kernel, else -1 with err naming the first that has none. */
int vg_attach_targets_check(const struct vg_attach_targets *t, char *err, size_t errlen);

/* After the object is closed: the handlers use t no more. */
void vg_attach_targets_unregister(struct vg_attach_targets *t);

#endif
