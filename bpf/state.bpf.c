// SPDX-License-Identifier: GPL-2.0
/* Definitions of the state in state.h, and the decision counters. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "counters.h"
#include "denials.h"
#include "own_objects.h"
#include "state.h"
#include "verity_devices.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 trusted_dev;
const volatile __u32 real_root_dev;
const volatile __u32 initramfs_dev;
const volatile bool enforce;
const volatile bool deny_anon_exec;
const volatile __u32 bpffs_dev;
const volatile __u64 pin_dir_ino;
const volatile __u32 sysfs_dev;
const volatile __u64 bpffs_mountpoint_ino;
const volatile __u64 sys_mountpoint_ino;
const volatile __u32 init_mnt_ns;
const volatile __u32 dm_control_rdev;
const volatile bool kprobe_override;
const volatile bool verity_trust;
const volatile bool execve_check;
const volatile bool overlay_data_layer;
const volatile __u8 root_digest[VG_DIGEST_MAX] __attribute__((aligned(8)));
const volatile __u32 root_digest_len;
const volatile __u8 allowed_digests[VG_ALLOW_MAX][VG_DIGEST_MAX] __attribute__((aligned(8)));
const volatile __u32 allowed_digest_lens[VG_ALLOW_MAX];
const volatile bool allow_signed;
const volatile char tree_hash_hex[VG_DIGEST_MAX * 2 + 1];
const volatile char tree_data_dev[VG_DEVICE_NAME_MAX];
const volatile char tree_hash_dev[VG_DEVICE_NAME_MAX];
const volatile bool tree_is_usr;
const volatile __u32 nr_cpus;

bool initramfs_sealed;
char program_names[VG_PROGRAM_NAMES_MAX];
__u64 denial_seq;
__u32 live_at_boot;
__u32 programs_at_boot;
__u64 log_window_start;
__u64 log_in_window;
__u64 log_held_back;

struct vg_counters counters SEC(".maps");
struct vg_verity_devices verity_devices SEC(".maps");
struct vg_denial_ring denial_ring SEC(".maps");
struct vg_own_objects own_objects SEC(".maps");
