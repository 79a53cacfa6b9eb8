// SPDX-License-Identifier: GPL-2.0
#include "root_verify.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dm_query.h"

static int check_mount(const char *dir, dev_t *dev, char *err, size_t errlen)
{
	char parent[4096];
	struct stat st, pst;
	struct statvfs vfs;

	if (snprintf(parent, sizeof(parent), "%s/..", dir) >= (int)sizeof(parent) ||
	    stat(dir, &st) || stat(parent, &pst) || statvfs(dir, &vfs)) {
		snprintf(err, errlen, "cannot stat %s: %s", dir, strerror(errno));
		return -1;
	}
	if (st.st_dev == pst.st_dev) {
		snprintf(err, errlen, "nothing is mounted at %s", dir);
		return -1;
	}
	if (!(vfs.f_flag & ST_RDONLY)) {
		snprintf(err, errlen, "%s is mounted read-write; verity devices are read-only",
			 dir);
		return -1;
	}
	*dev = st.st_dev;
	return 0;
}

static int check_single_verity(const struct vg_dm_reply *r, dev_t dev, char *err,
			       size_t errlen)
{
	if (!r->live_table || r->suspended) {
		snprintf(err, errlen, "dm device %s (%u:%u) has no live table or is suspended",
			 r->name, major(dev), minor(dev));
		return -1;
	}
	if (r->target_count != 1 || strcmp(r->target_type, "verity")) {
		snprintf(err, errlen,
			 "dm device %s (%u:%u) is not a single verity target (%u targets, first \"%s\")",
			 r->name, major(dev), minor(dev), r->target_count, r->target_type);
		return -1;
	}
	return 0;
}

static int check_dm_verity(const char *option, const char *roothash, struct vg_root *root,
			   char *err, size_t errlen)
{
	struct vg_dm_reply reply;
	char why[256];

	if (vg_dm_query(root->dev, false, &reply, err, errlen) ||
	    check_single_verity(&reply, root->dev, err, errlen))
		return -1;
	if (!vg_verity_status_ok(reply.params)) {
		snprintf(err, errlen,
			 "verity device %s reports corruption: %s=%s does not match its hash device, or the data is corrupt",
			 reply.name, option, roothash);
		return -1;
	}

	if (vg_dm_query(root->dev, true, &reply, err, errlen) ||
	    check_single_verity(&reply, root->dev, err, errlen))
		return -1;
	snprintf(root->dm_name, sizeof(root->dm_name), "%s", reply.name);
	snprintf(root->dm_uuid, sizeof(root->dm_uuid), "%s", reply.uuid);
	if (vg_verity_table_parse(reply.params, &root->table, why, sizeof(why))) {
		snprintf(err, errlen, "verity device %s: %s", reply.name, why);
		return -1;
	}
	if (strcmp(root->table.root_digest, roothash)) {
		snprintf(err, errlen,
			 "verity device %s has root hash %s, but %s= is %s",
			 reply.name, root->table.root_digest, option, roothash);
		return -1;
	}
	return 0;
}

int vg_root_verify(const char *dir, const char *option, const char *roothash,
		   struct vg_root *root, char *err, size_t errlen)
{
	memset(root, 0, sizeof(*root));
	if (check_mount(dir, &root->dev, err, errlen))
		return -1;
	return check_dm_verity(option, roothash, root, err, errlen);
}

static int read_first_block(const char *path, const char *option, const char *roothash,
			    char *err, size_t errlen)
{
	char block[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errlen, "open %s: %s", path, strerror(errno));
		return -1;
	}
	n = pread(fd, block, sizeof(block), 0);
	if (n < 0 && errno == EIO)
		snprintf(err, errlen,
			 "verity device %s refuses reads: %s=%s does not match its hash device, or the data is corrupt",
			 path, option, roothash);
	else if (n < 0)
		snprintf(err, errlen, "read %s: %s", path, strerror(errno));
	close(fd);
	return n < 0 ? -1 : 0;
}

int vg_verity_device_verify(const char *path, const char *option, const char *roothash,
			    struct vg_root *root, char *err, size_t errlen)
{
	struct stat st;

	memset(root, 0, sizeof(*root));
	if (stat(path, &st) || !S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "%s is not a block device", path);
		return -1;
	}
	root->dev = st.st_rdev;
	if (check_dm_verity(option, roothash, root, err, errlen))
		return -1;
	return read_first_block(path, option, roothash, err, errlen);
}
