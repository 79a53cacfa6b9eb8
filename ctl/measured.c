// SPDX-License-Identifier: GPL-2.0
#include "measured.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

#include "hex.h"

/* The value of the JSON string field key ("\"key\":\"") in rec, unescaped
 * as the loader escapes (\" \\ \uXXXX), into out. NULL if absent or bad. */
static const char *string_field(const char *rec, const char *key, char *out, size_t len)
{
	char pattern[64];
	const char *p;
	size_t n = 0;

	snprintf(pattern, sizeof(pattern), "\"%s\":\"", key);
	p = strstr(rec, pattern);
	if (!p)
		return NULL;
	for (p += strlen(pattern); *p && *p != '"'; p++) {
		char c = *p;

		if (c == '\\') {
			unsigned int u;

			if (p[1] == '"' || p[1] == '\\') {
				c = *++p;
			} else if (p[1] == 'u' && sscanf(p + 2, "%4x", &u) == 1 && u < 0x80) {
				c = u;
				p += 5;
			} else {
				return NULL;
			}
		}
		if (n + 1 >= len)
			return NULL;
		out[n++] = c;
	}
	if (*p != '"')
		return NULL;
	out[n] = '\0';
	return out;
}

static bool is_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return s[len] == '\0';
}

int vg_measured_parse(const char *log, struct vg_measured_log *out, char *err, size_t errlen)
{
	const char *rec = log;
	char *copy;

	memset(out, 0, sizeof(*out));
	while ((rec = strchr(rec, 0x1e))) {
		const char *end = strchr(++rec, 0x1e), *sha;
		struct vg_measured_event *ev;
		char type[32];
		size_t len = end ? (size_t)(end - rec) : strlen(rec);

		copy = strndup(rec, len);
		if (!copy)
			return -1;
		if (!string_field(copy, "content_type", type, sizeof(type)) || strcmp(type, "verigate")) {
			free(copy);
			continue;
		}
		if (out->count == VG_MEASURED_MAX) {
			snprintf(err, errlen, "more than %d verigate records", VG_MEASURED_MAX);
			free(copy);
			return -1;
		}
		ev = &out->events[out->count];
		sha = strstr(copy, "{\"hashAlg\":\"sha256\",\"digest\":\"");
		if (sscanf(copy, "{\"pcr\":%u,", &ev->pcr) != 1 || !sha ||
		    sscanf(sha + strlen("{\"hashAlg\":\"sha256\",\"digest\":\""), "%64[0-9a-f]",
			   ev->sha256) != 1 ||
		    !is_hex(ev->sha256, 64) ||
		    !string_field(copy, "string", ev->text, sizeof(ev->text))) {
			snprintf(err, errlen, "a verigate record is malformed: %.120s", copy);
			free(copy);
			return -1;
		}
		free(copy);
		out->count++;
		if (!end)
			break;
		rec = end;
	}
	return out->count;
}

int vg_measured_replay(const char *start, const char *const *sha256, int count, char out[65])
{
	unsigned char pcr[64];
	int i;

	if (!is_hex(start, 64))
		return -1;
	vg_hex_to_bytes(start, pcr, 32);
	for (i = 0; i < count; i++) {
		if (!is_hex(sha256[i], 64))
			return -1;
		vg_hex_to_bytes(sha256[i], pcr + 32, 32);
		EVP_Digest(pcr, 64, pcr, NULL, EVP_sha256(), NULL);
	}
	return vg_bytes_to_hex(pcr, 32, out, 65);
}

void vg_measured_digest(const char *text, char out[65])
{
	unsigned char d[32];

	EVP_Digest(text, strlen(text), d, NULL, EVP_sha256(), NULL);
	vg_bytes_to_hex(d, 32, out, 65);
}
