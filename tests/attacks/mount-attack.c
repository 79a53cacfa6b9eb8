// SPDX-License-Identifier: GPL-2.0
/*
 * mount-attack: try to hide, move or unmount the bpffs that holds the pins.
 *   mount-attack over TARGET        mount a tmpfs on TARGET (then unmount it)
 *   mount-attack move FROM TO       mount(2) MS_MOVE FROM to TO (then back)
 *   mount-attack umount TARGET      umount2(TARGET, 0)
 *   mount-attack umount-lazy TARGET umount2(TARGET, MNT_DETACH)
 * Prints "allowed" (exit 0) or "denied errno=NAME (...)" (exit 1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "outcome.h"

int main(int argc, char **argv)
{
	int rc;

	if (argc == 3 && !strcmp(argv[1], "over")) {
		rc = mount("none", argv[2], "tmpfs", 0, NULL);
		if (!rc)
			umount2(argv[2], 0);
		return result(rc, "mount tmpfs");
	}
	if (argc == 4 && !strcmp(argv[1], "move")) {
		rc = mount(argv[2], argv[3], NULL, MS_MOVE, NULL);
		if (!rc)
			mount(argv[3], argv[2], NULL, MS_MOVE, NULL);
		return result(rc, "mount MS_MOVE");
	}
	if (argc == 3 && !strcmp(argv[1], "umount"))
		return result(umount2(argv[2], 0), "umount");
	if (argc == 3 && !strcmp(argv[1], "umount-lazy"))
		return result(umount2(argv[2], MNT_DETACH), "umount MNT_DETACH");
	fprintf(stderr, "usage: see the comment at the top of mount-attack.c\n");
	return 2;
}
