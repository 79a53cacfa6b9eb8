// SPDX-License-Identifier: GPL-2.0
#include "verity_table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELDS_MIN 10
#define FIELDS_MAX 32
#define FIELD_LEN 160

struct fields {
	int n;
	char v[FIELDS_MAX][FIELD_LEN];
};

static int split(const char *s, struct fields *f)
{
	f->n = 0;
	while (*s) {
		size_t len = 0;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		if (f->n == FIELDS_MAX)
			return -1;
		while (s[len] && s[len] != ' ')
			len++;
		if (len >= FIELD_LEN)
			return -1;
		memcpy(f->v[f->n], s, len);
		f->v[f->n][len] = '\0';
		f->n++;
		s += len;
	}
	return 0;
}

static int parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return (errno || *end || *out > max) ? -1 : 0;
}

static int copy_field(char *dst, size_t len, const char *src)
{
	if (strlen(src) >= len)
		return -1;
	strcpy(dst, src);
	return 0;
}

static int check_options(const struct fields *f, char *err, size_t errlen)
{
	unsigned long long count;
	int i;

	if (f->n == FIELDS_MIN)
		return 0;
	if (parse_uint(f->v[FIELDS_MIN], FIELDS_MAX, &count) ||
	    (int)count != f->n - FIELDS_MIN - 1) {
		snprintf(err, errlen, "verity table: bad optional argument count");
		return -1;
	}
	for (i = FIELDS_MIN + 1; i < f->n; i++) {
		if (!strcmp(f->v[i], "ignore_corruption") ||
		    !strcmp(f->v[i], "check_at_most_once")) {
			snprintf(err, errlen,
				 "verity table has %s: reads are not all verified",
				 f->v[i]);
			return -1;
		}
	}
	return 0;
}

int vg_verity_table_parse(const char *params, struct vg_verity_table *t,
			  char *err, size_t errlen)
{
	static const unsigned long long max_u32 = 0xffffffffULL;
	static const unsigned long long max_u64 = ~0ULL;
	struct fields f;
	unsigned long long n;
	int i;

	memset(t, 0, sizeof(*t));
	if (!params || split(params, &f) || f.n < FIELDS_MIN) {
		snprintf(err, errlen, "verity table: malformed (need %d fields)",
			 FIELDS_MIN);
		return -1;
	}
	if (parse_uint(f.v[0], 1, &n)) {
		snprintf(err, errlen, "verity table: unsupported version");
		return -1;
	}
	t->version = (unsigned int)n;
	for (i = 3; i <= 6; i++) {
		if (parse_uint(f.v[i], i <= 4 ? max_u32 : max_u64, &n)) {
			snprintf(err, errlen, "verity table: field %d is not a number", i + 1);
			return -1;
		}
	}
	if (copy_field(t->data_dev, sizeof(t->data_dev), f.v[1]) ||
	    copy_field(t->hash_dev, sizeof(t->hash_dev), f.v[2]) ||
	    copy_field(t->algorithm, sizeof(t->algorithm), f.v[7])) {
		snprintf(err, errlen, "verity table: device or algorithm name too long");
		return -1;
	}
	if (vg_hex_normalize(f.v[8], strlen(f.v[8]), t->root_digest,
			     sizeof(t->root_digest))) {
		snprintf(err, errlen, "verity table: root digest is not hex");
		return -1;
	}
	return check_options(&f, err, errlen);
}

bool vg_verity_status_ok(const char *status)
{
	return status && status[0] == 'V' && (status[1] == '\0' || status[1] == ' ');
}
