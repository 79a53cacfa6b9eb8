/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VERIGATE_COUNTERS_H
#define VERIGATE_COUNTERS_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "verigate_abi.h"

/* Per-CPU count of each decision, indexed by VG_COUNTER(hook, verdict). */
struct vg_counters {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, VG_COUNTER_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
};

#endif
