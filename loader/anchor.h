/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VERIGATE_ANCHOR_H
#define VERIGATE_ANCHOR_H

#include <stddef.h>

/*
 * Binds pin_dir, made private, at two more places, so that the bpffs
 * holding the pins, and with it the gate, stays whatever becomes of
 * /sys/fs/bpf:
 *   - a directory of the initramfs's own root (rootfs), which the real
 *     root covers at switch_root: no path leads there afterwards. A kernel
 *     whose rootfs sits on nullfs (7.0+) lets systemd's switch_root pivot
 *     out of the initramfs and detach it, and this bind with it; so also
 *   - /run/verigate-pins, on the initramfs' /run, which switch_root moves
 *     into the real root. It can be seen there, and the guards refuse its
 *     unmount as they refuse that of any bpffs mount of the initial
 *     namespace.
 * 0, or -1 with err filled in.
 */
int vg_anchor_pins(const char *pin_dir, char *err, size_t errlen);

#endif
