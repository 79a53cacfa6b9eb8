// SPDX-License-Identifier: GPL-2.0
/* Unit tests for vg_cmdline_parse (loader/cmdline.c). */
#include <stdlib.h>

#include "cmdline.h"
#include "unit.h"

#define H32 "0123456789abcdef0123456789abcdef"
#define H1 H32 H32 /* a sha256 root hash */
#define H1_UP "0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF"
#define H2 "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
#define H2_UP "FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210"

static struct vg_config cfg;
static char err[4096];
static char big[1 << 17];

static int parse(const char *s)
{
	memset(&cfg, 0xa5, sizeof(cfg));
	memset(err, 0, sizeof(err));
	return vg_cmdline_parse(s, &cfg, err, sizeof(err));
}

/* parse fails with a message */
#define CHECK_FAILS(s)                          \
	do {                                    \
		CHECK_INT_EQ(parse(s), -1);     \
		CHECK(err[0] != '\0');          \
	} while (0)

#define CHECK_OFF(s)                               \
	do {                                       \
		CHECK_INT_EQ(parse(s), 0);         \
		CHECK_INT_EQ(cfg.mode, VG_MODE_OFF); \
	} while (0)

/* only printable ASCII */
static bool printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return false;
	return true;
}

/* big = prefix + n copies of c + suffix */
static const char *longarg(const char *prefix, char c, size_t n, const char *suffix)
{
	size_t p = strlen(prefix), s = strlen(suffix);

	memcpy(big, prefix, p);
	memset(big + p, c, n);
	memcpy(big + p + n, suffix, s + 1);
	return big;
}

TEST(absent_is_off)
{
	CHECK_OFF("BOOT_IMAGE=/vmlinuz root=/dev/vda ro quiet\n");
	CHECK(!cfg.deny_anon_exec);
	CHECK_STR_EQ(cfg.roothash, "");
}

TEST(empty_and_blank_are_off)
{
	CHECK_OFF("");
	CHECK_OFF(" ");
	CHECK_OFF("   \t \n  \n");
	CHECK_OFF("\n");
}

TEST(null_cmdline_is_error)
{
	CHECK_FAILS(NULL);
	CHECK_INT_EQ(cfg.mode, VG_MODE_OFF);
}

TEST(off_ignores_other_options)
{
	CHECK_OFF("rd.verigate=0");
	CHECK_OFF("rd.verigate=0 roothash=zz rd.verigate.anon_exec=bogus rd.verigate.foo=1");
	CHECK(!cfg.deny_anon_exec);
	CHECK_STR_EQ(cfg.roothash, "");
	CHECK_OFF("roothash=" H1 " rd.verigate.anon_exec=deny");
	CHECK(!cfg.deny_anon_exec);
}

TEST(enforce)
{
	CHECK_INT_EQ(parse("BOOT_IMAGE=/vmlinuz root=/dev/mapper/root rd.verigate=1 roothash=" H1 " quiet\n"), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_ENFORCE);
	CHECK_STR_EQ(cfg.roothash, H1);
	CHECK(!cfg.deny_anon_exec);
	CHECK_STR_EQ(vg_mode_name(cfg.mode), "enforcing");
	/* order does not matter */
	CHECK_INT_EQ(parse("roothash=" H1 " rd.verigate=1"), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_ENFORCE);
	CHECK_STR_EQ(cfg.roothash, H1);
}

TEST(audit)
{
	CHECK_INT_EQ(parse("rd.verigate=audit roothash=" H2), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_AUDIT);
	CHECK_STR_EQ(cfg.roothash, H2);
	CHECK_STR_EQ(vg_mode_name(cfg.mode), "audit");
	CHECK_STR_EQ(vg_mode_name(VG_MODE_OFF), "off");
}

TEST(audit_needs_roothash)
{
	CHECK_FAILS("rd.verigate=audit");
	CHECK_STR_HAS(err, "roothash");
}

TEST(bare_rd_verigate_is_error)
{
	CHECK_FAILS("rd.verigate roothash=" H1);
	CHECK_STR_HAS(err, "rd.verigate");
	CHECK_FAILS("rd.verigate");
}

TEST(bad_mode_values)
{
	static const char *const bad[] = {
		"yes", "2", "on", "true", "Audit", "AUDIT", "1x", "-1", "01",
		"enforce", "off", "no", "0x1", "audit1", " ",
	};
	char line[256], want[64];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "rd.verigate=\"%s\" roothash=%s", bad[i], H1);
		snprintf(want, sizeof(want), "rd.verigate=%s", bad[i]);
		CHECK_FAILS(line);
		CHECK_STR_HAS(err, want);
	}
	CHECK_FAILS("rd.verigate=yes");
	CHECK_STR_HAS(err, "rd.verigate=yes");
	CHECK_FAILS("rd.verigate=2 roothash=" H1);
	CHECK_STR_HAS(err, "rd.verigate=2");
	CHECK_FAILS("rd.verigate= roothash=" H1);
	CHECK_STR_HAS(err, "rd.verigate=");
}

TEST(last_mode_wins)
{
	CHECK_OFF("rd.verigate=1 rd.verigate=0 roothash=" H1);
	CHECK_INT_EQ(parse("rd.verigate=0 rd.verigate=1 roothash=" H1), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_ENFORCE);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " rd.verigate=audit"), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_AUDIT);
	/* a bad value overridden later is not looked at, a later bad one is */
	CHECK_INT_EQ(parse("rd.verigate=yes rd.verigate=1 roothash=" H1), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_ENFORCE);
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate=yes");
	CHECK_STR_HAS(err, "rd.verigate=yes");
	CHECK_FAILS("rd.verigate=0 rd.verigate");
}

TEST(last_roothash_and_anon_exec_win)
{
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " roothash=" H2), 0);
	CHECK_STR_EQ(cfg.roothash, H2);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=bad roothash=" H2), 0);
	CHECK_STR_EQ(cfg.roothash, H2);
	CHECK_FAILS("rd.verigate=1 roothash=" H2 " roothash=bad");
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1
			   " rd.verigate.anon_exec=deny rd.verigate.anon_exec=allow"), 0);
	CHECK(!cfg.deny_anon_exec);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1
			   " rd.verigate.anon_exec=allow rd.verigate.anon_exec=deny"), 0);
	CHECK(cfg.deny_anon_exec);
}

TEST(enforce_needs_roothash)
{
	CHECK_FAILS("rd.verigate=1");
	CHECK_STR_HAS(err, "roothash");
	CHECK_FAILS("root=/dev/vda rd.verigate=1 quiet\n");
	CHECK_STR_HAS(err, "roothash");
}

TEST(bad_roothash)
{
	CHECK_FAILS("rd.verigate=1 roothash=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg");
	CHECK_STR_HAS(err, "roothash=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg");
	CHECK_FAILS("rd.verigate=1 roothash=" H1 "a");	/* odd */
	CHECK_STR_HAS(err, "roothash=0123456789abcdef");
	CHECK_FAILS("rd.verigate=1 roothash=abcdef");	/* short */
	CHECK_STR_HAS(err, "roothash=abcdef");
	CHECK_FAILS("rd.verigate=1 roothash=" H1 H1 "ab");	/* 130 digits */
	CHECK_STR_HAS(err, "roothash=" H1);
	CHECK_FAILS("rd.verigate=1 roothash=" H1 H1 H1);	/* 192 digits */
	CHECK_FAILS("rd.verigate=1 roothash=");
	CHECK_STR_HAS(err, "roothash=");
	CHECK_FAILS("rd.verigate=1 roothash");
	CHECK_STR_HAS(err, "roothash");
	CHECK_FAILS("rd.verigate=1 roothash=sha256:" H1);
	CHECK_STR_HAS(err, "roothash=sha256:");
	CHECK_FAILS("rd.verigate=audit roothash=xyz");
	CHECK_STR_HAS(err, "roothash=xyz");
}

TEST(roothash_upper_normalized)
{
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1_UP), 0);
	CHECK_STR_EQ(cfg.roothash, H1);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=0123456789abcdefABCDEF0123456789"), 0);
	CHECK_STR_EQ(cfg.roothash, "0123456789abcdefabcdef0123456789");
}

TEST(roothash_lengths)
{
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H32), 0);
	CHECK_STR_EQ(cfg.roothash, H32);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 H1), 0);	/* sha512 */
	CHECK_STR_EQ(cfg.roothash, H1 H1);
	CHECK_FAILS("rd.verigate=1 roothash=0123456789abcdef0123456789abcd");	/* 30 */
}

TEST(anon_exec)
{
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " rd.verigate.anon_exec=deny"), 0);
	CHECK(cfg.deny_anon_exec);
	CHECK_INT_EQ(parse("rd.verigate=audit roothash=" H1 " rd.verigate.anon_exec=deny"), 0);
	CHECK(cfg.deny_anon_exec);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " rd.verigate.anon_exec=allow"), 0);
	CHECK(!cfg.deny_anon_exec);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1), 0);
	CHECK(!cfg.deny_anon_exec);
}

TEST(anon_exec_bad)
{
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.anon_exec=bogus");
	CHECK_STR_HAS(err, "rd.verigate.anon_exec=bogus");
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.anon_exec=DENY");
	CHECK_STR_HAS(err, "rd.verigate.anon_exec=DENY");
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.anon_exec");
	CHECK_STR_HAS(err, "rd.verigate.anon_exec");
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.anon_exec=");
}

TEST(unknown_option_when_on)
{
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.foo=1");
	CHECK_STR_HAS(err, "rd.verigate.foo");
	CHECK_FAILS("rd.verigate.foo=1 rd.verigate=audit roothash=" H1);
	CHECK_STR_HAS(err, "rd.verigate.foo");
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.anon_execx=deny");
	CHECK_STR_HAS(err, "rd.verigate.anon_execx");
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.bar");
	CHECK_STR_HAS(err, "rd.verigate.bar");
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.Anon_exec=deny");
}

TEST(unknown_option_ignored_when_off)
{
	CHECK_OFF("rd.verigate.foo=1");
	CHECK_OFF("rd.verigate=0 rd.verigate.foo=1 rd.verigate.bar");
}

TEST(quoted_values)
{
	CHECK_INT_EQ(parse("rd.verigate=\"1\" roothash=\"" H1_UP "\""), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_ENFORCE);
	CHECK_STR_EQ(cfg.roothash, H1);
	CHECK_INT_EQ(parse("\"rd.verigate=audit\" \"roothash=" H1 "\""), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_AUDIT);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " rd.verigate.anon_exec=\"deny\""), 0);
	CHECK(cfg.deny_anon_exec);
	CHECK_OFF("rd.verigate=\"0\"");
	/* the quotes are kept together with what they enclose */
	CHECK_FAILS("rd.verigate=\"1 \" roothash=" H1);
	CHECK_STR_HAS(err, "rd.verigate=1 ");
	CHECK_FAILS("rd.verigate=\"\" roothash=" H1);
}

/* A quoted value of another option is one argument, not several. */
TEST(quoted_arguments_not_split)
{
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " init=\"/bin/sh rd.verigate=0\""), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_ENFORCE);
	CHECK_OFF("rd.verigate=0 foo=\"x rd.verigate=1 roothash=" H1 "\"");
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " x=\"roothash=" H2 "\""), 0);
	CHECK_STR_EQ(cfg.roothash, H1);
}

TEST(tabs_newlines)
{
	CHECK_INT_EQ(parse("rd.verigate=1\troothash=" H1 "\n"), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_ENFORCE);
	CHECK_STR_EQ(cfg.roothash, H1);
	CHECK_INT_EQ(parse("\n\trd.verigate=audit\n\n roothash=" H1 " \t\n"), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_AUDIT);
	CHECK_INT_EQ(parse("root=/dev/vda rd.verigate=1 rd.verigate.anon_exec=deny\nroothash=" H1 "\n"), 0);
	CHECK(cfg.deny_anon_exec);
	CHECK_STR_EQ(cfg.roothash, H1);
	CHECK_OFF("rd.verigate=0\n");
	CHECK_OFF("rd.verigate=1\trd.verigate=0\n");
}

TEST(similar_prefixes)
{
	CHECK_OFF("xrd.verigate=1");
	CHECK_OFF("rd.verigatex=1");
	CHECK_OFF("rd.verigate_=1 roothash=" H1);
	CHECK_OFF("RD.VERIGATE=1 roothash=" H1);
	CHECK_OFF("rd_verigate=1 roothash=" H1);
	CHECK_OFF("rd.verigat=1 roothash=" H1);
	CHECK_OFF("rd.verigate.=1");
	CHECK_OFF("rd.verigate.anon_exec=deny roothash=" H1);
	CHECK_FAILS("rd.verigate=1 roothashx=" H1);
	CHECK_STR_HAS(err, "roothash");
	CHECK_FAILS("rd.verigate=1 xroothash=" H1);
	CHECK_FAILS("rd.verigate=1 systemd.verity_root_hash=" H1);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " roothashx=bogus xroothash=bad"), 0);
	CHECK_STR_EQ(cfg.roothash, H1);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " xrd.verigate.anon_exec=bogus"), 0);
	CHECK(!cfg.deny_anon_exec);
}

TEST(long_tokens)
{
	char tail[256];

	snprintf(tail, sizeof(tail), " rd.verigate=1 roothash=%s", H1);
	/* a 10k junk token does not upset what follows */
	CHECK_INT_EQ(parse(longarg("", 'a', 10000, tail)), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_ENFORCE);
	CHECK_STR_EQ(cfg.roothash, H1);
	CHECK_INT_EQ(parse(longarg("init=", '/', 10000, tail)), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_ENFORCE);
	/* nor does a long key that starts like ours */
	CHECK_OFF(longarg("rd.verigate", 'x', 10000, "=1"));
	CHECK_OFF(longarg("rd.verigatex", 'x', 10000, "=1 roothash=" H1));
	CHECK_FAILS(longarg("rd.verigate=1 roothash", 'x', 10000, "=" H1));
	CHECK_STR_HAS(err, "roothash");
	/* long values are refused, not truncated into something valid */
	CHECK_FAILS(longarg("rd.verigate=", '1', 10000, " roothash=" H1));
	CHECK_FAILS(longarg("rd.verigate=1 roothash=", 'a', 10000, ""));
	CHECK_STR_HAS(err, "roothash=aaaa");
	CHECK_FAILS(longarg("rd.verigate=1 roothash=" H1, 'a', 10000, ""));
	CHECK_FAILS(longarg("rd.verigate=1 roothash=" H1 " rd.verigate.anon_exec=deny", 'y', 10000, ""));
	/* "0" followed by 600 more zeros is not "0", even cut to 511 */
	CHECK_FAILS(longarg("rd.verigate=0", '0', 600, ""));
	CHECK_FAILS(longarg("rd.verigate=1", '1', 600, " roothash=" H1));
}

TEST(many_tokens)
{
	size_t i, n = 0;

	for (i = 0; i < 5000; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "rd.verigate=0 ");
	snprintf(big + n, sizeof(big) - n, "rd.verigate=1 roothash=%s\n", H1);
	CHECK_INT_EQ(parse(big), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_ENFORCE);
	snprintf(big + n, sizeof(big) - n, "roothash=%s rd.verigate=0\n", H1);
	memcpy(big, "rd.verigate=1", 13);
	CHECK_OFF(big);
}

TEST(long_mode_value_bounded)
{
	CHECK_FAILS(longarg("rd.verigate=", 'A', 10000, ""));
	CHECK_STR_HAS(err, "rd.verigate=AAAA");
	CHECK(strlen(err) < 160);
	CHECK(printable(err));
	CHECK_FAILS(longarg("rd.verigate=1 roothash=" H1 " rd.verigate.anon_exec=", 'B', 10000, ""));
	CHECK_STR_HAS(err, "rd.verigate.anon_exec=BBBB");
	CHECK(strlen(err) < 160);
	CHECK_FAILS(longarg("rd.verigate=1 roothash=", 'C', 10000, ""));
	CHECK_STR_HAS(err, "roothash=CCCC");
	CHECK(strlen(err) < 160);
}

TEST(control_chars_in_values_sanitized)
{
	CHECK_FAILS("rd.verigate=\x1b[2J\x01x roothash=" H1);
	CHECK_STR_HAS(err, "rd.verigate=");
	CHECK(printable(err));
	CHECK_FAILS("rd.verigate=1\r\x7f\xff\xc3\xa9");
	CHECK_STR_HAS(err, "rd.verigate=1");
	CHECK(printable(err));
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.anon_exec=\x1b]0;pwned\x07");
	CHECK_STR_HAS(err, "rd.verigate.anon_exec=");
	CHECK(printable(err));
	CHECK_FAILS("rd.verigate=1 roothash=\x1b[1m" H1);
	CHECK_STR_HAS(err, "roothash=");
	CHECK(printable(err));
}

/*
 * The name of an unknown rd.verigate.* option goes into the message too, and
 * comes from the same untrusted command line: it must be bounded and free of
 * control characters like the values are.
 */
TEST(unknown_key_message_sanitized)
{
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.\x1b[2J\x01\r=1");
	CHECK_STR_HAS(err, "rd.verigate.");
	CHECK(printable(err));
	CHECK_FAILS(longarg("rd.verigate=1 roothash=" H1 " rd.verigate.", 'k', 10000, "=1"));
	CHECK_STR_HAS(err, "rd.verigate.kkkk");
	CHECK(strlen(err) < 64 + 220); /* 64 characters of the key, then the known options */
}

TEST(unterminated_quote)
{
	/* the quote runs to the end and swallows the rest */
	CHECK_FAILS("rd.verigate=\"1 roothash=" H1);
	CHECK_STR_HAS(err, "rd.verigate=1 roothash=");
	CHECK(printable(err));
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.anon_exec=\"deny\n");
	CHECK_OFF("\"");
	CHECK_FAILS("\"rd.verigate=1 roothash=" H1);
	CHECK_STR_HAS(err, "rd.verigate=1 roothash=");
	CHECK_OFF("foo=\"bar rd.verigate=1 roothash=" H1);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " \""), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_ENFORCE);
}

TEST(small_err_buffer)
{
	char e[16];

	memset(e, 'X', sizeof(e));
	CHECK_INT_EQ(vg_cmdline_parse("rd.verigate=yes", &cfg, e, 0), -1);
	CHECK(e[0] == 'X');
	CHECK_INT_EQ(vg_cmdline_parse("rd.verigate=yes", &cfg, e, 1), -1);
	CHECK(e[0] == '\0' && e[1] == 'X');
	CHECK_INT_EQ(vg_cmdline_parse("rd.verigate=yes", &cfg, e, 10), -1);
	CHECK(strlen(e) == 9 && e[10] == 'X');
	CHECK(!strncmp(e, "rd.verigate=yes", 9));
	memset(e, 'X', sizeof(e));
	CHECK_INT_EQ(vg_cmdline_parse(NULL, &cfg, e, 8), -1);
	CHECK(strlen(e) == 7 && e[8] == 'X');
}

TEST(cfg_reset)
{
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " rd.verigate.anon_exec=deny"), 0);
	CHECK_INT_EQ(vg_cmdline_parse("quiet", &cfg, err, sizeof(err)), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_OFF);
	CHECK(!cfg.deny_anon_exec);
	CHECK_STR_EQ(cfg.roothash, "");
}

/* After a successful parse, cfg is consistent. */
static void check_cfg(void)
{
	size_t len, i;

	CHECK(cfg.mode == VG_MODE_OFF || cfg.mode == VG_MODE_ENFORCE ||
	      cfg.mode == VG_MODE_AUDIT);
	if (cfg.mode == VG_MODE_OFF) {
		CHECK(!cfg.deny_anon_exec && !cfg.roothash[0]);
		return;
	}
	len = strnlen(cfg.roothash, sizeof(cfg.roothash));
	CHECK(len >= 32 && len <= 128 && len % 2 == 0);
	for (i = 0; i < len; i++)
		CHECK((cfg.roothash[i] >= '0' && cfg.roothash[i] <= '9') ||
		      (cfg.roothash[i] >= 'a' && cfg.roothash[i] <= 'f'));
}

/* Parse with an err buffer of errlen followed by a canary, and check it. */
static int parse_sized(const char *s, size_t errlen)
{
	char e[160];
	int rc;

	memset(e, 'X', sizeof(e));
	rc = vg_cmdline_parse(s, &cfg, e, errlen);
	CHECK(rc == 0 || rc == -1);
	CHECK(e[errlen] == 'X');
	if (rc && errlen) {
		CHECK(memchr(e, '\0', errlen) != NULL);
		CHECK(errlen == 1 || e[0] != '\0');
	}
	if (!rc)
		check_cfg();
	return rc;
}

TEST(fuzz_random_bytes)
{
	static const char special[] = " \t\n\"=.";
	static const char *const prefix[] = {
		"", "rd.verigate=1 roothash=" H1 " ", "rd.verigate=", "roothash=",
		"rd.verigate.", "rd.verigate=audit roothash=", "rd.verigate.anon_exec=",
	};
	uint64_t seed = 0x243f6a8885a308d3ULL;
	long i;

	for (i = 0; i < 200000 && !unit.failed; i++) {
		const char *pre = prefix[unit_below(&seed, sizeof(prefix) / sizeof(prefix[0]))];
		size_t plen = strlen(pre), len = unit_below(&seed, 200), j;
		/* exactly the string on the heap so ASan sees any over-read */
		char *s = malloc(plen + len + 1);

		memcpy(s, pre, plen);
		for (j = plen; j < plen + len; j++) {
			switch (unit_below(&seed, 4)) {
			case 0:
				s[j] = special[unit_below(&seed, sizeof(special) - 1)];
				break;
			case 1:
				s[j] = "0123456789abcdefABCDEF"[unit_below(&seed, 22)];
				break;
			default:
				s[j] = (char)(1 + unit_below(&seed, 255));
			}
		}
		s[plen + len] = '\0';
		parse_sized(s, unit_below(&seed, 150));
		free(s);
	}
}

struct tok {
	const char *key;
	const char *val; /* NULL: no "=" */
};

static const struct tok dict[] = {
	{ "rd.verigate", "0" }, { "rd.verigate", "1" }, { "rd.verigate", "1" },
	{ "rd.verigate", "audit" }, { "rd.verigate", "yes" },
	{ "rd.verigate", NULL }, { "rd.verigate", "" },
	{ "rd.verigate.anon_exec", "deny" }, { "rd.verigate.anon_exec", "allow" },
	{ "rd.verigate.anon_exec", "bogus" }, { "rd.verigate.anon_exec", NULL },
	{ "roothash", H1 }, { "roothash", H2_UP }, { "roothash", H32 },
	{ "roothash", H1 }, { "roothash", "xyz" }, { "roothash", NULL },
	{ "rd.verigate.foo", "1" }, { "rd.verigate.bar", NULL },
	{ "xrd.verigate", "1" }, { "rd.verigatex", "1" }, { "roothashx", H1 },
	{ "root", "/dev/vda" }, { "quiet", NULL }, { "init", "/sbin/init" },
};

/* What vg_cmdline_parse should do with these tokens; want_err is a piece
 * of the expected message. */
static int model(const struct tok **toks, int n, struct vg_config *want,
		 char *want_err, size_t len)
{
	const char *mode = NULL, *anon = NULL, *hash = NULL, *unknown = NULL;
	int i;

	memset(want, 0, sizeof(*want));
	for (i = 0; i < n; i++) {
		const char *v = toks[i]->val ? toks[i]->val : "";

		if (!strcmp(toks[i]->key, "rd.verigate"))
			mode = v;
		else if (!strcmp(toks[i]->key, "rd.verigate.anon_exec"))
			anon = v;
		else if (!strcmp(toks[i]->key, "roothash"))
			hash = v;
		else if (!strncmp(toks[i]->key, "rd.verigate.", 12) && !unknown)
			unknown = toks[i]->key;
	}
	if (!mode || !strcmp(mode, "0"))
		return 0;
	if (!strcmp(mode, "1")) {
		want->mode = VG_MODE_ENFORCE;
	} else if (!strcmp(mode, "audit")) {
		want->mode = VG_MODE_AUDIT;
	} else {
		snprintf(want_err, len, "rd.verigate=%s", mode);
		return -1;
	}
	if (unknown) {
		snprintf(want_err, len, "%s", unknown);
		return -1;
	}
	if (anon && strcmp(anon, "allow") && strcmp(anon, "deny")) {
		snprintf(want_err, len, "rd.verigate.anon_exec=%s", anon);
		return -1;
	}
	want->deny_anon_exec = anon && !strcmp(anon, "deny");
	if (!hash || (strcmp(hash, H1) && strcmp(hash, H2_UP) && strcmp(hash, H32))) {
		snprintf(want_err, len, "roothash%s%s", hash ? "=" : "",
			 hash ? hash : "");
		return -1;
	}
	for (i = 0; hash[i]; i++)
		want->roothash[i] = (hash[i] >= 'A' && hash[i] <= 'F') ?
				    hash[i] - 'A' + 'a' : hash[i];
	return 0;
}

TEST(fuzz_tokens_against_model)
{
	static const char *const sep[] = { " ", "  ", "\t", "\n", " \t\n" };
	uint64_t seed = 0x13198a2e03707344ULL;
	const struct tok *toks[10];
	struct vg_config want;
	char want_err[256];
	long i;

	for (i = 0; i < 100000 && !unit.failed; i++) {
		int n = (int)unit_below(&seed, 10), k, rc, wrc;
		size_t len = 0;

		big[0] = '\0';
		if (unit_below(&seed, 2))
			len += (size_t)snprintf(big + len, sizeof(big) - len, "%s",
						sep[unit_below(&seed, 5)]);
		for (k = 0; k < n; k++) {
			const struct tok *t = &dict[unit_below(&seed, sizeof(dict) / sizeof(dict[0]))];
			/* quoting: none, the value, the whole argument */
			int q = (int)unit_below(&seed, 6);
			const char *qv = t->val && q == 1 ? "\"" : "";
			const char *qa = q == 2 ? "\"" : "";

			toks[k] = t;
			len += (size_t)snprintf(big + len, sizeof(big) - len, "%s%s%s%s%s%s%s",
						qa, t->key, t->val ? "=" : "", qv,
						t->val ? t->val : "", qv, qa);
			len += (size_t)snprintf(big + len, sizeof(big) - len, "%s",
						sep[unit_below(&seed, 5)]);
		}
		rc = parse(big);
		wrc = model(toks, n, &want, want_err, sizeof(want_err));
		if (rc != wrc) {
			unit_fail(__FILE__, __LINE__, "\"%s\": got %d, want %d (%s)",
				  big, rc, wrc, err);
			break;
		}
		if (rc) {
			CHECK_STR_HAS(err, want_err);
			continue;
		}
		CHECK_INT_EQ(cfg.mode, want.mode);
		if (want.mode == VG_MODE_OFF)
			continue;
		CHECK_INT_EQ(cfg.deny_anon_exec, want.deny_anon_exec);
		CHECK_STR_EQ(cfg.roothash, want.roothash);
	}
}

TEST(allow_list)
{
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1), 0);
	CHECK_INT_EQ(cfg.allow_count, 0);
	CHECK(!cfg.allow_signed);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " rd.verigate.allow=" H2), 0);
	CHECK_INT_EQ(cfg.allow_count, 1);
	CHECK_STR_EQ(cfg.allow[0], H2);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " rd.verigate.allow=" H1 "," H2), 0);
	CHECK_INT_EQ(cfg.allow_count, 2);
	CHECK_STR_EQ(cfg.allow[0], H1);
	CHECK_STR_EQ(cfg.allow[1], H2);
	/* the last occurrence wins, as for every option */
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " rd.verigate.allow=" H1
			   " rd.verigate.allow=" H2), 0);
	CHECK_INT_EQ(cfg.allow_count, 1);
	CHECK_STR_EQ(cfg.allow[0], H2);
}

TEST(allow_list_bad_values_are_named)
{
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.allow=");
	CHECK(strstr(err, "rd.verigate.allow=") != NULL);
	CHECK(strstr(err, "hex digests") != NULL);
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.allow");
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.allow=" H2 ",");
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.allow=," H2);
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.allow=" H2 ",,"  H1);
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.allow=xyz");
	CHECK(strstr(err, "rd.verigate.allow=xyz") != NULL);
}

TEST(allow_list_limit)
{
	char line[4096];
	int i, n;

	n = snprintf(line, sizeof(line), "rd.verigate=1 roothash=%s rd.verigate.allow=%s", H1, H2);
	for (i = 1; i < VG_ALLOW_MAX; i++)
		n += snprintf(line + n, sizeof(line) - n, ",%s", H2);
	CHECK_INT_EQ(parse(line), 0);
	CHECK_INT_EQ(cfg.allow_count, VG_ALLOW_MAX);
	snprintf(line + n, sizeof(line) - n, ",%s", H1);
	CHECK_FAILS(line);
	CHECK(strstr(err, "more than 16") != NULL);
}

TEST(signed_option)
{
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " rd.verigate.signed=1"), 0);
	CHECK(cfg.allow_signed);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " rd.verigate.signed=0"), 0);
	CHECK(!cfg.allow_signed);
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.signed=yes");
	CHECK(strstr(err, "rd.verigate.signed=yes") != NULL);
	CHECK_FAILS("rd.verigate=1 roothash=" H1 " rd.verigate.signed");
	CHECK(strstr(err, "rd.verigate.signed=") != NULL);
}

#define ON "rd.verigate=1 roothash=" H1
#define KEY " rd.verigate.pubkey=/etc/verigate/pubkey.pem"

TEST(signature_options)
{
	CHECK_INT_EQ(parse(ON KEY " rd.verigate.roothash_sig=AAECAw=="), 0);
	CHECK_STR_EQ(cfg.pubkey, "/etc/verigate/pubkey.pem");
	CHECK_INT_EQ((int)cfg.roothash_sig_len, 4);
	CHECK(!memcmp(cfg.roothash_sig, "\0\1\2\3", 4));
	CHECK_INT_EQ(parse(ON), 0);
	CHECK_STR_EQ(cfg.pubkey, "");
	CHECK_INT_EQ((int)cfg.roothash_sig_len, 0);
	/* Off: not looked at, as the other options. */
	CHECK_OFF("rd.verigate=0 rd.verigate.roothash_sig=@@");
}

TEST(signature_options_refused)
{
	CHECK_FAILS(ON KEY);
	CHECK_STR_HAS(err, "rd.verigate.roothash_sig: missing");
	CHECK_FAILS(ON " rd.verigate.roothash_sig=AAECAw==");
	CHECK_STR_HAS(err, "given without rd.verigate.pubkey=");
	CHECK_FAILS(ON " rd.verigate.pubkey=etc/key.pem rd.verigate.roothash_sig=AAECAw==");
	CHECK_STR_HAS(err, "rd.verigate.pubkey=etc/key.pem: not an absolute path");
	CHECK_FAILS(ON " rd.verigate.pubkey rd.verigate.roothash_sig=AAECAw==");
	CHECK_STR_HAS(err, "rd.verigate.pubkey=: not an absolute path");
	CHECK_FAILS(ON KEY " rd.verigate.roothash_sig=AAECAw");
	CHECK_STR_HAS(err, "rd.verigate.roothash_sig=AAECAw: not base64");
	CHECK_FAILS(ON KEY " rd.verigate.roothash_sig=");
	CHECK_STR_HAS(err, "rd.verigate.roothash_sig=: not base64");
}

TEST(signature_size_limits)
{
	char line[2048], path[300];
	size_t n;

	/* 512 bytes decode; 513 do not. */
	n = (size_t)snprintf(line, sizeof(line), ON KEY " rd.verigate.roothash_sig=");
	memset(line + n, 'A', 683); /* 170 groups of 3 bytes, then "AAA=" for 2 */
	strcpy(line + n + 683, "=");
	CHECK_INT_EQ(parse(line), 0);
	CHECK_INT_EQ((int)cfg.roothash_sig_len, 512);
	memset(line + n, 'A', 684);
	line[n + 684] = '\0';
	CHECK_FAILS(line);
	CHECK_STR_HAS(err, "at most 512 bytes");
	/* A key path of 255 characters fits, 256 do not. */
	path[0] = '/';
	memset(path + 1, 'k', 254);
	path[255] = '\0';
	snprintf(line, sizeof(line), ON " rd.verigate.pubkey=%s rd.verigate.roothash_sig=AA==", path);
	CHECK_INT_EQ(parse(line), 0);
	CHECK_INT_EQ((int)strlen(cfg.pubkey), 255);
	strcpy(path + 255, "k");
	snprintf(line, sizeof(line), ON " rd.verigate.pubkey=%s rd.verigate.roothash_sig=AA==", path);
	CHECK_FAILS(line);
	CHECK_STR_HAS(err, "at most 255 printable characters");
}

TEST(usrhash_names_the_tree)
{
	CHECK_INT_EQ(parse("rd.verigate=1 usrhash=" H1_UP " root=/dev/vda rw"), 0);
	CHECK_INT_EQ(cfg.tree, VG_TREE_USR);
	CHECK_STR_EQ(cfg.roothash, H1);
	CHECK_STR_EQ(vg_tree_option(cfg.tree), "usrhash");
	CHECK_STR_EQ(vg_tree_dir(cfg.tree), "/usr");
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H2), 0);
	CHECK_INT_EQ(cfg.tree, VG_TREE_ROOT);
	CHECK_STR_EQ(vg_tree_option(cfg.tree), "roothash");
	CHECK_STR_EQ(vg_tree_dir(cfg.tree), "");
	/* the last usrhash= wins, as with roothash= */
	CHECK_INT_EQ(parse("rd.verigate=audit usrhash=bad usrhash=" H2), 0);
	CHECK_STR_EQ(cfg.roothash, H2);
	CHECK_OFF("rd.verigate=0 usrhash=zz roothash=" H1);
}

TEST(usrhash_refused)
{
	CHECK_FAILS("rd.verigate=1 usrhash=" H1 " roothash=" H2);
	CHECK_STR_HAS(err, "usrhash=" H1);
	CHECK_STR_HAS(err, "given with roothash=");
	CHECK_FAILS("rd.verigate=1 usrhash=" H32 "x");
	CHECK_STR_HAS(err, "usrhash=" H32 "x: not a hex digest");
	CHECK_FAILS("rd.verigate=1 usrhash=");
	CHECK_STR_HAS(err, "usrhash=: not a hex digest");
	CHECK_FAILS("rd.verigate=1 usrhash");
	CHECK_STR_HAS(err, "usrhash=: not a hex digest");
	CHECK_FAILS("rd.verigate=audit");
	CHECK_STR_HAS(err, "usrhash=");
}

#define BAKED "/etc/verigate/pubkey.pem"
#define SIG "rd.verigate.roothash_sig=AAAA"

TEST(required_initramfs)
{
	/* Enforcing passes; with a key baked in, only with a signature by it. */
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1), 0);
	CHECK_INT_EQ(vg_cmdline_require(&cfg, NULL, err, sizeof(err)), 0);
	CHECK_INT_EQ(vg_cmdline_require(&cfg, BAKED, err, sizeof(err)), -1);
	CHECK_STR_HAS(err, "rd.verigate.pubkey: this initramfs requires the root hash signed by its key: rd.verigate.pubkey=" BAKED);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " rd.verigate.pubkey=" BAKED " " SIG), 0);
	CHECK_INT_EQ(vg_cmdline_require(&cfg, BAKED, err, sizeof(err)), 0);
	CHECK_INT_EQ(parse("rd.verigate=1 roothash=" H1 " rd.verigate.pubkey=/tmp/mine.pem " SIG), 0);
	CHECK_INT_EQ(vg_cmdline_require(&cfg, BAKED, err, sizeof(err)), -1);
	CHECK_STR_HAS(err, "rd.verigate.pubkey=/tmp/mine.pem: this initramfs requires");
	/* Off, absent and audit are refused, naming the option. */
	CHECK_OFF("rd.verigate=0 roothash=" H1);
	CHECK_INT_EQ(vg_cmdline_require(&cfg, NULL, err, sizeof(err)), -1);
	CHECK_STR_HAS(err, "rd.verigate: this initramfs requires rd.verigate=1");
	CHECK_OFF("root=/dev/mapper/root");
	CHECK_INT_EQ(vg_cmdline_require(&cfg, BAKED, err, sizeof(err)), -1);
	CHECK_STR_HAS(err, "requires rd.verigate=1");
	CHECK_INT_EQ(parse("rd.verigate=audit roothash=" H1), 0);
	CHECK_INT_EQ(vg_cmdline_require(&cfg, NULL, err, sizeof(err)), -1);
	CHECK_STR_HAS(err, "rd.verigate=audit: this initramfs requires rd.verigate=1");
}

TEST(kdump_options)
{
	CHECK_INT_EQ(parse(ON " crashkernel=128M rd.verigate.kdump=/boot/vmlinuz"), 0);
	CHECK_STR_EQ(cfg.kdump_kernel, "/boot/vmlinuz");
	CHECK_STR_EQ(cfg.kdump_initrd, "");
	CHECK_INT_EQ(parse(ON " rd.verigate.kdump_initrd=/boot/initrd.img rd.verigate.kdump=/boot/vmlinuz"), 0);
	CHECK_STR_EQ(cfg.kdump_kernel, "/boot/vmlinuz");
	CHECK_STR_EQ(cfg.kdump_initrd, "/boot/initrd.img");
	CHECK_INT_EQ(parse(ON), 0);
	CHECK_STR_EQ(cfg.kdump_kernel, "");
	/* Off: not even looked at. */
	CHECK_OFF("rd.verigate=0 rd.verigate.kdump=boot");
}

TEST(kdump_options_refused)
{
	CHECK_FAILS(ON " rd.verigate.kdump=boot/vmlinuz");
	CHECK_STR_HAS(err, "rd.verigate.kdump=boot/vmlinuz: not an absolute path");
	CHECK_FAILS(ON " rd.verigate.kdump");
	CHECK_STR_HAS(err, "rd.verigate.kdump=: not an absolute path");
	CHECK_FAILS(ON " rd.verigate.kdump=/boot/vmlinuz rd.verigate.kdump_initrd=initrd");
	CHECK_STR_HAS(err, "rd.verigate.kdump_initrd=initrd: not an absolute path");
	CHECK_FAILS(ON " rd.verigate.kdump_initrd=/boot/initrd.img");
	CHECK_STR_HAS(err, "rd.verigate.kdump_initrd=/boot/initrd.img: given without rd.verigate.kdump=");
	CHECK_FAILS(longarg(ON " rd.verigate.kdump=/", 'a', 255, ""));
	CHECK_STR_HAS(err, "at most 255 printable characters");
	CHECK(printable(err));
}

TEST(tpm_option)
{
	CHECK_INT_EQ(parse(ON), 0);
	CHECK(!cfg.tpm_required);
	CHECK_INT_EQ(parse(ON " rd.verigate.tpm=auto"), 0);
	CHECK(!cfg.tpm_required);
	CHECK_INT_EQ(parse(ON " rd.verigate.tpm=required"), 0);
	CHECK(cfg.tpm_required);
	/* Off is measured too: the option counts there. */
	CHECK_INT_EQ(parse("rd.verigate=0 rd.verigate.tpm=required"), 0);
	CHECK_INT_EQ(cfg.mode, VG_MODE_OFF);
	CHECK(cfg.tpm_required);
	CHECK_INT_EQ(parse("rd.verigate.tpm=required"), 0);
	CHECK(cfg.tpm_required);
}

TEST(tpm_option_refused)
{
	CHECK_FAILS(ON " rd.verigate.tpm=yes");
	CHECK_STR_HAS(err, "rd.verigate.tpm=yes: unknown value; use auto");
	CHECK_FAILS(ON " rd.verigate.tpm");
	CHECK_STR_HAS(err, "rd.verigate.tpm=: unknown value");
	CHECK_FAILS("rd.verigate=0 rd.verigate.tpm=Required");
	CHECK_STR_HAS(err, "rd.verigate.tpm=Required: unknown value");
	CHECK_FAILS(ON " rd.verigate.tpm=\x01");
	CHECK(printable(err));
}

int main(int argc, char **argv)
{
	unit_init(argc, argv);
	RUN(absent_is_off);
	RUN(empty_and_blank_are_off);
	RUN(null_cmdline_is_error);
	RUN(off_ignores_other_options);
	RUN(enforce);
	RUN(audit);
	RUN(audit_needs_roothash);
	RUN(bare_rd_verigate_is_error);
	RUN(bad_mode_values);
	RUN(last_mode_wins);
	RUN(last_roothash_and_anon_exec_win);
	RUN(enforce_needs_roothash);
	RUN(bad_roothash);
	RUN(roothash_upper_normalized);
	RUN(roothash_lengths);
	RUN(anon_exec);
	RUN(anon_exec_bad);
	RUN(unknown_option_when_on);
	RUN(unknown_option_ignored_when_off);
	RUN(quoted_values);
	RUN(quoted_arguments_not_split);
	RUN(tabs_newlines);
	RUN(similar_prefixes);
	RUN(long_tokens);
	RUN(many_tokens);
	RUN(long_mode_value_bounded);
	RUN(control_chars_in_values_sanitized);
	RUN(unknown_key_message_sanitized);
	RUN(unterminated_quote);
	RUN(small_err_buffer);
	RUN(cfg_reset);
	RUN(fuzz_random_bytes);
	RUN(fuzz_tokens_against_model);
	RUN(allow_list);
	RUN(allow_list_bad_values_are_named);
	RUN(allow_list_limit);
	RUN(signed_option);
	RUN(signature_options);
	RUN(signature_options_refused);
	RUN(signature_size_limits);
	RUN(usrhash_names_the_tree);
	RUN(usrhash_refused);
	RUN(required_initramfs);
	RUN(kdump_options);
	RUN(kdump_options_refused);
	RUN(tpm_option);
	RUN(tpm_option_refused);
	return unit_done();
}
