/* SPDX-License-Identifier: GPL-2.0 */
/* Numbers shared by the BPF programs and the loader. */
#ifndef VERIGATE_ABI_H
#define VERIGATE_ABI_H

enum vg_hook {
	VG_HOOK_EXEC,
	VG_HOOK_MMAP,
	VG_HOOK_MPROTECT,
	VG_HOOK_CODE_WRITE, /* tracers writing code (anon_exec=deny) */
	VG_HOOK_GUARD, /* any of the guards */
	VG_HOOK_COUNT,
};

enum vg_verdict {
	VG_VERDICT_ALLOW,
	VG_VERDICT_DENY,
	VG_VERDICT_AUDIT, /* would have been denied; audit mode let it pass */
	VG_VERDICT_COUNT,
};

/* Index into the per-CPU "counters" array map. */
#define VG_COUNTER(hook, verdict) ((hook) * VG_VERDICT_COUNT + (verdict))
#define VG_COUNTER_SLOTS (VG_HOOK_COUNT * VG_VERDICT_COUNT)

/* Extra verity root hashes the loader may trust (rd.verigate.allow=), and
 * the longest digest dm-verity uses (sha512). */
#define VG_ALLOW_MAX 16
#define VG_DIGEST_MAX 64

/* Room for the IDs of verigate's own programs, maps and links. */
#define VG_OWN_MAX 32

/* The read-only views pinned next to the links, and the last refusals that
 * the denials view keeps. */
#define VG_VIEW_COUNT 2
#define VG_DENIAL_RING 64
/* The names of the attached programs, comma-separated, for the status view. */
#define VG_PROGRAM_NAMES_MAX 768

#endif
