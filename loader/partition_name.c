// SPDX-License-Identifier: GPL-2.0
#include "partition_name.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* A GPT name is whatever the disk says: keep letters, digits and ._-, so
 * that it can neither split the loader line's fields nor the view's. */
static void sanitize(char *name)
{
	for (; *name; name++)
		if (!isalnum((unsigned char)*name) && !strchr("._-", *name))
			*name = '?';
}

void vg_describe_block_device_in(const char *dev_block, const char *majmin, char *out,
				 size_t len)
{
	char path[4096], line[256];
	FILE *uevent;

	snprintf(out, len, "%s", majmin);
	snprintf(path, sizeof(path), "%s/%s/uevent", dev_block, majmin);
	uevent = fopen(path, "re");
	if (!uevent)
		return;
	while (fgets(line, sizeof(line), uevent))
		if (!strncmp(line, "PARTNAME=", 9) && line[9] != '\n') {
			line[strcspn(line, "\n")] = '\0';
			sanitize(line + 9);
			snprintf(out, len, "%s %s", majmin, line + 9);
			break;
		}
	fclose(uevent);
}

void vg_describe_block_device(const char *majmin, char *out, size_t len)
{
	vg_describe_block_device_in("/sys/dev/block", majmin, out, len);
}
