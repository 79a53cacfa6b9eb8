// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: vg_dm_reply_parse on any bytes as a DM_TABLE_STATUS
 * reply. The input is copied into a buffer of exactly its size, so that
 * AddressSanitizer sees any read past what the kernel would have filled.
 */
#define _GNU_SOURCE /* memmem */
#include "dm_query.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vg_dm_reply reply;
	char err[256] = "";
	void *buf = malloc(size ? size : 1);
	int ret;

	MUST(buf);
	memcpy(buf, data, size);
	ret = vg_dm_reply_parse(buf, size, &reply, err, sizeof(err));
	MUST(ret == 0 || ret == -1);
	if (ret) {
		MUST(err[0] != '\0' && fuzz_is_printable_line(err));
	} else {
		MUST(memchr(reply.name, '\0', sizeof(reply.name)));
		MUST(memchr(reply.uuid, '\0', sizeof(reply.uuid)));
		MUST(memchr(reply.target_type, '\0', sizeof(reply.target_type)));
		MUST(memchr(reply.params, '\0', sizeof(reply.params)));
		/* A line that was reported is in the reply. */
		if (reply.params[0])
			MUST(size > strlen(reply.params) &&
			     memmem(buf, size, reply.params, strlen(reply.params) + 1));
		if (!reply.target_count)
			MUST(!reply.params[0] && !reply.target_type[0]);
	}
	free(buf);
	return 0;
}
