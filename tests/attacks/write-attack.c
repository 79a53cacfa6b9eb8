// SPDX-License-Identifier: GPL-2.0
/*
 * write-attack: try to change the verified tree while it runs.
 *   write-attack remount-rw DIR   remount the filesystem at DIR read-write
 *                                 (and back to read-only if that worked)
 *   write-attack write-dev DEV    open the block device DEV for writing and
 *                                 write its first 4 KiB back unchanged
 *   write-attack write PATH [TEXT] open PATH write-only, write TEXT (or a
 *                                 line of its own) to it
 * Prints "allowed" (exit 0) or "denied errno=NAME (...)" (exit 1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "outcome.h"

static int remount_rw(const char *dir)
{
	if (mount(NULL, dir, NULL, MS_REMOUNT, NULL))
		return denied("mount MS_REMOUNT read-write");
	mount(NULL, dir, NULL, MS_REMOUNT | MS_RDONLY, NULL);
	return allowed();
}

static int write_dev(const char *dev)
{
	char block[4096];
	int fd = open(dev, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return denied("open O_RDWR");
	if (pread(fd, block, sizeof(block), 0) != (ssize_t)sizeof(block)) {
		close(fd);
		return denied("pread");
	}
	if (pwrite(fd, block, sizeof(block), 0) != (ssize_t)sizeof(block) || fsync(fd)) {
		close(fd);
		return denied("pwrite");
	}
	close(fd);
	return allowed();
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return denied("open O_WRONLY");
	if (write(fd, text, strlen(text)) < 0)
		return denied("write");
	close(fd);
	return allowed();
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "remount-rw"))
		return remount_rw(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "write-dev"))
		return write_dev(argv[2]);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "write"))
		return write_text(argv[2], argc == 4 ? argv[3] : "verigate write-attack\n");
	fprintf(stderr, "usage: see the comment at the top of write-attack.c\n");
	return 2;
}
