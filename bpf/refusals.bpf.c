// SPDX-License-Identifier: GPL-2.0
/*
 * Every refusal, by any hook, is logged (within the log budget) and kept
 * in the denial ring for the denials view. One global function does both
 * (see vg_note_refusal in decide.h).
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "decide.h"

/* The kind of hook, as the kernel log names it. */
static const char hook_log_names[VG_HOOK_COUNT][12] = {
	[VG_HOOK_EXEC] = "exec",
	[VG_HOOK_MMAP] = "mmap",
	[VG_HOOK_MPROTECT] = "mprotect",
	[VG_HOOK_CODE_WRITE] = "code-write",
	[VG_HOOK_GUARD] = "guard",
	[VG_HOOK_EXEC_CHECK] = "exec-check",
};

/*
 * Each CPU takes its own sequence number, and so its own slot; seq is
 * written last, so that a reader skips a record being written.
 */
static __always_inline void record_denial(__u32 hook, __u32 op, __u32 dev, __u64 ino,
					  const char *comm)
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
	d->op = op;
	d->verdict = enforce ? VG_VERDICT_DENY : VG_VERDICT_AUDIT;
	__builtin_memcpy(d->comm, comm, sizeof(d->comm));
	d->seq = seq;
}

__noinline int vg_note_refusal(__u32 hook, __u32 op, __u32 dev, __u64 ino)
{
	const char *verdict = enforce ? "deny" : "audit";
	char comm[16];

	if (hook >= VG_HOOK_COUNT || op >= VG_OP_COUNT)
		return 0;
	bpf_get_current_comm(comm, sizeof(comm));
	if (op == VG_OP_NONE)
		vg_log("verigate: %s %s dev=%u:%u ino=%lu pid=%u comm=%s", verdict,
		       hook_log_names[hook], dev >> 20, dev & 0xfffff, ino, current_pid(), comm);
	else
		vg_log("verigate: %s %s %s pid=%u comm=%s", verdict, hook_log_names[hook],
		       vg_op_names[op], current_pid(), comm);
	record_denial(hook, op, dev, ino, comm);
	return 0;
}
