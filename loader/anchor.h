/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VERIGATE_ANCHOR_H
#define VERIGATE_ANCHOR_H

#include <stddef.h>

/*
 * Binds pin_dir at a directory of the initramfs's own root (rootfs), made
 * private. switch_root mounts the real root over rootfs, so after it no
 * path leads to this mount and no process can unmount it: the bpffs that
 * holds the pins, and with it the gate, stays for as long as the machine
 * runs, whatever becomes of /sys/fs/bpf. 0, or -1 with err filled in.
 */
int vg_anchor_pins(const char *pin_dir, char *err, size_t errlen);

#endif
