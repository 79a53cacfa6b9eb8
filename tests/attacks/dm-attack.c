// SPDX-License-Identifier: GPL-2.0
/*
 * dm-attack: try to reconfigure a device-mapper device (raw ioctls on
 * /dev/mapper/control). None of them leaves a change behind when it works,
 * except remove.
 *   dm-attack reload-verity NAME HEXHASH  load NAME's verity table with
 *                                         root digest HEXHASH into its
 *                                         inactive slot, then clear that
 *                                         slot (never resume)
 *   dm-attack suspend NAME                suspend NAME, then resume it
 *   dm-attack remove NAME                 remove NAME (EBUSY while mounted)
 *   dm-attack rename NAME NEWNAME         rename NAME, then rename it back
 * Prints "allowed" (exit 0) or "denied errno=NAME (...)" (exit 1); 2 on
 * misuse or setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "outcome.h"

#define DM_BUFFER 16384

struct dm_buf {
	struct dm_ioctl io;
	char data[DM_BUFFER];
};

static int control = -1;

static int setup_error(const char *what)
{
	fprintf(stderr, "dm-attack: %s\n", what);
	return 2;
}

/* A request for device NAME with no payload yet. */
static void dm_init(struct dm_buf *b, const char *name, __u32 flags)
{
	memset(b, 0, sizeof(*b));
	b->io.version[0] = DM_VERSION_MAJOR;
	b->io.data_size = sizeof(*b);
	b->io.data_start = sizeof(b->io);
	b->io.flags = flags;
	snprintf(b->io.name, sizeof(b->io.name), "%s", name);
}

static int dm(unsigned long cmd, struct dm_buf *b)
{
	if (control < 0 && (control = open("/dev/mapper/control", O_RDWR | O_CLOEXEC)) < 0) {
		perror("dm-attack: /dev/mapper/control");
		exit(2);
	}
	return ioctl(control, cmd, b);
}

static int reload_verity(const char *name, const char *hash)
{
	static struct dm_buf b;
	struct dm_target_spec *spec, target;
	char table[DM_BUFFER / 2], *params, *digest, *end;
	int i;

	dm_init(&b, name, DM_STATUS_TABLE_FLAG);
	if (dm(DM_TABLE_STATUS, &b))
		return denied("DM_TABLE_STATUS");
	spec = (struct dm_target_spec *)((char *)&b + b.io.data_start);
	params = (char *)(spec + 1);
	if (b.io.target_count != 1 || (b.io.flags & DM_BUFFER_FULL_FLAG) ||
	    strcmp(spec->target_type, "verity") ||
	    !memchr(params, '\0', (char *)&b + b.io.data_size - params))
		return setup_error("not a single verity target");
	/* verity: version data hash dbs hbs blocks start algorithm DIGEST salt ... */
	digest = params;
	for (i = 0; i < 8 && digest; i++)
		if ((digest = strchr(digest, ' ')))
			digest++;
	if (!digest)
		return setup_error("verity table has no root digest");
	end = digest + strcspn(digest, " ");
	if (snprintf(table, sizeof(table), "%.*s%s%s", (int)(digest - params), params, hash,
		     end) >= (int)sizeof(table))
		return setup_error("table too long");
	target = *spec;

	/* The same target with the new line; verity wants a read-only table. */
	dm_init(&b, name, DM_READONLY_FLAG);
	b.io.target_count = 1;
	spec = (struct dm_target_spec *)b.data;
	*spec = target;
	spec->status = 0;
	spec->next = 0;
	strcpy((char *)(spec + 1), table);
	if (dm(DM_TABLE_LOAD, &b))
		return denied("DM_TABLE_LOAD");
	dm_init(&b, name, 0);
	if (dm(DM_TABLE_CLEAR, &b))
		return setup_error("loaded, but DM_TABLE_CLEAR failed");
	return allowed();
}

/* Nothing may touch a filesystem between suspend and resume: the root may
 * live on NAME. Both requests are built first and all memory is locked. */
static int suspend(const char *name)
{
	static struct dm_buf sus, res;

	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		return setup_error("mlockall failed");
	dm_init(&sus, name, DM_SUSPEND_FLAG);
	dm_init(&res, name, 0);
	if (dm(DM_DEV_SUSPEND, &sus))
		return denied("DM_DEV_SUSPEND");
	if (dm(DM_DEV_SUSPEND, &res)) {
		fprintf(stderr, "dm-attack: resume of %s failed: %s\n", name, strerror(errno));
		return 2;
	}
	return allowed();
}

static int rename_dev(const char *name, const char *new_name)
{
	static struct dm_buf b;

	dm_init(&b, name, 0);
	snprintf(b.data, DM_NAME_LEN, "%s", new_name);
	if (dm(DM_DEV_RENAME, &b))
		return denied("DM_DEV_RENAME");
	dm_init(&b, new_name, 0);
	snprintf(b.data, DM_NAME_LEN, "%s", name);
	if (dm(DM_DEV_RENAME, &b))
		return setup_error("renamed, but renaming back failed");
	return allowed();
}

int main(int argc, char **argv)
{
	static struct dm_buf b;

	if ((argc > 2 && strlen(argv[2]) >= DM_NAME_LEN) ||
	    (argc == 4 && !strcmp(argv[1], "rename") && strlen(argv[3]) >= DM_NAME_LEN))
		return setup_error("device name too long");
	if (argc == 4 && !strcmp(argv[1], "reload-verity"))
		return reload_verity(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "suspend"))
		return suspend(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "remove")) {
		dm_init(&b, argv[2], 0);
		if (dm(DM_DEV_REMOVE, &b))
			return denied("DM_DEV_REMOVE");
		return allowed();
	}
	if (argc == 4 && !strcmp(argv[1], "rename"))
		return rename_dev(argv[2], argv[3]);
	fprintf(stderr, "usage: see the comment at the top of dm-attack.c\n");
	return 2;
}
