/* SPDX-License-Identifier: GPL-2.0 */
/* Counting, logging and the enforce/audit switch, for every hook. */
#ifndef VERIGATE_DECIDE_H
#define VERIGATE_DECIDE_H

#include <bpf/bpf_helpers.h>

#include "counters.h"
#include "kernel_types.h"
#include "state.h"

#define EPERM 1

extern struct vg_counters counters SEC(".maps");

static __always_inline void count(enum vg_hook hook, enum vg_verdict verdict)
{
	__u32 key = VG_COUNTER(hook, verdict);
	__u64 *slot = bpf_map_lookup_elem(&counters, &key);

	if (slot)
		*slot += 1;
}

static __always_inline __u32 current_pid(void)
{
	return bpf_get_current_pid_tgid() >> 32;
}

/*
 * A refusal: -EPERM when enforcing, logged and let through in audit mode.
 * Two plain returns, so that verifiers which check an LSM program's return
 * range (6.12+) see exactly -EPERM or 0, not a computed byte.
 */
static __always_inline int refuse(enum vg_hook hook)
{
	bool deny = enforce;

	barrier_var(deny);
	if (deny) {
		count(hook, VG_VERDICT_DENY);
		return -EPERM;
	}
	count(hook, VG_VERDICT_AUDIT);
	return 0;
}

static __always_inline int allow(enum vg_hook hook)
{
	count(hook, VG_VERDICT_ALLOW);
	return 0;
}

/* A guard refusing the operation named what (a string literal). */
#define guard_refuse(what)                                                    \
	({                                                                    \
		char comm_[16];                                               \
		bpf_get_current_comm(comm_, sizeof(comm_));                   \
		bpf_printk("verigate: %s guard %s pid=%u comm=%s",            \
			   enforce ? "deny" : "audit", what, current_pid(),   \
			   comm_);                                            \
		refuse(VG_HOOK_GUARD);                                        \
	})

#endif
