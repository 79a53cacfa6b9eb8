/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VG_KERNEL_FEATURES_H
#define VG_KERNEL_FEATURES_H

#include <stdbool.h>
#include <stddef.h>

/* What the running kernel's LSM hooks look like, as its BTF tells. */
struct vg_kernel_features {
	int bpf_hook_args;       /* parameters of the bpf hook: 3, or 4 since 6.15 */
	bool ioctl_compat_hook;  /* file_ioctl_compat exists (6.8+) */
	bool bdev_integrity_hooks; /* bdev_setintegrity and bdev_free_security (6.12+):
				    * dm-verity tells LSMs each table's root digest */
};

/* Read the features from a kernel's raw BTF (as /sys/kernel/btf/vmlinux
 * holds it). Returns 0, or -1 with err set: also for BTF that is malformed
 * or has a kind this loader does not know. */
int vg_kernel_features_from_btf(const void *btf, size_t size, struct vg_kernel_features *f,
				char *err, size_t errlen);

/* The same from a file of raw BTF. */
int vg_kernel_features_from_file(const char *path, struct vg_kernel_features *f, char *err,
				 size_t errlen);

/* The same for the running kernel (/sys/kernel/btf/vmlinux). */
int vg_kernel_features_probe(struct vg_kernel_features *f, char *err, size_t errlen);

#endif
