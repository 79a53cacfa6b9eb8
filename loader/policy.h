/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VG_POLICY_H
#define VG_POLICY_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "kernel_features.h"
#include "verigate_abi.h"

#define VG_PROGS_MAX 48

/* Device numbers are in the kernel's encoding (major << 20 | minor). */
struct vg_policy_params {
	__u32 trusted_dev;
	__u32 real_root_dev; /* the new root's s_dev: trusted_dev, or a writable root under a verity /usr */
	__u32 initramfs_dev;
	__u32 sysfs_dev;
	__u32 dm_control_rdev;
	__u32 init_mnt_ns; /* inode number of the initial mount namespace */
	__u64 bpffs_mountpoint_ino; /* /sys/fs/bpf, the directory in sysfs */
	__u64 sys_mountpoint_ino;   /* /sys, the directory in the real root */
	bool enforce;
	bool deny_anon_exec;
	/* The root as the exec gate's verity watch and the DM guard know it. */
	unsigned char root_digest[VG_DIGEST_MAX];
	int root_digest_len;
	/* Extra verity devices to trust (used where the kernel tells verity
	 * tables to LSMs, 6.12+). */
	int allow_count;
	unsigned char allow_digests[VG_ALLOW_MAX][VG_DIGEST_MAX];
	int allow_digest_lens[VG_ALLOW_MAX];
	bool allow_signed;
	/* For the status view: the hash on the command line, and whether the
	 * verified tree is /usr (usrhash=) rather than the root. */
	char tree_hash_hex[VG_DIGEST_MAX * 2 + 1];
	bool tree_is_usr;
	/* The verified tree's data and hash devices, "MAJ:MIN [PARTNAME]". */
	char tree_data_dev[VG_DEVICE_NAME_MAX];
	char tree_hash_dev[VG_DEVICE_NAME_MAX];
};

struct vg_policy_report {
	int count;
	int guards; /* how many of the programs are guards */
	struct vg_kernel_features features; /* what the choice of programs followed */
	bool kprobe_override; /* kernel has bpf_override_return: kprobe loads refused */
	bool verity_trust; /* extra verity devices can be trusted (6.12+) */
	/* Writes through /proc/PID/mem: "allowed" (anon_exec=allow), "refused"
	 * (verigate_mem_write refuses the open), "not-forced" (the kernel
	 * forces none a ptrace guard has not refused already). */
	const char *proc_mem_write;
	__u32 prog_ids[VG_PROGS_MAX];
	char prog_names[VG_PROGS_MAX][64];
	__u32 verified_insns[VG_PROGS_MAX]; /* as the verifier counted them at load */
	/* Each program's share of the load (from libbpf's hand-over to the
	 * kernel to the next program's) and its attach, in microseconds. */
	long load_us[VG_PROGS_MAX], attach_us[VG_PROGS_MAX];
	__u32 link_ids[VG_PROGS_MAX];
	int map_count;
	__u32 map_ids[VG_PROGS_MAX];
	/* Where the time went (ms): reading the kernel's BTF to pick the
	 * programs, loading them (the verifier) and attaching and pinning;
	 * of the load, the CPU time in user space (libbpf) and in the kernel,
	 * and the time from the first program handed to the kernel to the
	 * end (before it: libbpf's preparation, its BTF parse, CO-RE, maps). */
	long probe_ms, bpf_load_ms, attach_ms;
	long bpf_load_user_ms, bpf_load_kernel_ms, bpf_load_progs_ms;
	/* The proof that the attached programs run (liveness.c): how many
	 * were made to run and did, how many could not be made to run, each
	 * as "NAME (HOOK): why" in unprobed ("; " between), and its time. */
	int live_count, unprobed_count;
	char unprobed[1024];
	long live_us;
};

/*
 * Load the BPF LSM, attach every program and pin each link under pin_dir,
 * then close every fd: afterwards the pins are the only references. The
 * iterators (the read-only views "status" and "denials") are pinned there
 * too, readable by all (mode 0444). On any
 * failure everything already attached is unpinned and detached, and -1 is
 * returned with the reason in err.
 */
int vg_policy_install(const struct vg_policy_params *params, const char *pin_dir,
		      struct vg_policy_report *report, char *err, size_t errlen);

/* 0 if pin_dir is on bpffs and holds a pinned link for every program that
 * vg_policy_install would attach with this policy. */
int vg_policy_check_pinned(const char *pin_dir, bool deny_anon_exec, char *err, size_t errlen);

/* Kernel encoding of a device number. */
__u32 vg_kernel_dev(dev_t dev);

#endif
