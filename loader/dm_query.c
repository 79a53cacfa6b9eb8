// SPDX-License-Identifier: GPL-2.0
#include "dm_query.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define DM_CONTROL "/dev/mapper/control"
#define DM_BUFFER 16384

int vg_dm_reply_parse(const void *buf, size_t len, struct vg_dm_reply *reply, char *err,
		      size_t errlen)
{
	struct dm_target_spec spec;
	struct dm_ioctl dmi;
	const char *params, *end;

	memset(reply, 0, sizeof(*reply));
	/* The header and the first target's spec may sit at any offset:
	 * copied out, not cast. */
	if (len < sizeof(dmi)) {
		snprintf(err, errlen, "device-mapper reply too short");
		return -1;
	}
	memcpy(&dmi, buf, sizeof(dmi));
	if (dmi.data_size > len || dmi.data_size < sizeof(dmi)) {
		snprintf(err, errlen, "device-mapper reply size %u outside the %zu-byte buffer",
			 dmi.data_size, len);
		return -1;
	}
	snprintf(reply->name, sizeof(reply->name), "%.*s", DM_NAME_LEN, dmi.name);
	snprintf(reply->uuid, sizeof(reply->uuid), "%.*s", DM_UUID_LEN, dmi.uuid);
	reply->target_count = dmi.target_count;
	reply->live_table = dmi.flags & DM_ACTIVE_PRESENT_FLAG;
	reply->suspended = dmi.flags & DM_SUSPEND_FLAG;
	if (!dmi.target_count)
		return 0;
	if (dmi.data_start < sizeof(dmi) ||
	    (size_t)dmi.data_start + sizeof(spec) > dmi.data_size) {
		snprintf(err, errlen, "device-mapper reply too short");
		return -1;
	}
	memcpy(&spec, (const char *)buf + dmi.data_start, sizeof(spec));
	params = (const char *)buf + dmi.data_start + sizeof(spec);
	end = (const char *)buf + dmi.data_size;
	if (!memchr(params, '\0', end - params)) {
		snprintf(err, errlen, "device-mapper reply not terminated");
		return -1;
	}
	snprintf(reply->target_type, sizeof(reply->target_type), "%.*s",
		 DM_MAX_TYPE_NAME, spec.target_type);
	if (snprintf(reply->params, sizeof(reply->params), "%s", params) >=
	    (int)sizeof(reply->params)) {
		snprintf(err, errlen, "device-mapper table line too long");
		return -1;
	}
	return 0;
}

int vg_dm_query(dev_t dev, bool want_table, struct vg_dm_reply *reply, char *err,
		size_t errlen)
{
	_Alignas(struct dm_ioctl) char buf[DM_BUFFER];
	struct dm_ioctl *dmi = (struct dm_ioctl *)buf;
	int fd, rc;

	memset(buf, 0, sizeof(buf));
	dmi->version[0] = DM_VERSION_MAJOR;
	dmi->data_size = sizeof(buf);
	dmi->data_start = sizeof(*dmi);
	dmi->dev = dev;
	dmi->flags = want_table ? DM_STATUS_TABLE_FLAG : 0;

	fd = open(DM_CONTROL, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "open %s: %s", DM_CONTROL, strerror(errno));
		return -1;
	}
	rc = ioctl(fd, DM_TABLE_STATUS, dmi);
	close(fd);
	if (rc) {
		snprintf(err, errlen, "device %u:%u is not a device-mapper device (%s)",
			 major(dev), minor(dev), strerror(errno));
		return -1;
	}
	if (dmi->flags & DM_BUFFER_FULL_FLAG) {
		snprintf(err, errlen, "device-mapper table of %u:%u too large",
			 major(dev), minor(dev));
		return -1;
	}
	return vg_dm_reply_parse(buf, sizeof(buf), reply, err, errlen);
}
