// SPDX-License-Identifier: GPL-2.0
#include "anchor.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#define ROOTFS_ANCHOR "/verigate-pins"
#define RUN_ANCHOR "/run/verigate-pins"

/* Private: an unmount elsewhere, in any namespace, never reaches it. */
static int bind_private(const char *pin_dir, const char *at, char *err, size_t errlen)
{
	if (mount(pin_dir, at, NULL, MS_BIND, NULL) || mount(NULL, at, NULL, MS_PRIVATE, NULL)) {
		snprintf(err, errlen, "bind %s at %s: %s", pin_dir, at, strerror(errno));
		return -1;
	}
	return 0;
}

/* A new directory at, on the filesystem of parent (nothing mounted on it). */
static int make_dir_on(const char *parent, const char *at, char *err, size_t errlen)
{
	struct stat p, a;

	if (mkdir(at, 0700) && errno != EEXIST) {
		snprintf(err, errlen, "create %s: %s", at, strerror(errno));
		return -1;
	}
	if (stat(parent, &p) || stat(at, &a) || p.st_dev != a.st_dev) {
		snprintf(err, errlen, "%s is not on the filesystem of %s", at, parent);
		return -1;
	}
	return 0;
}

int vg_anchor_pins(const char *pin_dir, char *err, size_t errlen)
{
	/* A directory of rootfs itself: one on another filesystem would move
	 * into the real root with it. */
	if (make_dir_on("/", ROOTFS_ANCHOR, err, errlen) ||
	    bind_private(pin_dir, ROOTFS_ANCHOR, err, errlen))
		return -1;
	if (make_dir_on("/run", RUN_ANCHOR, err, errlen) ||
	    bind_private(pin_dir, RUN_ANCHOR, err, errlen))
		return -1;
	return 0;
}
