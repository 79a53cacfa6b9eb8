/* SPDX-License-Identifier: GPL-2.0 */
/*
 * State shared by the exec gate and the guards (defined in state.bpf.c).
 * .rodata is set by the loader before load and frozen by libbpf; .bss is
 * filled in by the loader before the real init starts, and from then on no
 * process can get an fd for it: the guards refuse every way to one.
 */
#ifndef VERIGATE_STATE_H
#define VERIGATE_STATE_H

#include <stdbool.h>
#include <linux/types.h>

#include "verigate_abi.h"

extern const volatile __u32 trusted_dev;   /* the verified tree's s_dev (the root, or /usr) */
extern const volatile __u32 real_root_dev; /* the real root's s_dev (writable under a verity /usr) */
extern const volatile __u32 initramfs_dev; /* the initramfs' s_dev */
extern const volatile bool enforce;
extern const volatile bool deny_anon_exec;

extern const volatile __u32 bpffs_dev;     /* the bpffs holding the pins */
extern const volatile __u64 pin_dir_ino;   /* the pin directory in it */
extern const volatile __u32 sysfs_dev;     /* /sys, which carries bpffs */
/* The directories the bpffs and /sys are mounted on: /sys/fs/bpf in
 * sysfs, /sys in the real root. */
extern const volatile __u64 bpffs_mountpoint_ino;
extern const volatile __u64 sys_mountpoint_ino;
extern const volatile __u32 init_mnt_ns;   /* inode number of the initial mount namespace */
extern const volatile __u32 dm_control_rdev; /* /dev/mapper/control */
extern const volatile bool kprobe_override; /* kernel has bpf_override_return */
/* The kernel has execveat(AT_EXECVE_CHECK), and the exec gate answers it. */
extern const volatile bool execve_check;
/* Overlay files are judged by the layer that holds their data (7.2's
 * bpf_real_data_inode), not refused for being on an overlay. */
extern const volatile bool overlay_data_layer;

/* Extra verity devices (6.12+, verity_trust.bpf.c): the root's digest,
 * the allow-list (both compared a word at a time, hence aligned), whether
 * a kernel-checked signature suffices. */
extern const volatile bool verity_trust;
extern const volatile __u8 root_digest[VG_DIGEST_MAX] __attribute__((aligned(8)));
extern const volatile __u32 root_digest_len;
extern const volatile __u8 allowed_digests[VG_ALLOW_MAX][VG_DIGEST_MAX] __attribute__((aligned(8)));
extern const volatile __u32 allowed_digest_lens[VG_ALLOW_MAX];
extern const volatile bool allow_signed;

/* For the status view: the verified tree's hash as given on the command
 * line, whether it is /usr (usrhash=), and the possible CPUs. */
extern const volatile char tree_hash_hex[VG_DIGEST_MAX * 2 + 1];
extern const volatile bool tree_is_usr;
/* Its data and hash devices: "MAJ:MIN", and the GPT partition name if any. */
extern const volatile char tree_data_dev[VG_DEVICE_NAME_MAX];
extern const volatile char tree_hash_dev[VG_DEVICE_NAME_MAX];
extern const volatile __u32 nr_cpus;

/* Flipped once, in the kernel, when PID 1 executes from the trusted root. */
extern bool initramfs_sealed;

/* The attached programs, for the status view. */
extern char program_names[VG_PROGRAM_NAMES_MAX];
/* The loader's proof that the programs run (loader/liveness.c): how many
 * it saw run, of how many attached. */
extern __u32 live_at_boot;
extern __u32 programs_at_boot;
/* How many refusals were recorded in the denial ring. */
extern __u64 denial_seq;

/* The log rate limit (decide.h): when the window opened, lines logged in
 * it, lines held back since. */
extern __u64 log_window_start;
extern __u64 log_in_window;
extern __u64 log_held_back;

#endif
