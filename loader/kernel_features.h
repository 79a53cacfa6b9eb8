/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VG_KERNEL_FEATURES_H
#define VG_KERNEL_FEATURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the running kernel's LSM hooks look like, as its BTF tells. */
struct vg_kernel_features {
	int bpf_hook_args;       /* parameters of the bpf hook: 3, or 4 since 6.15 */
	bool ioctl_compat_hook;  /* file_ioctl_compat exists (6.8+) */
	bool bdev_integrity_hooks; /* bdev_setintegrity and bdev_free_security (6.12+):
				    * dm-verity tells LSMs each table's root digest */
	bool execve_check;         /* execveat(AT_EXECVE_CHECK) (6.14+): struct
				    * linux_binprm has is_check */
	bool real_data_inode;      /* the kfunc bpf_real_data_inode(file) (7.2):
				    * an overlay file's data layer */
};

/* Kernel functions whose BTF ids the caller wants from the same pass (the
 * programs' attach targets, such as bpf_lsm_file_open): ids[i] becomes the
 * id of the function named names[i], or 0 if the kernel has none. */
struct vg_btf_funcs {
	size_t count;
	const char *const *names;
	uint32_t *ids;
};

/* Read the features, and the ids of funcs (NULL for none), from a kernel's
 * raw BTF (as /sys/kernel/btf/vmlinux holds it). Returns 0, or -1 with err
 * set: also for BTF that is malformed or has a kind this loader does not
 * know. */
int vg_kernel_features_from_btf(const void *btf, size_t size, struct vg_btf_funcs *funcs,
				struct vg_kernel_features *f, char *err, size_t errlen);

/* The same from a file of raw BTF. */
int vg_kernel_features_from_file(const char *path, struct vg_btf_funcs *funcs,
				 struct vg_kernel_features *f, char *err, size_t errlen);

/* The same for the running kernel (/sys/kernel/btf/vmlinux). */
int vg_kernel_features_probe(struct vg_btf_funcs *funcs, struct vg_kernel_features *f,
			     char *err, size_t errlen);

/* A file of raw BTF, whole in memory (a sysfs file reports its size);
 * NULL with err set. */
void *vg_btf_read(const char *path, size_t *size, char *err, size_t errlen);

/* The name of type id in raw BTF, or NULL (no such type, or BTF this
 * loader cannot read). It walks the types up to id: for a few lookups. */
const char *vg_btf_type_name(const void *btf, size_t size, uint32_t id);

#endif
