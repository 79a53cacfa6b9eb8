// SPDX-License-Identifier: GPL-2.0
/* Unit tests for vg_base64_decode (loader/base64.c), with OpenSSL's
 * encoder as the model for random byte strings. */
#include <openssl/evp.h>

#include "base64.h"
#include "unit.h"

static unsigned char out[600];

static int decode(const char *s)
{
	memset(out, 0xa5, sizeof(out));
	return vg_base64_decode(s, strlen(s), out, sizeof(out));
}

TEST(rfc4648_vectors)
{
	CHECK_INT_EQ(decode("Zg=="), 1);
	CHECK(!memcmp(out, "f", 1));
	CHECK_INT_EQ(decode("Zm8="), 2);
	CHECK(!memcmp(out, "fo", 2));
	CHECK_INT_EQ(decode("Zm9v"), 3);
	CHECK(!memcmp(out, "foo", 3));
	CHECK_INT_EQ(decode("Zm9vYg=="), 4);
	CHECK(!memcmp(out, "foob", 4));
	CHECK_INT_EQ(decode("Zm9vYmFy"), 6);
	CHECK(!memcmp(out, "foobar", 6));
	CHECK_INT_EQ(decode("+/+/"), 3);
	CHECK(!memcmp(out, "\xfb\xff\xbf", 3));
}

TEST(malformed_refused)
{
	static const char *const bad[] = {
		"", "Zg", "Zg=", "Zm9", "Z===", "====", "Zg==Zg==", "Zm9v ", " Zm9v",
		"Zm9v\n", "Zm-v", "Zm_v", "Zm9v=", "Zh==", "Zm9=", "Z\x80==",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT_EQ(decode(bad[i]), -1);
		if (decode(bad[i]) != -1)
			printf("# accepted: '%s'\n", bad[i]);
	}
	CHECK_INT_EQ(vg_base64_decode(NULL, 4, out, sizeof(out)), -1);
	CHECK_INT_EQ(vg_base64_decode("Zm9v", 4, NULL, 3), -1);
}

TEST(short_buffer_refused_untouched)
{
	memset(out, 0xa5, sizeof(out));
	CHECK_INT_EQ(vg_base64_decode("Zm9vYmFy", 8, out, 5), -1);
	CHECK_INT_EQ(out[0], 0xa5);
	CHECK_INT_EQ(vg_base64_decode("Zm9vYmFy", 8, out, 6), 6);
	CHECK_INT_EQ(vg_base64_decode("Zm9vYg==", 8, out, 4), 4);
	CHECK_INT_EQ(vg_base64_decode("Zm9vYg==", 8, out, 3), -1);
}

TEST(random_strings_against_openssl)
{
	unsigned char in[520], text[800];
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	int round, len, n, i;

	for (round = 0; round < 20000; round++) {
		len = (int)unit_below(&seed, sizeof(in) + 1);
		for (i = 0; i < len; i++)
			in[i] = (unsigned char)unit_below(&seed, 256);
		n = EVP_EncodeBlock(text, in, len);
		if (!len) {
			CHECK_INT_EQ(decode((char *)text), -1);
			continue;
		}
		CHECK_INT_EQ(vg_base64_decode((char *)text, (size_t)n, out, sizeof(out)), len);
		CHECK(!memcmp(out, in, (size_t)len));
		/* One character changed to one outside the alphabet. */
		text[unit_below(&seed, (size_t)n)] = "!*-_. \n"[unit_below(&seed, 7)];
		CHECK_INT_EQ(vg_base64_decode((char *)text, (size_t)n, out, sizeof(out)), -1);
	}
}

int main(int argc, char **argv)
{
	unit_init(argc, argv);
	RUN(rfc4648_vectors);
	RUN(malformed_refused);
	RUN(short_buffer_refused_untouched);
	RUN(random_strings_against_openssl);
	return unit_done();
}
