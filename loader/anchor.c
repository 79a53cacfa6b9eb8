// SPDX-License-Identifier: GPL-2.0
#include "anchor.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#define ANCHOR "/verigate-pins"

int vg_anchor_pins(const char *pin_dir, char *err, size_t errlen)
{
	struct stat root, anchor;

	if (mkdir(ANCHOR, 0700) && errno != EEXIST) {
		snprintf(err, errlen, "create %s: %s", ANCHOR, strerror(errno));
		return -1;
	}
	/* On the initramfs itself: a directory on another filesystem would
	 * move into the real root with it. */
	if (stat("/", &root) || stat(ANCHOR, &anchor) || root.st_dev != anchor.st_dev) {
		snprintf(err, errlen, "%s is not on the initramfs's root filesystem", ANCHOR);
		return -1;
	}
	/* Private: an unmount elsewhere, in any namespace, never reaches it. */
	if (mount(pin_dir, ANCHOR, NULL, MS_BIND, NULL) ||
	    mount(NULL, ANCHOR, NULL, MS_PRIVATE, NULL)) {
		snprintf(err, errlen, "bind %s at %s: %s", pin_dir, ANCHOR, strerror(errno));
		return -1;
	}
	return 0;
}
