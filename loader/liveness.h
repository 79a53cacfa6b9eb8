/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VG_LIVENESS_H
#define VG_LIVENESS_H

#include <bpf/libbpf.h>
#include <linux/types.h>
#include <stddef.h>

#include "policy.h"

/*
 * Prove that each program of obj that is attached (pinned under pin_dir)
 * runs: make its hook run once, from the initramfs whose device is
 * initramfs_dev, and see the kernel count the program's run. Fills in
 * report's live_count, unprobed_count, unprobed and live_us; reads its
 * prog_ids and map_ids (the programs' and maps' own IDs, which the BPF
 * triggers ask fds for). Returns -1 with the reason in err when a program
 * whose hook was reached did not run, or the proof could not be made; it
 * leaves no file, mount, fd or child behind.
 */
int vg_liveness_prove(const struct bpf_object *obj, const char *pin_dir, __u32 initramfs_dev,
		      struct vg_policy_report *report, char *err, size_t errlen);

#endif
