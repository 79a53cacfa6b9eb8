// SPDX-License-Identifier: GPL-2.0
/* The initramfs half of a signed root hash, with OpenSSL's libcrypto. */
#include "roothash_sig.h"

#include <errno.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <stdio.h>
#include <string.h>

static EVP_PKEY *read_key(const char *keypath, char *err, size_t errlen)
{
	EVP_PKEY *key;
	FILE *f = fopen(keypath, "re");

	if (!f) {
		snprintf(err, errlen, "rd.verigate.pubkey=%s: cannot open: %s", keypath,
			 strerror(errno));
		return NULL;
	}
	key = PEM_read_PUBKEY(f, NULL, NULL, NULL);
	fclose(f);
	if (!key)
		snprintf(err, errlen, "rd.verigate.pubkey=%s: not a PEM public key", keypath);
	return key;
}

int vg_roothash_sig_verify(const char *keypath, const char *roothash,
			   const unsigned char *sig, size_t siglen, char *err, size_t errlen)
{
	EVP_MD_CTX *ctx = NULL;
	EVP_PKEY *key;
	int ok = 0;

	key = read_key(keypath, err, errlen);
	if (key) {
		/* Ed25519 hashes inside the algorithm and takes no digest. */
		const EVP_MD *md = EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519 ? NULL : EVP_sha256();

		ctx = EVP_MD_CTX_new();
		ok = ctx && EVP_DigestVerifyInit(ctx, NULL, md, NULL, key) == 1 &&
		     EVP_DigestVerify(ctx, sig, siglen, (const unsigned char *)roothash,
				      strlen(roothash)) == 1;
		if (!ok)
			snprintf(err, errlen,
				 "rd.verigate.roothash_sig: not a signature of roothash=%s by the key in %s",
				 roothash, keypath);
	}
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(key);
	ERR_clear_error();
	return ok ? 0 : -1;
}
