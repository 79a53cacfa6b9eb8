/* SPDX-License-Identifier: GPL-2.0 */
/* Counting, logging and the enforce/audit switch, for every hook. */
#ifndef VERIGATE_DECIDE_H
#define VERIGATE_DECIDE_H

#include <bpf/bpf_helpers.h>

#include "counters.h"
#include "denials.h"
#include "kernel_types.h"
#include "refused_ops.h"
#include "state.h"
#include "verity_devices.h"

#define EPERM 1

extern struct vg_counters counters SEC(".maps");
/* Filled in by verity_trust.bpf.c, read by the exec gate. */
extern struct vg_verity_devices verity_devices SEC(".maps");

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

#define VG_LOG_WINDOW_NS (5ULL * 1000000000ULL)
#define VG_LOG_BURST 50

/*
 * Whether one more decision may be logged: at most VG_LOG_BURST lines per
 * window, so that a flood of refusals can neither fill the log nor stall
 * the system on a slow console. What is held back is counted, and the
 * count is logged when the next window opens; the counters see every
 * decision. CPUs racing here can let a few more lines through, never an
 * unbounded number.
 */
static __always_inline bool log_budget(void)
{
	__u64 now = bpf_ktime_get_ns();
	__u64 held;

	if (now - log_window_start >= VG_LOG_WINDOW_NS) {
		held = log_held_back;
		log_window_start = now;
		log_in_window = 0;
		log_held_back = 0;
		if (held)
			bpf_printk("verigate: rate limit held back %llu lines", held);
	}
	if (log_in_window >= VG_LOG_BURST) {
		__sync_fetch_and_add(&log_held_back, 1);
		return false;
	}
	__sync_fetch_and_add(&log_in_window, 1);
	return true;
}

/* bpf_printk within the log budget. */
#define vg_log(fmt, args...)                                                  \
	({                                                                    \
		if (log_budget())                                             \
			bpf_printk(fmt, ##args);                              \
	})

/*
 * Logs a refusal (within the log budget) and keeps it in the denial ring:
 * refusals.bpf.c. A global function, so that the verifier checks it once
 * per program rather than once per refusal in it: that keeps each program
 * a few hundred instructions and the loader quick. Returns 0.
 */
extern int vg_note_refusal(__u32 hook, __u32 op, __u32 dev, __u64 ino);

/* A refusal of op (enum vg_op) by a hook of the given kind. */
#define refuse_op(hook, op)                                                   \
	({                                                                    \
		vg_note_refusal(hook, op, 0, 0);                              \
		refuse(hook);                                                 \
	})

#define guard_refuse(op) refuse_op(VG_HOOK_GUARD, op)

#endif
