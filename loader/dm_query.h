/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VG_DM_QUERY_H
#define VG_DM_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* What the device-mapper reports about a device's live table. */
struct vg_dm_reply {
	char name[128];
	char uuid[129];
	unsigned int target_count;
	bool live_table;
	bool suspended;
	char target_type[16]; /* of the first target */
	char params[4096];    /* of the first target: table line or status */
};

/*
 * Ask the kernel (DM_TABLE_STATUS on /dev/mapper/control) about the device
 * with number dev: its table lines if want_table, its status lines otherwise.
 * Returns 0, or -1 with a message in err.
 */
int vg_dm_query(dev_t dev, bool want_table, struct vg_dm_reply *reply, char *err,
		size_t errlen);

/*
 * The reply of DM_TABLE_STATUS in buf[0..len): a struct dm_ioctl, then (with
 * targets) the first target's dm_target_spec and its NUL-terminated line.
 * Checks every size and offset against len. Returns 0, or -1 with a
 * message in err.
 */
int vg_dm_reply_parse(const void *buf, size_t len, struct vg_dm_reply *reply, char *err,
		      size_t errlen);

#endif
