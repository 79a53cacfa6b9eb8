/* SPDX-License-Identifier: GPL-2.0 */
/* A file's text, read whole into memory up to a bound. */
#ifndef VG_FILE_TEXT_H
#define VG_FILE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* What fd holds, up to max - 1 bytes, NUL-terminated (*full: it filled
 * them), or NULL with errno set. */
char *vg_read_fd(int fd, size_t max, bool *full);

/* The same for the file at path. */
char *vg_read_file(const char *path, size_t max, bool *full);

#endif
