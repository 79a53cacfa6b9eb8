/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The crash kernel (rd.verigate.kdump=): loaded by the loader, before the
 * real init starts, from the verified tree, with a command line the loader
 * chose. Once the real init runs the guards refuse every kexec load, so
 * this is the only crash kernel the boot can have.
 */
#ifndef VG_CRASH_KERNEL_H
#define VG_CRASH_KERNEL_H

#include <stddef.h>
#include <sys/types.h>

#include "cmdline.h"

/* What a crash kernel boots with besides this boot's options. */
#define VG_CRASH_ARGS "reset_devices nr_cpus=1 irqpoll"

/*
 * The crash kernel's command line: this boot's (cmdline, the text of
 * /proc/cmdline), so that the crash kernel verifies and gates the same
 * tree, without what only this boot uses (crashkernel=, the kdump options,
 * the boot loader's BOOT_IMAGE= and initrd=), and VG_CRASH_ARGS. Returns
 * 0, or -1 if it does not fit in len.
 */
int vg_crash_cmdline(const char *cmdline, char *out, size_t len);

/*
 * Load cfg's crash kernel, and its initramfs if any: each must be a
 * regular file on the device tree_dev, its path resolved inside newroot.
 * Returns 0, or -1 with a message naming the option and value in err.
 */
int vg_crash_kernel_load(const char *newroot, dev_t tree_dev, const struct vg_config *cfg,
			 const char *cmdline, char *err, size_t errlen);

/*
 * Keep the crash kernel as loaded: no later load or unload of a crash
 * kernel, refused by the kernel before it frees the loaded one (a refused
 * kexec_file_load of a crash kernel frees it first, then reads the file
 * that the guards refuse). Sets kernel.kexec_load_limit_panic to 0 where
 * the kernel has it (6.6+), else kernel.kexec_load_disabled to 1, which
 * refuses every kexec load; both are one-way. Returns the knob's path, or
 * NULL with err set.
 */
const char *vg_crash_kernel_keep(char *err, size_t errlen);

#endif
