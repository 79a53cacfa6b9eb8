/* SPDX-License-Identifier: GPL-2.0 */
/* Numbers shared by the BPF programs and the loader. */
#ifndef VERIGATE_ABI_H
#define VERIGATE_ABI_H

#include <linux/types.h>

enum vg_hook {
	VG_HOOK_EXEC,
	VG_HOOK_MMAP,
	VG_HOOK_MPROTECT,
	VG_HOOK_CODE_WRITE, /* tracers writing code (anon_exec=deny) */
	VG_HOOK_GUARD, /* any of the guards */
	VG_HOOK_EXEC_CHECK, /* execveat(AT_EXECVE_CHECK): may this file run? (6.14+) */
	VG_HOOK_COUNT,
};

enum vg_verdict {
	VG_VERDICT_ALLOW,
	VG_VERDICT_DENY,
	VG_VERDICT_AUDIT, /* would have been denied; audit mode let it pass */
	VG_VERDICT_COUNT,
};

/* "MAJ:MIN PARTNAME" of a device the status view names. */
#define VG_DEVICE_NAME_MAX 96

/* Index into the per-CPU "counters" array map. */
#define VG_COUNTER(hook, verdict) ((hook) * VG_VERDICT_COUNT + (verdict))
#define VG_COUNTER_SLOTS (VG_HOOK_COUNT * VG_VERDICT_COUNT)

/* Extra verity root hashes the loader may trust (rd.verigate.allow=), and
 * the longest digest dm-verity uses (sha512). */
#define VG_ALLOW_MAX 16
#define VG_DIGEST_MAX 64

/* Room for the IDs of verigate's own programs, maps and links, and for
 * the inodes of its pins: VG_OWN_MAX of each kind. */
#define VG_OWN_MAX 48

/* A key of the own_objects map (own_objects.h): which of verigate's
 * objects, and its ID (programs, maps, links), inode number (pins) or BTF
 * type ID (the iterator targets of the views' programs). */
enum vg_own_kind {
	VG_OWN_PROG = 1,
	VG_OWN_MAP,
	VG_OWN_LINK,
	VG_OWN_PIN,
	VG_OWN_VIEW_TARGET,
	VG_OWN_KINDS,
};

struct vg_own_key {
	__u64 id;
	__u32 kind; /* enum vg_own_kind */
	__u32 zero; /* padding, zeroed: part of the hashed key */
};

#define VG_OWN_OBJECTS_MAX (VG_OWN_MAX * (VG_OWN_KINDS - 1))

/* The last refusals that the denials view keeps. */
#define VG_DENIAL_RING 64
/* The names of the attached programs, comma-separated, for the status view. */
#define VG_PROGRAM_NAMES_MAX 768

#endif
