// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's PCR extend against a software TPM (swtpm, started by
 * tests/check with a sha1 and a sha256 bank): every bank is extended, each
 * with the event's digest in its own hash, and the PCR then holds what a
 * replay computes. usage: test_tpm TCTI (e.g. "swtpm:port=2321")
 */
#include <openssl/evp.h>
#include <tss2/tss2_tctildr.h>

#include <stdlib.h>
#include <sys/stat.h>

#include "hex.h"
#include "measurement.h"
#include "tpm.h"
#include "unit.h"

static struct vg_tpm tpm;

/* PCR value after extending old (len bytes) with digest d, in hash md. */
static void replay(const char *md, const unsigned char *old, const unsigned char *d, size_t len,
		   unsigned char *out)
{
	unsigned char buf[128];
	unsigned int n;

	memcpy(buf, old, len);
	memcpy(buf + len, d, len);
	EVP_Digest(buf, 2 * len, out, &n, EVP_get_digestbyname(md), NULL);
}

static void check_bank(unsigned int pcr, TPMI_ALG_HASH alg, const char *md, const char *event)
{
	unsigned char before[64], after[64], d[64], want[64];
	struct vg_tpm_event ev;
	unsigned int n;
	char err[256] = "";
	int len, i, found = -1;

	len = vg_tpm_read(&tpm, pcr, alg, before, err, sizeof(err));
	CHECK(len > 0);
	CHECK_INT_EQ(vg_tpm_extend(&tpm, pcr, event, strlen(event), &ev, err, sizeof(err)), 0);
	CHECK_STR_EQ(err, "");
	CHECK(ev.count == 2);
	for (i = 0; i < ev.count; i++)
		if (ev.banks[i].alg == alg)
			found = i;
	CHECK(found >= 0);
	if (found < 0 || len <= 0)
		return;
	EVP_Digest(event, strlen(event), d, &n, EVP_get_digestbyname(md), NULL);
	CHECK((int)n == len && ev.banks[found].len == n && !memcmp(ev.banks[found].digest, d, n));
	CHECK_STR_EQ(ev.banks[found].name, md);
	replay(md, before, d, len, want);
	CHECK(vg_tpm_read(&tpm, pcr, alg, after, err, sizeof(err)) == len);
	CHECK(!memcmp(after, want, len));
}

TEST(extends_sha256_bank_to_the_replayed_value)
{
	check_bank(9, TPM2_ALG_SHA256, "sha256", "verigate test event");
}

TEST(extends_sha1_bank_too)
{
	check_bank(9, TPM2_ALG_SHA1, "sha1", "verigate another event");
}

TEST(refuses_a_pcr_that_does_not_exist)
{
	struct vg_tpm_event ev;
	char err[256] = "";

	CHECK(vg_tpm_extend(&tpm, 24, "x", 1, &ev, err, sizeof(err)) == -1);
	CHECK_STR_HAS(err, "no PCR 24");
}

TEST(no_device_is_no_tpm)
{
	struct vg_tpm none;
	char err[256] = "";

	CHECK(vg_tpm_open(&none, "/nonexistent/tpmrm0", err, sizeof(err)) == 1);
}

/* The sha256 digest after "sha256","digest":" in a record, as bytes. */
static int record_sha256(const char *rec, unsigned char *out)
{
	const char *p = strstr(rec, "{\"hashAlg\":\"sha256\",\"digest\":\"");
	char hex[65];

	if (!p)
		return -1;
	p += strlen("{\"hashAlg\":\"sha256\",\"digest\":\"");
	memcpy(hex, p, 64);
	hex[64] = '\0';
	return vg_hex_to_bytes(hex, out, 32) == 32 ? 0 : -1;
}

TEST(measure_logs_the_event_and_the_separator_and_the_pcr_replays)
{
	char dir[] = "/tmp/vg-measure-XXXXXX", path[128], log[8192], err[256] = "";
	unsigned char before[32], pcr[32], d[32], replayed[32];
	const char *event = "verigate mode=enforce loaded=yes \"quoted\"";
	struct vg_measured m;
	char *rec[3] = { 0 };
	FILE *f;
	size_t n;
	int i;

	CHECK(mkdtemp(dir) != NULL);
	/* Its directories are made as systemd makes them. */
	snprintf(path, sizeof(path), "%s/run/log/systemd/tpm2-measure.log", dir);
	CHECK_INT_EQ(vg_tpm_read(&tpm, VG_MEASURE_PCR, TPM2_ALG_SHA256, before, err, sizeof(err)), 32);
	CHECK_INT_EQ(vg_measure(&tpm, path, event, &m, err, sizeof(err)), 0);
	CHECK_STR_EQ(err, "");
	CHECK(m.measured);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	n = fread(log, 1, sizeof(log) - 1, f);
	fclose(f);
	log[n] = '\0';
	/* Two records, each 0x1E, one line of JSON, and a newline. */
	CHECK(log[0] == 0x1e);
	rec[0] = log + 1;
	rec[1] = strchr(rec[0], 0x1e);
	CHECK(rec[1] != NULL);
	if (!rec[1])
		return;
	*rec[1]++ = '\0';
	CHECK(strchr(rec[1], 0x1e) == NULL);
	CHECK_STR_HAS(rec[0], "{\"pcr\":9,\"digests\":[{\"hashAlg\":\"sha1\"");
	CHECK_STR_HAS(rec[0], "\"content_type\":\"verigate\",\"content\":{\"string\":\"verigate mode=enforce loaded=yes \\\"quoted\\\"\"}}\n");
	CHECK_STR_HAS(rec[1], "\"content\":{\"string\":\"verigate separator\"}}\n");
	/* The log replays to the PCR: old, then each record's sha256 digest. */
	memcpy(replayed, before, 32);
	for (i = 0; i < 2; i++) {
		unsigned char buf[64];
		unsigned int len;

		CHECK_INT_EQ(record_sha256(rec[i], d), 0);
		memcpy(buf, replayed, 32);
		memcpy(buf + 32, d, 32);
		EVP_Digest(buf, 64, replayed, &len, EVP_sha256(), NULL);
	}
	CHECK_INT_EQ(vg_tpm_read(&tpm, VG_MEASURE_PCR, TPM2_ALG_SHA256, pcr, err, sizeof(err)), 32);
	CHECK(!memcmp(pcr, replayed, 32));
	vg_bytes_to_hex(pcr, 32, log, sizeof(log));
	CHECK_STR_EQ(m.pcr_sha256, log);
	/* The event's digest is that of its text, without a NUL. */
	EVP_Digest(event, strlen(event), d, NULL, EVP_sha256(), NULL);
	vg_bytes_to_hex(d, 32, log, sizeof(log));
	CHECK_STR_EQ(m.event_sha256, log);
	/* The log is left 0600, without the mark of a half-written record. */
	{
		struct stat st;

		CHECK_INT_EQ(stat(path, &st), 0);
		CHECK_INT_EQ(st.st_mode & 07777, 0600);
	}
}

/* The longest configuration the command line takes is measured whole: a
 * sha512 tree hash, 16 sha512 digests allowed, a 255-character kdump path
 * with quotes and backslashes; and its record fits, every bank in it. */
TEST(the_longest_configuration_is_described_whole)
{
	static char event[VG_MEASURE_EVENT_MAX], record[VG_MEASURE_RECORD_MAX];
	static struct vg_config cfg = {
		.mode = VG_MODE_ENFORCE, .tree = VG_TREE_ROOT, .pubkey = "/etc/verigate/key.pem",
		.deny_anon_exec = true, .allow_count = VG_ALLOW_MAX, .allow_signed = true,
	};
	const struct vg_gate_kernel k = {
		.verity_sig = true, .guards = 99, .live = 99, .programs = 99,
		.features = { .bpf_hook_args = 4 },
	};
	struct vg_tpm_event ev = { .count = VG_TPM_BANKS_MAX };
	int i;

	memset(cfg.roothash, 'a', 128);
	for (i = 0; i < VG_ALLOW_MAX; i++)
		memset(cfg.allow[i], 'b', 128);
	memset(cfg.kdump_kernel, '"', 255);
	cfg.kdump_kernel[0] = '/';
	cfg.kdump_kernel[100] = '\\';
	CHECK(vg_gate_describe(&cfg, &k, event, sizeof(event)) > 0);
	CHECK_STR_HAS(event, cfg.allow[VG_ALLOW_MAX - 1]);
	CHECK_STR_HAS(event, cfg.kdump_kernel);
	for (i = 0; i < ev.count; i++) {
		ev.banks[i].name = "sha512";
		ev.banks[i].len = 64;
	}
	CHECK(vg_measure_record(VG_MEASURE_PCR, &ev, event, record, sizeof(record)) > 0);
}

int main(int argc, char **argv)
{
	TSS2_TCTI_CONTEXT *tcti = NULL;
	char err[256];

	unit_init(argc, argv);
	if (argc != 2 || Tss2_TctiLdr_Initialize(argv[1], &tcti) != TSS2_RC_SUCCESS ||
	    vg_tpm_open_tcti(&tpm, tcti, err, sizeof(err))) {
		fprintf(stderr, "test_tpm: cannot reach the TPM at %s\n", argc == 2 ? argv[1] : "(none)");
		return 2;
	}
	RUN(extends_sha256_bank_to_the_replayed_value);
	RUN(extends_sha1_bank_too);
	RUN(refuses_a_pcr_that_does_not_exist);
	RUN(no_device_is_no_tpm);
	RUN(measure_logs_the_event_and_the_separator_and_the_pcr_replays);
	RUN(the_longest_configuration_is_described_whole);
	vg_tpm_close(&tpm);
	Tss2_TctiLdr_Finalize(&tcti);
	return unit_done();
}
