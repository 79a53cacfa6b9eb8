// SPDX-License-Identifier: GPL-2.0
#include "base64.h"

static int sextet(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

int vg_base64_decode(const char *in, size_t len, unsigned char *out, size_t outlen)
{
	size_t pad = 0, n, i, o = 0;
	unsigned long acc = 0;

	if (!in || !out || !len || len % 4)
		return -1;
	while (pad < 2 && in[len - 1 - pad] == '=')
		pad++;
	n = len / 4 * 3 - pad;
	if (n > outlen || n > 0x7fffffff)
		return -1;
	for (i = 0; i < len - pad; i++) {
		int v = sextet(in[i]);

		if (v < 0)
			return -1;
		acc = acc << 6 | (unsigned long)v;
		if (i % 4 == 3) {
			out[o++] = acc >> 16;
			out[o++] = acc >> 8;
			out[o++] = acc;
			acc = 0;
		}
	}
	/* The last group: 2 or 3 characters carry 1 or 2 bytes, and the bits
	 * they do not use must be zero (one encoding per byte string). */
	if (pad == 2) {
		if (acc & 0xf)
			return -1;
		out[o++] = acc >> 4;
	} else if (pad == 1) {
		if (acc & 0x3)
			return -1;
		out[o++] = acc >> 10;
		out[o++] = acc >> 2;
	}
	return (int)o;
}
