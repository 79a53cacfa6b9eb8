// SPDX-License-Identifier: GPL-2.0
/* Unit tests for vg_describe_block_device_in (loader/partition_name.c),
 * on uevent files written in a temporary directory. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "partition_name.h"
#include "unit.h"

static char dir[] = "/tmp/vg-partition-name.XXXXXX";
static char out[128];

/* A device MAJMIN whose uevent file holds text ("" for none). */
static const char *describe(const char *majmin, const char *text)
{
	char path[256];
	FILE *f;

	if (!mkdtemp(dir))
		return "mkdtemp failed";
	if (text) {
		snprintf(path, sizeof(path), "%s/%s", dir, majmin);
		mkdir(path, 0700);
		snprintf(path, sizeof(path), "%s/%s/uevent", dir, majmin);
		f = fopen(path, "w");
		if (!f)
			return "fopen failed";
		fputs(text, f);
		fclose(f);
	}
	vg_describe_block_device_in(dir, majmin, out, sizeof(out));
	if (text) {
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s", dir, majmin);
		rmdir(path);
	}
	rmdir(dir);
	snprintf(dir, sizeof(dir), "/tmp/vg-partition-name.XXXXXX");
	return out;
}

TEST(gpt_partition_named)
{
	CHECK_STR_EQ(describe("254:2", "MAJOR=254\nMINOR=2\nDEVNAME=vda2\nDEVTYPE=partition\n"
					"PARTN=2\nPARTNAME=root-x86-64\n"),
		     "254:2 root-x86-64");
}

TEST(device_without_partition_name)
{
	CHECK_STR_EQ(describe("253:0", "MAJOR=253\nMINOR=0\nDEVNAME=dm-0\nDEVTYPE=disk\n"),
		     "253:0");
	CHECK_STR_EQ(describe("254:3", "PARTNAME=\n"), "254:3");
}

TEST(no_such_device)
{
	CHECK_STR_EQ(describe("254:9", NULL), "254:9");
}

/* A name cannot add fields to the loader line or the status view. */
TEST(name_sanitized)
{
	CHECK_STR_EQ(describe("254:2", "PARTNAME=root x86 anon_exec=deny\n"),
		     "254:2 root?x86?anon_exec?deny");
	CHECK_STR_EQ(describe("254:2", "PARTNAME=r\xc3\xa9,t\n"), "254:2 r???t");
}

int main(int argc, char **argv)
{
	unit_init(argc, argv);
	RUN(gpt_partition_named);
	RUN(device_without_partition_name);
	RUN(no_such_device);
	RUN(name_sanitized);
	return unit_done();
}
