// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for vg_roothash_sig_verify (loader/roothash_sig.c). The keys
 * are made here, at test time, and only their public halves reach a file.
 */
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <stdlib.h>
#include <unistd.h>

#include "roothash_sig.h"
#include "unit.h"

#define H1 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define H2 "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"

static char dir[] = "/tmp/vg-test-sig.XXXXXX";
static char err[1024];

struct key {
	const char *name;
	EVP_PKEY *pkey;
	char path[64];
};

static struct key keys[] = {
	{ .name = "ec" }, { .name = "ed25519" }, { .name = "rsa" }, { .name = "other-ec" },
};

static EVP_PKEY *make_key(const char *name)
{
	if (!strcmp(name, "ed25519"))
		return EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
	if (!strcmp(name, "rsa"))
		return EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
	return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		abort();
}

static void setup(void)
{
	size_t i;

	if (!mkdtemp(dir))
		abort();
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		FILE *f;

		keys[i].pkey = make_key(keys[i].name);
		snprintf(keys[i].path, sizeof(keys[i].path), "%s/%s.pem", dir, keys[i].name);
		f = fopen(keys[i].path, "w");
		if (!keys[i].pkey || !f || !PEM_write_PUBKEY(f, keys[i].pkey) || fclose(f))
			abort();
	}
}

static size_t sign(const struct key *k, const char *text, unsigned char *sig, size_t len)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	const EVP_MD *md = strcmp(k->name, "ed25519") ? EVP_sha256() : NULL;

	if (!ctx || EVP_DigestSignInit(ctx, NULL, md, NULL, k->pkey) != 1 ||
	    EVP_DigestSign(ctx, sig, &len, (const unsigned char *)text, strlen(text)) != 1)
		abort();
	EVP_MD_CTX_free(ctx);
	return len;
}

static int verify(const char *path, const char *hash, const unsigned char *sig, size_t len)
{
	memset(err, 0, sizeof(err));
	return vg_roothash_sig_verify(path, hash, sig, len, err, sizeof(err));
}

TEST(each_key_type_verifies)
{
	unsigned char sig[512];
	size_t i, n;

	for (i = 0; i < 3; i++) {
		n = sign(&keys[i], H1, sig, sizeof(sig));
		CHECK_INT_EQ(verify(keys[i].path, H1, sig, n), 0);
	}
}

TEST(signature_of_another_hash_refused)
{
	unsigned char sig[512];
	size_t i, n;

	for (i = 0; i < 3; i++) {
		n = sign(&keys[i], H2, sig, sizeof(sig));
		CHECK_INT_EQ(verify(keys[i].path, H1, sig, n), -1);
		CHECK_STR_HAS(err, "not a signature of roothash=" H1);
	}
	/* The signed text is the hex string alone: not with a newline. */
	n = sign(&keys[0], H1 "\n", sig, sizeof(sig));
	CHECK_INT_EQ(verify(keys[0].path, H1, sig, n), -1);
}

TEST(signature_by_another_key_refused)
{
	unsigned char sig[512];
	size_t n = sign(&keys[3], H1, sig, sizeof(sig));

	CHECK_INT_EQ(verify(keys[0].path, H1, sig, n), -1);
	CHECK_STR_HAS(err, keys[0].path);
	/* nor a signature of another key type */
	n = sign(&keys[2], H1, sig, sizeof(sig));
	CHECK_INT_EQ(verify(keys[1].path, H1, sig, n), -1);
}

TEST(damaged_signature_refused)
{
	unsigned char sig[512];
	size_t i, n, cut;

	for (i = 0; i < 3; i++) {
		n = sign(&keys[i], H1, sig, sizeof(sig));
		for (cut = 0; cut < n; cut += 7)
			CHECK_INT_EQ(verify(keys[i].path, H1, sig, cut), -1);
		sig[n / 2] ^= 0x01;
		CHECK_INT_EQ(verify(keys[i].path, H1, sig, n), -1);
	}
}

TEST(bad_key_files_refused)
{
	unsigned char sig[512];
	char path[128], pem[4096];
	size_t n = sign(&keys[0], H1, sig, sizeof(sig)), len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/missing.pem", dir);
	CHECK_INT_EQ(verify(path, H1, sig, n), -1);
	CHECK_STR_HAS(err, "missing.pem: cannot open: No such file or directory");

	snprintf(path, sizeof(path), "%s/text.pem", dir);
	write_file(path, "not a key\n", 10);
	CHECK_INT_EQ(verify(path, H1, sig, n), -1);
	CHECK_STR_HAS(err, "text.pem: not a PEM public key");

	/* The first half of a good key file. */
	f = fopen(keys[0].path, "r");
	len = f ? fread(pem, 1, sizeof(pem), f) : 0;
	if (f)
		fclose(f);
	CHECK(len > 100);
	snprintf(path, sizeof(path), "%s/truncated.pem", dir);
	write_file(path, pem, len / 2);
	CHECK_INT_EQ(verify(path, H1, sig, n), -1);
	CHECK_STR_HAS(err, "truncated.pem: not a PEM public key");

	/* A private key where the public one belongs is not taken either. */
	snprintf(path, sizeof(path), "%s/private.pem", dir);
	f = fopen(path, "w");
	CHECK(f && PEM_write_PrivateKey(f, keys[0].pkey, NULL, NULL, 0, NULL, NULL));
	if (f)
		fclose(f);
	CHECK_INT_EQ(verify(path, H1, sig, n), -1);
	CHECK_STR_HAS(err, "not a PEM public key");
	unlink(path);
}

int main(int argc, char **argv)
{
	size_t i;
	int ret;

	unit_init(argc, argv);
	setup();
	RUN(each_key_type_verifies);
	RUN(signature_of_another_hash_refused);
	RUN(signature_by_another_key_refused);
	RUN(damaged_signature_refused);
	RUN(bad_key_files_refused);
	ret = unit_done();
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		unlink(keys[i].path);
		EVP_PKEY_free(keys[i].pkey);
	}
	unlink(strcat(strcpy(err, dir), "/missing.pem"));
	unlink(strcat(strcpy(err, dir), "/text.pem"));
	unlink(strcat(strcpy(err, dir), "/truncated.pem"));
	rmdir(dir);
	return ret;
}
