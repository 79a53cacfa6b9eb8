/* SPDX-License-Identifier: GPL-2.0 */
/* Text built up in a fixed buffer, piece by piece. */
#ifndef VG_APPEND_H
#define VG_APPEND_H

#include <stddef.h>

/*
 * Append the formatted text to buf (len bytes) at *used, and advance *used
 * by its length: past len when it was cut (so callers test *used < len
 * once, at the end), len on a formatting error. Nothing once *used >= len.
 */
__attribute__((format(printf, 4, 5))) void vg_append(char *buf, size_t len, size_t *used,
						    const char *fmt, ...);

#endif
