// SPDX-License-Identifier: GPL-2.0
#include "hex.h"

#include <string.h>

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

int vg_hex_normalize(const char *in, size_t len, char *out, size_t outlen)
{
	size_t i;

	if (!in || !out || len % 2 || len < VG_HASH_HEX_MIN ||
	    len > VG_HASH_HEX_MAX || outlen < len + 1)
		return -1;
	for (i = 0; i < len; i++) {
		if (!is_hex(in[i]))
			return -1;
		out[i] = (in[i] >= 'A' && in[i] <= 'F') ? in[i] - 'A' + 'a' : in[i];
	}
	out[len] = '\0';
	return 0;
}

static unsigned char nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	return (c | 0x20) - 'a' + 10;
}

int vg_hex_to_bytes(const char *hex, unsigned char *out, size_t outlen)
{
	size_t i, len = strlen(hex) / 2;

	if (len > outlen)
		return -1;
	for (i = 0; i < len; i++)
		out[i] = nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]);
	return len;
}

int vg_bytes_to_hex(const unsigned char *in, size_t len, char *out, size_t outlen)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	if (outlen < 2 * len + 1)
		return -1;
	for (i = 0; i < len; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 0xf];
	}
	out[2 * len] = '\0';
	return 0;
}
