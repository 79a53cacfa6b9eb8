// SPDX-License-Identifier: GPL-2.0
#include "partition_name.h"

#include <stdio.h>
#include <string.h>

void vg_describe_block_device(const char *majmin, char *out, size_t len)
{
	char path[96], line[256];
	FILE *uevent;

	snprintf(out, len, "%s", majmin);
	snprintf(path, sizeof(path), "/sys/dev/block/%s/uevent", majmin);
	uevent = fopen(path, "re");
	if (!uevent)
		return;
	while (fgets(line, sizeof(line), uevent))
		if (!strncmp(line, "PARTNAME=", 9) && line[9] != '\n') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, len, "%s %s", majmin, line + 9);
			break;
		}
	fclose(uevent);
}
