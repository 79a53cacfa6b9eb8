/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verigate's own programs, maps, links and pins, which the guards keep out
 * of everyone's reach, and the iterator targets of its views. A hash map, so that a guard asks once: a scan of a
 * list is walked by the verifier iteration by iteration, in every program
 * and at every call site. The loader fills it in and freezes it.
 */
#ifndef VERIGATE_OWN_OBJECTS_H
#define VERIGATE_OWN_OBJECTS_H

#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "verigate_abi.h"

struct vg_own_objects {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, VG_OWN_OBJECTS_MAX);
	__type(key, struct vg_own_key);
	__type(value, __u32); /* 0: a set */
};

extern struct vg_own_objects own_objects SEC(".maps");

/* Whether object id of kind is verigate's. */
static __always_inline bool own_object(enum vg_own_kind kind, __u64 id)
{
	struct vg_own_key key = { .id = id, .kind = kind };

	return id && bpf_map_lookup_elem(&own_objects, &key);
}

#endif
