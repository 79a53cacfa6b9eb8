/* SPDX-License-Identifier: GPL-2.0 */
/* Counting, logging and the enforce/audit switch, for every hook. */
#ifndef VERIGATE_DECIDE_H
#define VERIGATE_DECIDE_H

#include <bpf/bpf_helpers.h>

#include "counters.h"
#include "denials.h"
#include "kernel_types.h"
#include "state.h"
#include "verity_devices.h"

#define EPERM 1

extern struct vg_counters counters SEC(".maps");
/* Filled in by verity_trust.bpf.c, read by the exec gate. */
extern struct vg_verity_devices verity_devices SEC(".maps");
extern struct vg_denial_ring denial_ring SEC(".maps");

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

/* comm is the caller's to choose: keep the view one record per line. */
static __always_inline void sanitize_comm(char *comm)
{
	int i;

	for (i = 0; i < 16; i++) {
		if (!comm[i])
			break;
		if (comm[i] <= ' ' || comm[i] > '~' || comm[i] == '=')
			comm[i] = '?';
	}
}

/*
 * Keep a refusal in the denial ring. Each CPU takes its own sequence
 * number, and so its own slot; seq is written last, so that a reader
 * skips a record being written.
 */
static __always_inline void record_denial(enum vg_hook hook, __u32 dev, __u64 ino,
					  const char *what)
{
	__u64 seq = __sync_fetch_and_add(&denial_seq, 1) + 1;
	__u32 slot = seq % VG_DENIAL_RING;
	struct vg_denial *d = bpf_map_lookup_elem(&denial_ring, &slot);

	if (!d)
		return;
	d->seq = 0;
	d->boot_ns = bpf_ktime_get_boot_ns();
	d->pid = current_pid();
	d->dev = dev;
	d->ino = ino;
	d->hook = hook;
	d->verdict = enforce ? VG_VERDICT_DENY : VG_VERDICT_AUDIT;
	bpf_get_current_comm(d->comm, sizeof(d->comm));
	sanitize_comm(d->comm);
	d->what[0] = '\0';
	if (what)
		bpf_probe_read_kernel_str(d->what, sizeof(d->what), what);
	d->seq = seq;
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

/* A refusal of the operation named what (a string literal) by a hook of
 * the given kind, logged with who asked. */
#define refuse_logged(hook, kind, what)                                       \
	({                                                                    \
		char comm_[16];                                               \
		bpf_get_current_comm(comm_, sizeof(comm_));                   \
		vg_log("verigate: %s " kind " %s pid=%u comm=%s",             \
		       enforce ? "deny" : "audit", what, current_pid(), comm_); \
		record_denial(hook, 0, 0, what);                              \
		refuse(hook);                                                 \
	})

#define guard_refuse(what) refuse_logged(VG_HOOK_GUARD, "guard", what)

#endif
