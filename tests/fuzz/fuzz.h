/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the libFuzzer targets (tests/run-fuzz): a broken invariant
 * aborts with a message, which libFuzzer reports as a crash and keeps the
 * input that caused it.
 */
#ifndef VG_FUZZ_H
#define VG_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MUST(cond)                                                             \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: invariant broken: %s\n",       \
				__FILE__, __LINE__, #cond);                    \
			abort();                                               \
		}                                                              \
	} while (0)

/* The input as a NUL-terminated string (an embedded NUL ends it early, as
 * it would for the loader, which reads text files). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	MUST(s);
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* A digest as vg_hex_normalize must leave it: 32 to 128 lower-case hex
 * digits, an even count. */
static inline int fuzz_is_normal_hex(const char *s)
{
	size_t i, len = strlen(s);

	if (len % 2 || len < 32 || len > 128)
		return 0;
	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* A message the loader prints to the console: one line of printable ASCII. */
static inline int fuzz_is_printable_line(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return 0;
	return 1;
}

#endif
