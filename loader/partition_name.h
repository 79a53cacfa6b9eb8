/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VERIGATE_PARTITION_NAME_H
#define VERIGATE_PARTITION_NAME_H

#include <stddef.h>

/*
 * The block device majmin ("MAJ:MIN", as a device-mapper table names it)
 * as "MAJ:MIN NAME", NAME being its GPT partition name (sysfs PARTNAME:
 * "root-x86-64" and "root-x86-64-verity" on a discoverable disk image,
 * any character but letters, digits and ._- written as ?), or "MAJ:MIN"
 * alone for a device without one.
 */
void vg_describe_block_device(const char *majmin, char *out, size_t len);

/* The same, from dev_block instead of /sys/dev/block (for tests). */
void vg_describe_block_device_in(const char *dev_block, const char *majmin, char *out,
				 size_t len);

#endif
