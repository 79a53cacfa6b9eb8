// SPDX-License-Identifier: GPL-2.0
/*
 * verigate's view of verity devices created after boot (6.12+). dm-verity
 * tells the LSMs, before a table goes live, its root digest and whether
 * the kernel checked a signature of it (bdev_setintegrity); verigate keeps
 * what it learns per block device until the device is freed. The exec gate
 * trusts such a device when its digest is on the loader's allow-list, or
 * when its signature was checked and rd.verigate.signed=1, provided that
 * verity serves no block that failed its check.
 *
 * The root keeps the table the loader verified: a new table on it, with
 * another digest or with weaker options, is refused before it goes live.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "decide.h"
#include "hook_args.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "same_digest masks digests as little-endian words"
#endif

enum lsm_integrity_type {
	LSM_INT_DMVERITY_SIG_VALID,
	LSM_INT_DMVERITY_ROOTHASH,
};

/*
 * The verity target of bdev's live table (dm-verity is a singleton target,
 * and by the time its preresume runs the new table is the live one). The
 * device-mapper's own pointers are untyped (void *) on the way, so they are
 * followed with BPF_CORE_READ rather than dereferenced.
 */
static __always_inline struct dm_verity *verity_of(struct block_device *bdev)
{
	struct mapped_device *md = bdev->bd_disk->private_data;
	struct dm_table *table = BPF_CORE_READ(md, map);
	struct dm_target *target;
	static const char verity[] = "verity";
	char type[sizeof(verity)] = {};
	int i;

	if (!table || BPF_CORE_READ(table, num_targets) != 1)
		return NULL;
	target = BPF_CORE_READ(table, targets);
	bpf_probe_read_kernel_str(type, sizeof(type), BPF_CORE_READ(target, type, name));
	for (i = 0; i < sizeof(verity); i++)
		if (type[i] != verity[i])
			return NULL;
	return BPF_CORE_READ(target, private);
}

static __always_inline bool strict(struct dm_verity *v)
{
	return BPF_CORE_READ(v, mode) !=
		       bpf_core_enum_value(enum verity_mode, DM_VERITY_MODE_LOGGING) &&
	       !BPF_CORE_READ(v, validated_blocks);
}

/*
 * Eight bytes at a time: a byte loop was most of this program's verified
 * instructions. Bytes past len are masked off (little-endian: the first
 * bytes are the low ones), so neither buffer's tail matters.
 */
static __always_inline bool same_digest(const __u64 *digest, __u32 len,
					const volatile __u64 *want, __u32 want_len)
{
	__u32 w, left;
	__u64 diff;

	if (len != want_len || len > VG_DIGEST_MAX)
		return false;
	for (w = 0; w < VG_DIGEST_MAX / 8 && w * 8 < len; w++) {
		diff = digest[w] ^ want[w];
		left = len - w * 8;
		if (left < 8)
			diff &= (1ULL << (left * 8)) - 1;
		if (diff)
			return false;
	}
	return true;
}

static __always_inline bool listed(const __u64 *digest, __u32 len)
{
	int i;

	for (i = 0; i < VG_ALLOW_MAX; i++)
		if (allowed_digest_lens[i] &&
		    same_digest(digest, len, (const volatile __u64 *)allowed_digests[i],
				allowed_digest_lens[i]))
			return true;
	return false;
}

static __always_inline int learn_digest(struct block_device *bdev, __u64 key)
{
	struct vg_verity_device dev = {};
	struct dm_verity *v = verity_of(bdev);
	__u64 digest[2 * VG_DIGEST_MAX / 8] = {};
	__u32 len;

	if (!v) {
		bpf_map_delete_elem(&verity_devices, &key);
		return 0;
	}
	/* A mask the verifier can follow; a longer digest matches nothing. */
	len = BPF_CORE_READ(v, digest_size) & (sizeof(digest) - 1);
	bpf_probe_read_kernel(digest, len, BPF_CORE_READ(v, root_digest));
	dev.strict = strict(v);
	if (bdev->bd_dev == trusted_dev) {
		if (dev.strict &&
		    same_digest(digest, len, (const volatile __u64 *)root_digest, root_digest_len))
			return 0;
		return guard_refuse(VG_OP_VERITY_TABLE_ON_ROOT);
	}
	dev.listed = listed(digest, len);
	dev.dev = bdev->bd_dev;
	if (len <= VG_DIGEST_MAX) {
		dev.digest_len = len;
		__builtin_memcpy(dev.digest, digest, sizeof(dev.digest));
	}
	bpf_map_update_elem(&verity_devices, &key, &dev, BPF_ANY);
	vg_log("verigate: verity device %u:%u %s (listed=%d strict=%d)", bdev->bd_dev >> 20,
	       bdev->bd_dev & 0xfffff, verity_device_trusted(&dev) ? "trusted" : "untrusted", dev.listed,
	       dev.strict);
	return 0;
}

static __always_inline int learn_signature(struct block_device *bdev, __u64 key, bool valid)
{
	struct vg_verity_device *dev = bpf_map_lookup_elem(&verity_devices, &key);

	if (!dev)
		return 0;
	dev->signed_ = valid;
	if (valid)
		vg_log("verigate: verity device %u:%u signature checked by the kernel: %s",
		       bdev->bd_dev >> 20, bdev->bd_dev & 0xfffff,
		       verity_device_trusted(dev) ? "trusted" : "untrusted");
	return 0;
}

SEC("lsm/bdev_setintegrity")
int BPF_PROG(verigate_bdev_integrity, struct block_device *bdev, enum lsm_integrity_type type,
	     const void *value, __u64 size, int ret)
{
	__u64 key = (__u64)bdev;

	if (ret)
		return ret;
	if (type == bpf_core_enum_value(enum lsm_integrity_type, LSM_INT_DMVERITY_ROOTHASH)) {
		if (arg_is_null(ctx, 2)) { /* dm-verity withdrawing a table that failed preresume */
			bpf_map_delete_elem(&verity_devices, &key);
			return 0;
		}
		return learn_digest(bdev, key);
	}
	if (type == bpf_core_enum_value(enum lsm_integrity_type, LSM_INT_DMVERITY_SIG_VALID))
		return learn_signature(bdev, key, !arg_is_null(ctx, 2));
	return 0;
}

SEC("lsm/bdev_free_security")
int BPF_PROG(verigate_bdev_free, struct block_device *bdev)
{
	__u64 key = (__u64)bdev;

	bpf_map_delete_elem(&verity_devices, &key);
	return 0;
}
