/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VERIGATE_VERITY_DEVICES_H
#define VERIGATE_VERITY_DEVICES_H

#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "state.h"

/* What the kernel told verigate about one verity device. */
struct vg_verity_device {
	bool listed;   /* root digest on the allow-list */
	bool signed_;  /* the kernel checked a signature of the root digest */
	bool strict;   /* every read verified and a mismatch never served: no
			* ignore_corruption, no check_at_most_once */
	__u32 dev;     /* its number (kernel encoding), for the status view */
	__u32 digest_len; /* 0 for a digest longer than VG_DIGEST_MAX */
	__u64 digest[VG_DIGEST_MAX / 8]; /* its root digest */
};

/* Whether the exec gate trusts files on the device. */
static __always_inline bool verity_device_trusted(const struct vg_verity_device *dev)
{
	return dev->strict && (dev->listed || (dev->signed_ && allow_signed));
}

/*
 * Keyed by the struct block_device's address, not by dev_t: a removed
 * device's number can be given to a new device before the old
 * block_device is freed (and its entry deleted), and the new device must
 * not inherit the old one's trust.
 */
struct vg_verity_devices {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, struct vg_verity_device);
};

#endif
