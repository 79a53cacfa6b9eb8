// SPDX-License-Identifier: GPL-2.0
/* Unit tests for vg_verity_table_parse and vg_verity_status_ok
 * (loader/verity_table.c). */
#include <stdlib.h>

#include "unit.h"
#include "verity_table.h"

#define H32 "0123456789abcdef0123456789abcdef"
#define D H32 H32 /* root digest */
#define D_UP "0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF"
#define S "5a1f5a1f5a1f5a1f5a1f5a1f5a1f5a1f5a1f5a1f5a1f5a1f5a1f5a1f5a1f5a1f"
#define LINE "1 254:1 254:2 4096 4096 2560 1 sha256 " D " " S

static struct vg_verity_table t;
static char err[1024];
static char big[1 << 16];

static int parse(const char *s)
{
	memset(&t, 0xa5, sizeof(t));
	memset(err, 0, sizeof(err));
	return vg_verity_table_parse(s, &t, err, sizeof(err));
}

#define CHECK_OK(s)                        \
	do {                               \
		CHECK_INT_EQ(parse(s), 0); \
		CHECK_STR_EQ(err, "");     \
	} while (0)

#define CHECK_FAILS(s)                      \
	do {                                \
		CHECK_INT_EQ(parse(s), -1); \
		CHECK(err[0] != '\0');      \
	} while (0)

static const char *const base[10] = {
	"1", "254:1", "254:2", "4096", "4096", "2560", "1", "sha256", D, S,
};

/* The realistic line with field i (0-based) replaced by v, then tail. */
static const char *with_field(int i, const char *v, const char *tail)
{
	size_t n = 0;
	int k;

	for (k = 0; k < 10; k++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "%s%s", k ? " " : "",
				      k == i ? v : base[k]);
	snprintf(big + n, sizeof(big) - n, "%s", tail);
	return big;
}

TEST(realistic_line)
{
	CHECK_OK(LINE);
	CHECK_INT_EQ(t.version, 1);
	CHECK_STR_EQ(t.data_dev, "254:1");
	CHECK_STR_EQ(t.hash_dev, "254:2");
	CHECK_STR_EQ(t.algorithm, "sha256");
	CHECK_STR_EQ(t.root_digest, D);
	CHECK_OK(LINE " ");
	CHECK_STR_EQ(t.root_digest, D);
	CHECK_OK("1 8:16 8:32 4096 4096 262144 262145 sha256 " D " " S);
	CHECK_STR_EQ(t.data_dev, "8:16");
	CHECK_STR_EQ(t.hash_dev, "8:32");
	/* the same device for data and hash tree */
	CHECK_OK("1 259:3 259:3 4096 4096 25600 25601 sha256 " D " -");
}

TEST(digest_lowered)
{
	CHECK_OK("1 254:1 254:2 4096 4096 2560 1 sha256 " D_UP " " S);
	CHECK_STR_EQ(t.root_digest, D);
}

TEST(dash_salt)
{
	CHECK_OK(with_field(9, "-", ""));
	CHECK_STR_EQ(t.root_digest, D);
	CHECK_OK(with_field(9, "-", " 1 ignore_zero_blocks"));
}

TEST(sha512_and_sha1)
{
	CHECK_OK("1 254:1 254:2 4096 4096 2560 1 sha512 " D D " -");
	CHECK_STR_EQ(t.algorithm, "sha512");
	CHECK_STR_EQ(t.root_digest, D D);
	CHECK_OK("1 254:1 254:2 4096 4096 2560 1 sha1 0123456789abcdef0123456789abcdef01234567 -");
	CHECK_STR_EQ(t.root_digest, "0123456789abcdef0123456789abcdef01234567");
}

TEST(version_0_accepted)
{
	CHECK_OK(with_field(0, "0", ""));
	CHECK_INT_EQ(t.version, 0);
}

TEST(bad_version)
{
	static const char *const bad[] = { "2", "x", "-1", "+1", "1x", "10", "4294967297", "1.0" };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_FAILS(with_field(0, bad[i], ""));
		CHECK_STR_HAS(err, "version");
	}
}

TEST(optional_args_ok)
{
	CHECK_OK(LINE " 0");
	CHECK_OK(LINE " 2 restart_on_corruption ignore_zero_blocks");
	CHECK_STR_EQ(t.root_digest, D);
	CHECK_OK(LINE " 1 panic_on_corruption");
	CHECK_OK(LINE " 2 restart_on_corruption ignore_zero_blocks ");
	CHECK_OK(LINE " 9 use_fec_from_device 254:3 fec_roots 2 fec_blocks 2600 fec_start 2600 ignore_zero_blocks");
	CHECK_OK(LINE " 2 root_hash_sig_key_desc verity:rootsig");
}

TEST(verify_off_options_refused)
{
	CHECK_FAILS(LINE " 1 ignore_corruption");
	CHECK_STR_HAS(err, "ignore_corruption");
	CHECK_FAILS(LINE " 1 check_at_most_once");
	CHECK_STR_HAS(err, "check_at_most_once");
	CHECK_FAILS(LINE " 3 ignore_zero_blocks check_at_most_once restart_on_corruption");
	CHECK_STR_HAS(err, "check_at_most_once");
	CHECK_FAILS(LINE " 2 restart_on_corruption ignore_corruption");
	CHECK_STR_HAS(err, "ignore_corruption");
	/* a look-alike is fine */
	CHECK_OK(LINE " 1 ignore_corruptionx");
}

TEST(bad_opt_count)
{
	static const char *const bad[] = {
		" 2 restart_on_corruption", " 1 a b", " 1", " x a", " -1 a",
		" 33 a", " 4294967297 a", " 18446744073709551617 a", " 1x a",
		" +1 a", " 0 ignore_corruption",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_FAILS(with_field(-1, "", bad[i]));
		CHECK_STR_HAS(err, "optional argument count");
	}
}

TEST(too_few_fields)
{
	CHECK_FAILS("1 254:1 254:2 4096 4096 2560 1 sha256 " D);
	CHECK_STR_HAS(err, "malformed");
	CHECK_FAILS("1");
	CHECK_FAILS("verity");
	CHECK_FAILS("");
	CHECK_STR_HAS(err, "malformed");
	CHECK_FAILS("          ");
}

TEST(null_params)
{
	CHECK_FAILS(NULL);
	CHECK_STR_HAS(err, "malformed");
}

TEST(non_numeric_sizes)
{
	static const char *const bad[] = { "abc", "-1", "4096k", "0x1000", "+4096", "4.0", "-" };
	char want[24]; /* "field " and any int (gcc checks that under -O1) */
	size_t i;
	int f;

	for (f = 3; f <= 6; f++) {
		snprintf(want, sizeof(want), "field %d", f + 1);
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			CHECK_FAILS(with_field(f, bad[i], ""));
			CHECK_STR_HAS(err, want);
		}
	}
}

TEST(number_limits)
{
	int f;

	for (f = 3; f <= 4; f++) {	/* block sizes: 32 bits */
		CHECK_OK(with_field(f, "4294967295", ""));
		CHECK_FAILS(with_field(f, "4294967296", ""));
		CHECK_FAILS(with_field(f, "18446744073709551616", ""));
	}
	for (f = 5; f <= 6; f++) {	/* block counts: 64 bits */
		CHECK_OK(with_field(f, "0", ""));
		CHECK_OK(with_field(f, "18446744073709551615", ""));
		CHECK_FAILS(with_field(f, "18446744073709551616", ""));
		CHECK_FAILS(with_field(f, "99999999999999999999999999999999", ""));
		CHECK_FAILS(with_field(f, unit_repeat('9', 150), ""));
	}
}

TEST(bad_digest)
{
	CHECK_FAILS(with_field(8, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg", ""));
	CHECK_STR_HAS(err, "root digest");
	CHECK_FAILS(with_field(8, D "a", ""));		/* odd */
	CHECK_FAILS(with_field(8, "0123456789abcdef0123456789abcd", ""));	/* 30 */
	CHECK_FAILS(with_field(8, D D "ab", ""));	/* 130 */
	CHECK_FAILS(with_field(8, "-", ""));
	CHECK_FAILS(with_field(8, "sha256:" D, ""));
	CHECK_STR_HAS(err, "root digest");
}

TEST(name_lengths)
{
	static const int names[] = { 1, 2, 7 };	/* data_dev, hash_dev, algorithm */
	size_t i;

	for (i = 0; i < 3; i++) {
		CHECK_OK(with_field(names[i], unit_repeat('n', 31), ""));
		CHECK_FAILS(with_field(names[i], unit_repeat('n', 32), ""));
		CHECK_STR_HAS(err, "too long");
	}
	CHECK_OK(with_field(7, unit_repeat('a', 31), ""));
	CHECK_STR_EQ(t.algorithm, unit_repeat('a', 31));
}

TEST(field_length_limit)
{
	CHECK_OK(with_field(9, unit_repeat('5', 159), ""));
	CHECK_FAILS(with_field(9, unit_repeat('5', 160), ""));
	CHECK_STR_HAS(err, "malformed");
	CHECK_FAILS(with_field(9, unit_repeat('5', 10000), ""));
	CHECK_FAILS(with_field(-1, "", unit_repeat('x', 10000)));	/* glued onto the salt */
	/* an optional argument too */
	strcat((char *)with_field(-1, "", " 1 "), unit_repeat('o', 159));
	CHECK_OK(big);
	strcat((char *)with_field(-1, "", " 1 "), unit_repeat('o', 160));
	CHECK_FAILS(big);
	CHECK_STR_HAS(err, "malformed");
}

/* tail = " <n> ignore_zero_blocks..." with n options */
static const char *with_options(int n)
{
	char tail[4096];
	size_t len;
	int i;

	len = (size_t)snprintf(tail, sizeof(tail), " %d", n);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(tail + len, sizeof(tail) - len, " ignore_zero_blocks");
	return with_field(-1, "", tail);
}

TEST(field_count_limit)
{
	CHECK_OK(with_options(20));
	CHECK_OK(with_options(21));	/* 32 fields */
	CHECK_FAILS(with_options(22));	/* 33 */
	CHECK_STR_HAS(err, "malformed");
	CHECK_FAILS(with_options(30));
	CHECK_FAILS(with_options(100));
}

TEST(small_err_buffer)
{
	char e[16];

	memset(e, 'X', sizeof(e));
	CHECK_INT_EQ(vg_verity_table_parse("", &t, e, 0), -1);
	CHECK(e[0] == 'X');
	CHECK_INT_EQ(vg_verity_table_parse("", &t, e, 1), -1);
	CHECK(e[0] == '\0' && e[1] == 'X');
	CHECK_INT_EQ(vg_verity_table_parse(LINE " 1 ignore_corruption", &t, e, 12), -1);
	CHECK(strlen(e) == 11 && e[12] == 'X');
}

TEST(status_ok)
{
	CHECK(vg_verity_status_ok("V"));
	CHECK(vg_verity_status_ok("V 0"));
	CHECK(vg_verity_status_ok("V 12"));
	CHECK(!vg_verity_status_ok("C"));
	CHECK(!vg_verity_status_ok("C 0"));
	CHECK(!vg_verity_status_ok(""));
	CHECK(!vg_verity_status_ok(NULL));
	CHECK(!vg_verity_status_ok("Vx"));
	CHECK(!vg_verity_status_ok("VC"));
	CHECK(!vg_verity_status_ok("v"));
	CHECK(!vg_verity_status_ok(" V"));
	CHECK(!vg_verity_status_ok("E"));
}

/* ---- fuzzing ---- */

/* Check err after a call with an err buffer of errlen followed by a canary. */
static void check_err(int rc, const char *e, size_t errlen)
{
	CHECK(rc == 0 || rc == -1);
	CHECK(e[errlen] == 'X');
	if (rc && errlen) {
		CHECK(memchr(e, '\0', errlen) != NULL);
		CHECK(errlen == 1 || e[0] != '\0');
	}
}

static bool lower_hex(const char *s)
{
	size_t len = strlen(s);

	if (len < 32 || len > 128 || len % 2)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

/* After a successful parse, t is consistent. */
static void check_table(const struct vg_verity_table *tt)
{
	CHECK(tt->version <= 1);
	CHECK(memchr(tt->data_dev, '\0', sizeof(tt->data_dev)) && tt->data_dev[0]);
	CHECK(memchr(tt->hash_dev, '\0', sizeof(tt->hash_dev)) && tt->hash_dev[0]);
	CHECK(memchr(tt->algorithm, '\0', sizeof(tt->algorithm)) && tt->algorithm[0]);
	CHECK(memchr(tt->root_digest, '\0', sizeof(tt->root_digest)) &&
	      lower_hex(tt->root_digest));
}

TEST(fuzz_random_bytes)
{
	static const char special[] = "  0123456789abcdef:-";
	uint64_t seed = 0xa4093822299f31d0ULL;
	struct vg_verity_table tt;
	char e[200];
	long i;

	for (i = 0; i < 200000 && !unit.failed; i++) {
		size_t len = unit_below(&seed, 400), errlen = unit_below(&seed, 150), j;
		/* exactly the string on the heap so ASan sees any over-read */
		char *s = malloc(len + 1);
		int rc;
		bool ok;

		for (j = 0; j < len; j++)
			s[j] = unit_below(&seed, 3) ? special[unit_below(&seed, sizeof(special) - 1)]
						    : (char)(1 + unit_below(&seed, 255));
		s[len] = '\0';
		if (len > 2 && unit_below(&seed, 2))
			s[0] = 'V';
		if (len > 2 && unit_below(&seed, 2))
			s[1] = ' ';
		memset(e, 'X', sizeof(e));
		rc = vg_verity_table_parse(s, &tt, e, errlen);
		check_err(rc, e, errlen);
		if (!rc)
			check_table(&tt);
		ok = vg_verity_status_ok(s);
		CHECK(ok == (s[0] == 'V' && (s[1] == '\0' || s[1] == ' ')));
		free(s);
	}
}

/* An unsigned decimal of at most max (given as a decimal string)? */
static bool model_uint(const char *s, const char *max)
{
	size_t len, mlen;
	const char *p;

	if (!*s)
		return false;
	for (p = s; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	while (s[0] == '0' && s[1])
		s++;
	while (max[0] == '0' && max[1])
		max++;
	len = strlen(s);
	mlen = strlen(max);
	return len < mlen || (len == mlen && strcmp(s, max) <= 0);
}

static bool model_hex(const char *s)
{
	size_t len = strlen(s), i;

	if (len < 32 || len > 128 || len % 2)
		return false;
	for (i = 0; i < len; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return false;
	return true;
}

/* The documented contract, for fields without spaces. */
static int model(const char *const *f, int n)
{
	char count[16];
	int i;

	if (n < 10 || n > 32)
		return -1;
	for (i = 0; i < n; i++)
		if (strlen(f[i]) >= 160)
			return -1;
	if (!model_uint(f[0], "1") || !model_uint(f[3], "4294967295") ||
	    !model_uint(f[4], "4294967295") ||
	    !model_uint(f[5], "18446744073709551615") ||
	    !model_uint(f[6], "18446744073709551615"))
		return -1;
	if (strlen(f[1]) > 31 || strlen(f[2]) > 31 || strlen(f[7]) > 31 || !model_hex(f[8]))
		return -1;
	if (n == 10)
		return 0;
	snprintf(count, sizeof(count), "%d", n - 11);
	if (!model_uint(f[10], count) || !model_uint(count, f[10]))	/* equal */
		return -1;
	for (i = 11; i < n; i++)
		if (!strcmp(f[i], "ignore_corruption") || !strcmp(f[i], "check_at_most_once"))
			return -1;
	return 0;
}

static char long159[160], long160[161];

TEST(fuzz_fields_against_model)
{
	static const char *const dict[] = {
		"0", "1", "2", "01", "00000000000000000000001", "x", "-1", "+1",
		"4096", "4294967295", "4294967296", "18446744073709551615",
		"18446744073709551616", "254:1", "8:0", "sha256", "sha512", D, D_UP,
		D D, H32, D "a", "-", S, "ignore_corruption", "check_at_most_once",
		"restart_on_corruption", "panic_on_corruption", "ignore_zero_blocks",
		"use_fec_from_device", "fec_roots", "Ignore_corruption",
		"0123456789abcdef0123456789abcdefg", "3", "9", "21", "22",
		long159, long160,
	};
	const size_t ndict = sizeof(dict) / sizeof(dict[0]);
	uint64_t seed = 0x082efa98ec4e6c89ULL;
	const char *f[48];
	char digest[200];
	long i;

	memcpy(long159, unit_repeat('7', 159), 160);
	memcpy(long160, unit_repeat('7', 160), 161);
	for (i = 0; i < 100000 && !unit.failed; i++) {
		int n = 10, m, k, rc, wrc;
		size_t len = 0;

		for (k = 0; k < 10; k++)
			f[k] = base[k];
		if (unit_below(&seed, 2)) {	/* options */
			int opts = (int)unit_below(&seed, 26);

			f[n++] = dict[unit_below(&seed, ndict)];
			for (k = 0; k < opts; k++)
				f[n++] = dict[24 + unit_below(&seed, 7)];
		}
		for (m = (int)unit_below(&seed, 4); m > 0; m--) {	/* mutations */
			size_t at = unit_below(&seed, (size_t)n + 1);

			switch (unit_below(&seed, 3)) {
			case 0:	/* replace */
				if (at < (size_t)n)
					f[at] = dict[unit_below(&seed, ndict)];
				break;
			case 1:	/* delete */
				if (at < (size_t)n) {
					memmove(&f[at], &f[at + 1], (n - at - 1) * sizeof(f[0]));
					n--;
				}
				break;
			default:	/* insert */
				if (n < 47) {
					memmove(&f[at + 1], &f[at], (n - at) * sizeof(f[0]));
					f[at] = dict[unit_below(&seed, ndict)];
					n++;
				}
			}
		}
		/* sometimes make the option count right */
		if (n > 10 && unit_below(&seed, 2)) {
			static char cnt[16];

			snprintf(cnt, sizeof(cnt), "%d", n - 11);
			f[10] = cnt;
		}
		for (k = 0; k < n; k++)
			len += (size_t)snprintf(big + len, sizeof(big) - len, "%s%s",
						k ? (unit_below(&seed, 8) ? " " : "  ") : "", f[k]);
		if (unit_below(&seed, 4) == 0)
			snprintf(big + len, sizeof(big) - len, " ");
		rc = parse(big);
		wrc = model(f, n);
		if (rc != wrc) {
			unit_fail(__FILE__, __LINE__, "\"%s\": got %d, want %d (%s)",
				  big, rc, wrc, err);
			break;
		}
		if (rc)
			continue;
		check_table(&t);
		for (k = 0; f[8][k] && k < (int)sizeof(digest) - 1; k++)
			digest[k] = (f[8][k] >= 'A' && f[8][k] <= 'F') ? f[8][k] - 'A' + 'a' : f[8][k];
		digest[k] = '\0';
		CHECK_STR_EQ(t.root_digest, digest);
		CHECK_STR_EQ(t.data_dev, f[1]);
		CHECK_STR_EQ(t.hash_dev, f[2]);
		CHECK_STR_EQ(t.algorithm, f[7]);
		CHECK_INT_EQ(t.version, f[0][strlen(f[0]) - 1] - '0');
	}
}

int main(int argc, char **argv)
{
	unit_init(argc, argv);
	RUN(realistic_line);
	RUN(digest_lowered);
	RUN(dash_salt);
	RUN(sha512_and_sha1);
	RUN(version_0_accepted);
	RUN(bad_version);
	RUN(optional_args_ok);
	RUN(verify_off_options_refused);
	RUN(bad_opt_count);
	RUN(too_few_fields);
	RUN(null_params);
	RUN(non_numeric_sizes);
	RUN(number_limits);
	RUN(bad_digest);
	RUN(name_lengths);
	RUN(field_length_limit);
	RUN(field_count_limit);
	RUN(small_err_buffer);
	RUN(status_ok);
	RUN(fuzz_random_bytes);
	RUN(fuzz_fields_against_model);
	return unit_done();
}
