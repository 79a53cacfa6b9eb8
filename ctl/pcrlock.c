// SPDX-License-Identifier: GPL-2.0
#include "pcrlock.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

#include "append.h"
#include "hex.h"

/* The banks of systemd's own components (/usr/lib/pcrlock.d), by the
 * names of its event log. */
static const struct {
	const char *name;
	const EVP_MD *(*md)(void);
} banks[] = {
	{ "sha1", EVP_sha1 },
	{ "sha256", EVP_sha256 },
	{ "sha384", EVP_sha384 },
	{ "sha512", EVP_sha512 },
};

int vg_pcrlock_component(unsigned int pcr, const char *const *texts, int count, char *buf,
			 size_t len)
{
	unsigned char d[EVP_MAX_MD_SIZE];
	char hex[2 * EVP_MAX_MD_SIZE + 1];
	unsigned int dlen;
	size_t n = 0, b;
	int i;

	vg_append(buf, len, &n, "{\"records\":[");
	for (i = 0; i < count; i++) {
		vg_append(buf, len, &n, "%s{\"pcr\":%u,\"digests\":[", i ? "," : "", pcr);
		for (b = 0; b < sizeof(banks) / sizeof(banks[0]); b++) {
			if (!EVP_Digest(texts[i], strlen(texts[i]), d, &dlen, banks[b].md(), NULL))
				return -1;
			vg_bytes_to_hex(d, dlen, hex, sizeof(hex));
			vg_append(buf, len, &n, "%s{\"hashAlg\":\"%s\",\"digest\":\"%s\"}", b ? "," : "",
			       banks[b].name, hex);
		}
		vg_append(buf, len, &n, "]}");
	}
	vg_append(buf, len, &n, "]}");
	return n < len ? (int)n : -1;
}
