// SPDX-License-Identifier: GPL-2.0
/* Unit tests for vg_hex_normalize (loader/hex.c). */
#include <stdlib.h>

#include "hex.h"
#include "unit.h"

#define H32 "0123456789abcdef0123456789abcdef"
#define H64 H32 H32

static char out[512];

/* vg_hex_normalize on a NUL-terminated string, out being the whole buffer */
static int norm(const char *in)
{
	memset(out, 'X', sizeof(out));
	return vg_hex_normalize(in, strlen(in), out, sizeof(out));
}

TEST(lower_kept)
{
	CHECK_INT_EQ(norm(H64), 0);
	CHECK_STR_EQ(out, H64);
}

TEST(upper_lowered)
{
	CHECK_INT_EQ(norm("0123456789ABCDEF0123456789ABCDEF"), 0);
	CHECK_STR_EQ(out, H32);
	CHECK_INT_EQ(norm("ABCDEFABCDEFABCDEFABCDEFABCDEFAB"), 0);
	CHECK_STR_EQ(out, "abcdefabcdefabcdefabcdefabcdefab");
}

TEST(mixed_lowered)
{
	CHECK_INT_EQ(norm("aBcDeF0123456789AbCdEf0123456789" H32), 0);
	CHECK_STR_EQ(out, "abcdef0123456789abcdef0123456789" H32);
}

/* Every byte value at one position: only 0-9, a-f, A-F pass, and map right. */
TEST(every_byte_value)
{
	char in[33];
	int c;

	for (c = 0; c < 256; c++) {
		bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
			   (c >= 'A' && c <= 'F');
		int rc;

		memcpy(in, unit_repeat('0', 32), 33);
		in[7] = (char)c;
		memset(out, 'X', sizeof(out));
		rc = vg_hex_normalize(in, 32, out, sizeof(out));
		if (rc != (hex ? 0 : -1)) {
			unit_fail(__FILE__, __LINE__, "byte 0x%02x: got %d", c, rc);
			continue;
		}
		CHECK(!hex || out[7] == (c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c));
		CHECK(!hex || out[32] == '\0');
	}
}

TEST(rejects_g_space_highbit)
{
	CHECK_INT_EQ(norm("g123456789abcdef0123456789abcdef"), -1);
	CHECK_INT_EQ(norm("0123456789abcdef0123456789abcdeG"), -1);
	CHECK_INT_EQ(norm("0123456789abcdef 123456789abcdef"), -1);
	CHECK_INT_EQ(norm("0123456789abcdef0123456789abcde\xff"), -1);
	CHECK_INT_EQ(norm("\xe0\xb3\xa6" "0123456789abcdef0123456789abc"), -1);
	CHECK_INT_EQ(norm("0x23456789abcdef0123456789abcdef"), -1);
	CHECK_INT_EQ(norm("-123456789abcdef0123456789abcdef"), -1);
}

TEST(nul_inside_len)
{
	char in[64];

	memcpy(in, H64, 64);
	in[10] = '\0';
	CHECK_INT_EQ(vg_hex_normalize(in, 64, out, sizeof(out)), -1);
	memcpy(in, H64, 64);
	in[63] = '\0';
	CHECK_INT_EQ(vg_hex_normalize(in, 64, out, sizeof(out)), -1);
}

TEST(lengths)
{
	size_t len;

	for (len = 0; len <= 300; len++) {
		int want = (len % 2 == 0 && len >= 32 && len <= 128) ? 0 : -1;
		int rc = norm(unit_repeat('a', len));

		if (rc != want)
			unit_fail(__FILE__, __LINE__, "len %zu: got %d, want %d",
				  len, rc, want);
		CHECK(rc || (strlen(out) == len && !strcmp(out, unit_repeat('a', len))));
	}
	/* the boundaries, by name */
	CHECK_INT_EQ(norm(unit_repeat('f', 30)), -1);
	CHECK_INT_EQ(norm(unit_repeat('f', 32)), 0);
	CHECK_INT_EQ(norm(unit_repeat('f', 33)), -1);
	CHECK_INT_EQ(norm(unit_repeat('f', 128)), 0);
	CHECK_INT_EQ(norm(unit_repeat('f', 129)), -1);
	CHECK_INT_EQ(norm(unit_repeat('f', 130)), -1);
	CHECK_INT_EQ(norm(""), -1);
}

TEST(out_buffer_size)
{
	char buf[70];

	memset(buf, 'X', sizeof(buf));
	CHECK_INT_EQ(vg_hex_normalize(H64, 64, buf, 64), -1);
	CHECK_INT_EQ(vg_hex_normalize(H64, 64, buf, 0), -1);
	CHECK_INT_EQ(vg_hex_normalize(H64, 64, buf, 1), -1);
	CHECK_INT_EQ(vg_hex_normalize(H64, 64, buf, 65), 0);
	CHECK_STR_EQ(buf, H64);
	/* nothing written past len + 1 */
	CHECK(buf[65] == 'X' && buf[69] == 'X');
	/* len larger than the string would need: the NUL fails the check */
	CHECK_INT_EQ(vg_hex_normalize(H32, 34, buf, sizeof(buf)), -1);
}

TEST(null_pointers)
{
	CHECK_INT_EQ(vg_hex_normalize(NULL, 64, out, sizeof(out)), -1);
	CHECK_INT_EQ(vg_hex_normalize(H64, 64, NULL, 65), -1);
	CHECK_INT_EQ(vg_hex_normalize(NULL, 0, NULL, 0), -1);
}

/* Reference model of the documented contract. */
static int model(const unsigned char *in, size_t len, size_t outlen, char *want)
{
	size_t i;

	if (len % 2 || len < 32 || len > 128 || outlen < len + 1)
		return -1;
	for (i = 0; i < len; i++) {
		unsigned char c = in[i];

		if (c >= '0' && c <= '9')
			want[i] = c;
		else if (c >= 'a' && c <= 'f')
			want[i] = c;
		else if (c >= 'A' && c <= 'F')
			want[i] = c + ('a' - 'A');
		else
			return -1;
	}
	want[len] = '\0';
	return 0;
}

TEST(fuzz_against_model)
{
	static const char alphabet[] = "0123456789abcdefABCDEF";
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	char want[300], got[300];
	long i;

	for (i = 0; i < 200000 && !unit.failed; i++) {
		size_t len = unit_below(&seed, 140), outlen, j;
		/* exactly len bytes on the heap so ASan sees any over-read */
		unsigned char *in = malloc(len ? len : 1);
		int rc, wrc;

		if (unit_below(&seed, 4) == 0)
			len &= ~(size_t)1;	/* more even lengths */
		for (j = 0; j < len; j++)
			in[j] = unit_below(&seed, 50) ? alphabet[unit_below(&seed, 22)]
						      : (unsigned char)unit_rand(&seed);
		outlen = unit_below(&seed, 3) ? sizeof(got) : unit_below(&seed, 140);
		memset(got, 'X', sizeof(got));
		rc = vg_hex_normalize((const char *)in, len, got, outlen);
		wrc = model(in, len, outlen, want);
		CHECK_INT_EQ(rc, wrc);
		if (!rc && !wrc)
			CHECK_STR_EQ(got, want);
		/* never a write past outlen */
		CHECK(outlen >= sizeof(got) || got[outlen] == 'X');
		free(in);
	}
}

/* Normalized hex back to bytes: every byte value, both cases of input
 * already lowered, and the out buffer limit. */
TEST(to_bytes)
{
	char hex[2 * 256 + 1], norm[sizeof(hex)];
	unsigned char bytes[256];
	int i;

	for (i = 0; i < 64; i++)
		snprintf(hex + 2 * i, 3, "%02X", (i * 37 + 200) & 0xff);
	CHECK_INT_EQ(vg_hex_normalize(hex, 128, norm, sizeof(norm)), 0);
	CHECK_INT_EQ(vg_hex_to_bytes(norm, bytes, 64), 64);
	for (i = 0; i < 64; i++)
		CHECK_INT_EQ(bytes[i], (i * 37 + 200) & 0xff);
	CHECK_INT_EQ(vg_hex_to_bytes(norm, bytes, 63), -1);
	CHECK_INT_EQ(vg_hex_to_bytes("00ff10", bytes, 3), 3);
	CHECK_INT_EQ(bytes[0], 0);
	CHECK_INT_EQ(bytes[1], 0xff);
	CHECK_INT_EQ(bytes[2], 0x10);
}

int main(int argc, char **argv)
{
	unit_init(argc, argv);
	RUN(lower_kept);
	RUN(upper_lowered);
	RUN(mixed_lowered);
	RUN(every_byte_value);
	RUN(rejects_g_space_highbit);
	RUN(nul_inside_len);
	RUN(lengths);
	RUN(out_buffer_size);
	RUN(null_pointers);
	RUN(fuzz_against_model);
	RUN(to_bytes);
	return unit_done();
}
