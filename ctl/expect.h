/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event a boot will measure into PCR 9, predicted without the boot:
 * from its kernel command line and its kernel (raw BTF and config), as the
 * loader would find them. The loader's own choice of programs
 * (program_choice.c) and its own description of the gate (gate_event.c)
 * make it, so prediction and measurement cannot drift apart.
 */
#ifndef VG_EXPECT_H
#define VG_EXPECT_H

#include <stddef.h>

struct vg_expect_kernel {
	const char *btf_path;    /* raw BTF: /sys/kernel/btf/vmlinux, or one extracted from a vmlinux */
	const char *config_path; /* the kernel's config (/boot/config-RELEASE) */
};

/* The event for cmdline on kernel k into event. Returns 0, or -1 with a
 * message in err (a command line the loader would refuse, a file that
 * cannot be read). */
int vg_expect_event(const char *cmdline, const struct vg_expect_kernel *k, char *event,
		    size_t len, char *err, size_t errlen);

#endif
