// SPDX-License-Identifier: GPL-2.0
/*
 * vg-probe-cost BTF_FILE: what the loader's feature probe does with a
 * kernel's BTF (read and index it, then look the hooks up), on the host,
 * for make bench to count its instructions with callgrind. The loader
 * does this at boot from /sys/kernel/btf/vmlinux; libbpf reads the same
 * BTF once more when it loads the programs.
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <stdio.h>

#include "kernel_features.h"

int main(int argc, char **argv)
{
	struct vg_kernel_features f;
	char err[256];
	struct btf *btf;

	if (argc != 2) {
		fprintf(stderr, "usage: vg-probe-cost BTF_FILE\n");
		return 2;
	}
	libbpf_set_print(NULL);
	btf = btf__parse_raw(argv[1]);
	if (!btf) {
		fprintf(stderr, "vg-probe-cost: cannot read %s\n", argv[1]);
		return 1;
	}
	if (vg_kernel_features_from_btf(btf, &f, err, sizeof(err))) {
		fprintf(stderr, "vg-probe-cost: %s\n", err);
		btf__free(btf);
		return 1;
	}
	printf("types=%u bpf_hook_args=%d ioctl_compat=%d bdev_integrity=%d\n", btf__type_cnt(btf),
	       f.bpf_hook_args, f.ioctl_compat_hook, f.bdev_integrity_hooks);
	btf__free(btf);
	return 0;
}
