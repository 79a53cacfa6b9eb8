// SPDX-License-Identifier: GPL-2.0
/* verigatectl's reading of the loader's TPM event log records, and the
 * PCR value it expects for an event. */
#include "measured.h"
#include "unit.h"

#define ZERO "0000000000000000000000000000000000000000000000000000000000000000"
#define OFF_EVENT "verigate mode=off loaded=no"
/* sha256 of OFF_EVENT, and PCR 9 after it and the separator from zero, as
 * a software TPM computed it on a 6.1 off boot (suite tpm). */
#define OFF_SHA256 "f05ba0faa5af31c8845460739cba9f156fb399f2ad79330a058f6a301446ad88"
#define OFF_PCR9 "802342945cb3e2e62575595264daca1358f38622517289eac1e99c897dac57ee"

static struct vg_measured_log m;
static char err[256];

TEST(reads_verigate_records_and_skips_others)
{
	const char *log =
		"\x1e{\"pcr\":11,\"digests\":[{\"hashAlg\":\"sha256\",\"digest\":\"" ZERO "\"}],"
		"\"content_type\":\"systemd\",\"content\":{\"string\":\"enter-initrd\",\"eventType\":\"phase\"}}\n"
		"\x1e{\"pcr\":9,\"digests\":[{\"hashAlg\":\"sha1\",\"digest\":\"00\"},{\"hashAlg\":\"sha256\",\"digest\":\"" OFF_SHA256 "\"}],"
		"\"content_type\":\"verigate\",\"content\":{\"string\":\"" OFF_EVENT "\"}}\n"
		"\x1e{\"pcr\":9,\"digests\":[{\"hashAlg\":\"sha256\",\"digest\":\"" ZERO "\"}],"
		"\"content_type\":\"verigate\",\"content\":{\"string\":\"a \\\"q\\\" \\\\ \\u0001\"}}\n";

	CHECK_INT_EQ(vg_measured_parse(log, &m, err, sizeof(err)), 2);
	CHECK_INT_EQ(m.events[0].pcr, 9);
	CHECK_STR_EQ(m.events[0].sha256, OFF_SHA256);
	CHECK_STR_EQ(m.events[0].text, OFF_EVENT);
	CHECK_STR_EQ(m.events[1].text, "a \"q\" \\ \x01");
}

/* The loader's longest event (4095 characters) is read back whole. */
TEST(reads_the_longest_event)
{
	static char log[8192], text[4096];

	memset(text, 'x', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	snprintf(log, sizeof(log),
		 "\x1e{\"pcr\":9,\"digests\":[{\"hashAlg\":\"sha256\",\"digest\":\"" ZERO "\"}],"
		 "\"content_type\":\"verigate\",\"content\":{\"string\":\"%s\"}}\n", text);
	CHECK_INT_EQ(vg_measured_parse(log, &m, err, sizeof(err)), 1);
	CHECK_STR_EQ(m.events[0].text, text);
}

TEST(empty_log_has_no_record)
{
	CHECK_INT_EQ(vg_measured_parse("", &m, err, sizeof(err)), 0);
	CHECK_INT_EQ(vg_measured_parse("\x1e{\"pcr\":15}\n", &m, err, sizeof(err)), 0);
}

TEST(malformed_verigate_record_is_refused)
{
	/* No sha256 bank; a short digest; an unterminated string; no pcr. */
	CHECK_INT_EQ(vg_measured_parse("\x1e{\"pcr\":9,\"digests\":[],\"content_type\":\"verigate\",\"content\":{\"string\":\"x\"}}\n",
				       &m, err, sizeof(err)), -1);
	CHECK_STR_HAS(err, "malformed");
	CHECK_INT_EQ(vg_measured_parse("\x1e{\"pcr\":9,\"digests\":[{\"hashAlg\":\"sha256\",\"digest\":\"abcd\"}],\"content_type\":\"verigate\",\"content\":{\"string\":\"x\"}}\n",
				       &m, err, sizeof(err)), -1);
	CHECK_INT_EQ(vg_measured_parse("\x1e{\"pcr\":9,\"digests\":[{\"hashAlg\":\"sha256\",\"digest\":\"" ZERO "\"}],\"content_type\":\"verigate\",\"content\":{\"string\":\"x",
				       &m, err, sizeof(err)), -1);
	CHECK_INT_EQ(vg_measured_parse("\x1e{\"digests\":[{\"hashAlg\":\"sha256\",\"digest\":\"" ZERO "\"}],\"content_type\":\"verigate\",\"content\":{\"string\":\"x\"}}\n",
				       &m, err, sizeof(err)), -1);
}

TEST(digest_and_replay_match_the_tpm)
{
	char d[2][65], pcr[65];
	const char *list[2] = { d[0], d[1] };

	vg_measured_digest(OFF_EVENT, d[0]);
	CHECK_STR_EQ(d[0], OFF_SHA256);
	vg_measured_digest("verigate separator", d[1]);
	CHECK_INT_EQ(vg_measured_replay(ZERO, list, 2, pcr), 0);
	CHECK_STR_EQ(pcr, OFF_PCR9);
	CHECK_INT_EQ(vg_measured_replay("00", list, 2, pcr), -1);
	CHECK_INT_EQ(vg_measured_replay(ZERO, (const char *[]){ "xyz" }, 1, pcr), -1);
}

int main(int argc, char **argv)
{
	unit_init(argc, argv);
	RUN(reads_verigate_records_and_skips_others);
	RUN(reads_the_longest_event);
	RUN(empty_log_has_no_record);
	RUN(malformed_verigate_record_is_refused);
	RUN(digest_and_replay_match_the_tpm);
	return unit_done();
}
