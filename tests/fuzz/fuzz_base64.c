// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: vg_base64_decode, the framing of
 * rd.verigate.roothash_sig=. The first input byte is the size of the output
 * buffer (times 4); the rest is the text. Whatever it accepts must encode
 * back to exactly that text (one encoding per byte string), and nothing
 * may be written past the buffer.
 */
#include "base64.h"
#include "fuzz.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void encode(const unsigned char *in, size_t len, char *out)
{
	size_t i, o = 0;

	for (i = 0; i < len; i += 3) {
		unsigned long acc = (unsigned long)in[i] << 16;

		if (i + 1 < len)
			acc |= (unsigned long)in[i + 1] << 8;
		if (i + 2 < len)
			acc |= in[i + 2];
		out[o++] = alphabet[acc >> 18 & 63];
		out[o++] = alphabet[acc >> 12 & 63];
		out[o++] = i + 1 < len ? alphabet[acc >> 6 & 63] : '=';
		out[o++] = i + 2 < len ? alphabet[acc & 63] : '=';
	}
	out[o] = '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char out[1024 + 16];
	size_t outlen, len, i;
	char *back;
	int n;

	if (size < 1)
		return 0;
	outlen = (size_t)data[0] * 4;
	len = size - 1;
	memset(out, 0xa5, sizeof(out));
	n = vg_base64_decode((const char *)data + 1, len, out, outlen);
	MUST(n >= -1);
	for (i = n < 0 ? outlen : (size_t)n; i < sizeof(out); i++)
		MUST(out[i] == 0xa5);
	if (n < 0)
		return 0;
	MUST(n > 0 && len % 4 == 0 && (size_t)n <= outlen);
	MUST((size_t)n <= len / 4 * 3 && (size_t)n + 2 >= len / 4 * 3);
	back = malloc(len + 1);
	MUST(back);
	encode(out, (size_t)n, back);
	MUST(strlen(back) == len && !memcmp(back, data + 1, len));
	free(back);
	return 0;
}
