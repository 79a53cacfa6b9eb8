/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VG_ROOT_VERIFY_H
#define VG_ROOT_VERIFY_H

#include <stddef.h>
#include <sys/types.h>

#include "verity_table.h"

struct vg_root {
	dev_t dev; /* of the filesystem mounted at the verified tree */
	char dm_name[128];
	char dm_uuid[129];
	struct vg_verity_table table;
};

/*
 * Check that dir (the new root, or its /usr) is a read-only mount of a
 * device-mapper device whose live table is a single verity target with root
 * digest roothash (lower-case hex), and that verity has seen no corruption.
 * option ("roothash" or "usrhash") names where roothash came from in
 * messages. Returns 0, or -1 with the reason in err.
 */
int vg_root_verify(const char *dir, const char *option, const char *roothash,
		   struct vg_root *root, char *err, size_t errlen);

/*
 * The device-mapper half of vg_root_verify for the block device at path,
 * before anything is mounted from it, plus one read of its first block:
 * dm-verity fails that read when roothash does not match the hash tree.
 */
int vg_verity_device_verify(const char *path, const char *option, const char *roothash,
			    struct vg_root *root, char *err, size_t errlen);

#endif
