// SPDX-License-Identifier: GPL-2.0
/*
 * vg-probe-cost BTF_FILE: the loader's feature probe (read the kernel's
 * raw BTF, find the hooks' functions in it) on the host, for make bench to
 * count its instructions with callgrind. The loader does this at boot with
 * /sys/kernel/btf/vmlinux; libbpf reads and indexes the same BTF when it
 * loads the programs.
 */
#include <stdio.h>

#include "kernel_features.h"

int main(int argc, char **argv)
{
	struct vg_kernel_features f;
	char err[256];

	if (argc != 2) {
		fprintf(stderr, "usage: vg-probe-cost BTF_FILE\n");
		return 2;
	}
	if (vg_kernel_features_from_file(argv[1], &f, err, sizeof(err))) {
		fprintf(stderr, "vg-probe-cost: %s\n", err);
		return 1;
	}
	printf("bpf_hook_args=%d ioctl_compat=%d bdev_integrity=%d\n", f.bpf_hook_args,
	       f.ioctl_compat_hook, f.bdev_integrity_hooks);
	return 0;
}
