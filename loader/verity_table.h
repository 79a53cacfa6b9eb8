/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VG_VERITY_TABLE_H
#define VG_VERITY_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "hex.h"

/* The fields of a live dm-verity table line that verigate relies on. */
struct vg_verity_table {
	unsigned int version;
	char data_dev[32];
	char hash_dev[32];
	char algorithm[32];
	char root_digest[VG_HASH_HEX_MAX + 1]; /* lower-case hex */
};

/*
 * Parse the parameter string of a "verity" target as the kernel reports it
 * in DM_TABLE_STATUS with DM_STATUS_TABLE_FLAG:
 *   <version> <data_dev> <hash_dev> <data_block_size> <hash_block_size>
 *   <num_data_blocks> <hash_start_block> <algorithm> <digest> <salt>
 *   [<#opt_params> <opt_params>...]
 * Options that switch off verification of every read (ignore_corruption,
 * check_at_most_once) are refused. Returns 0 or -1 with a message in err.
 */
int vg_verity_table_parse(const char *params, struct vg_verity_table *t,
			  char *err, size_t errlen);

/* A verity target's status line (STATUSTYPE_INFO) starts with 'V' while no
 * corruption has been seen, 'C' after. */
bool vg_verity_status_ok(const char *status);

#endif
