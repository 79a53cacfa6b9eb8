/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VG_HEX_H
#define VG_HEX_H

#include <stdbool.h>
#include <stddef.h>

/* Longest digest dm-verity can use (sha512) as hex, plus one for the NUL. */
#define VG_HASH_HEX_MAX 128
#define VG_HASH_HEX_MIN 32

/*
 * Copy the hex digest in[0..len) to out in lower case. Fails (returns -1) on
 * an odd length, a length outside [VG_HASH_HEX_MIN, VG_HASH_HEX_MAX], a
 * non-hex character, or an out buffer shorter than len + 1.
 */
int vg_hex_normalize(const char *in, size_t len, char *out, size_t outlen);

/*
 * The bytes of a digest that vg_hex_normalize accepted. Returns how many
 * were written to out, or -1 if out is too short.
 */
int vg_hex_to_bytes(const char *hex, unsigned char *out, size_t outlen);

/* The len bytes at in as lower-case hex in out (2 * len + 1 bytes at
 * least, or -1). */
int vg_bytes_to_hex(const unsigned char *in, size_t len, char *out, size_t outlen);

#endif
