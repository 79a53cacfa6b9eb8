// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: vg_hex_normalize and vg_hex_to_bytes. The first input
 * byte is the size of the output buffer; the rest is the digest text.
 * Accepting is checked against the rule in hex.h, and the bytes against a
 * round trip back to hex.
 */
#include <ctype.h>

#include "fuzz.h"
#include "hex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char out[256], back[2 * VG_HASH_HEX_MAX + 1];
	unsigned char bytes[VG_HASH_HEX_MAX / 2];
	size_t outlen, len, i;
	int ret, want = 1, n;

	if (size < 1)
		return 0;
	outlen = data[0];
	len = size - 1;
	memset(out, 'x', sizeof(out));
	ret = vg_hex_normalize((const char *)data + 1, len, out, outlen);

	if (len % 2 || len < VG_HASH_HEX_MIN || len > VG_HASH_HEX_MAX || outlen < len + 1)
		want = 0;
	for (i = 0; want && i < len; i++)
		if (!isxdigit(data[1 + i]))
			want = 0;
	MUST(ret == (want ? 0 : -1));
	if (ret) {
		/* Nothing is written past the buffer the caller gave. */
		for (i = outlen; i < sizeof(out); i++)
			MUST(out[i] == 'x');
		return 0;
	}
	MUST(strlen(out) == len && fuzz_is_normal_hex(out));
	for (i = 0; i < len; i++)
		MUST(out[i] == tolower(data[1 + i]));

	MUST(vg_hex_to_bytes(out, bytes, len / 2 - 1) == -1);
	n = vg_hex_to_bytes(out, bytes, sizeof(bytes));
	MUST(n == (int)(len / 2));
	for (i = 0; i < (size_t)n; i++)
		snprintf(back + 2 * i, 3, "%02x", bytes[i]);
	MUST(!strcmp(back, out));
	return 0;
}
