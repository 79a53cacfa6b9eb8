/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VG_LOG_H
#define VG_LOG_H

#define VG_LOG_ERR 3
#define VG_LOG_NOTICE 5

/* One line, prefixed "verigate: ", to /dev/kmsg (when it can be opened) and
 * to stderr. */
void vg_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
