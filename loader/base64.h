/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VG_BASE64_H
#define VG_BASE64_H

#include <stddef.h>

/*
 * Decode in[0..len), standard base64 (RFC 4648, "+/" alphabet, "=" padding
 * to a multiple of 4, no white space, unused bits zero), into out. Returns
 * the number of bytes written, or -1 for anything else, including an empty
 * input or an out buffer that is too short.
 */
int vg_base64_decode(const char *in, size_t len, unsigned char *out, size_t outlen);

#endif
