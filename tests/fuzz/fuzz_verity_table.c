// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: vg_verity_table_parse and vg_verity_status_ok on any
 * text a device-mapper status ioctl could return. What the parser accepts
 * is checked against a second, plain reading of the same fields.
 */
#include <ctype.h>

#include "fuzz.h"
#include "verity_table.h"

#define TOKENS_MAX 64

static int tokens(char *s, char **tok)
{
	int n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(s, " ", &save); t && n < TOKENS_MAX; t = strtok_r(NULL, " ", &save))
		tok[n++] = t;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), *copy = fuzz_string(data, size);
	struct vg_verity_table t;
	char err[256] = "", *tok[TOKENS_MAX];
	size_t i;
	int ret, n, k;

	ret = vg_verity_table_parse(text, &t, err, sizeof(err));
	MUST(ret == 0 || ret == -1);
	if (ret) {
		MUST(err[0] != '\0');
		MUST(fuzz_is_printable_line(err));
	} else {
		n = tokens(copy, tok);
		MUST(n >= 10);
		MUST(t.version <= 1);
		MUST(!strcmp(t.data_dev, tok[1]) && !strcmp(t.hash_dev, tok[2]));
		MUST(!strcmp(t.algorithm, tok[7]));
		MUST(fuzz_is_normal_hex(t.root_digest));
		MUST(strlen(t.root_digest) == strlen(tok[8]));
		for (i = 0; i < strlen(tok[8]); i++)
			MUST(t.root_digest[i] == tolower((unsigned char)tok[8][i]));
		/* Accepted means every read is verified. */
		for (k = 10; k < n; k++)
			MUST(strcmp(tok[k], "ignore_corruption") &&
			     strcmp(tok[k], "check_at_most_once"));
	}
	/* A status line is good only if it starts with the 'V' field. */
	if (vg_verity_status_ok(text))
		MUST(text[0] == 'V' && (text[1] == '\0' || text[1] == ' '));
	free(text);
	free(copy);
	return 0;
}
