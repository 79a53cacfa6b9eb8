// SPDX-License-Identifier: GPL-2.0
/*
 * vg-probe-cost BTF_FILE BPF_OBJECT: the loader's feature probe (read the
 * kernel's raw BTF, find the hooks' functions and the object's programs'
 * attach targets in it) on the host, for make bench to count the
 * instructions of vg_kernel_features_from_file with callgrind. The loader
 * does this at boot with /sys/kernel/btf/vmlinux; libbpf reads and indexes
 * the same BTF when it loads the programs.
 */
#include <bpf/libbpf.h>
#include <stdio.h>

#include "attach_targets.h"
#include "kernel_features.h"

int main(int argc, char **argv)
{
	struct vg_attach_targets targets;
	struct vg_kernel_features f;
	struct bpf_object *obj;
	char err[256];
	size_t i, found = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: vg-probe-cost BTF_FILE BPF_OBJECT\n");
		return 2;
	}
	if (vg_attach_targets_register(&targets, err, sizeof(err))) {
		fprintf(stderr, "vg-probe-cost: %s\n", err);
		return 1;
	}
	obj = bpf_object__open_file(argv[2], NULL);
	if (!obj || vg_attach_targets_collect(&targets, obj, err, sizeof(err)) ||
	    vg_kernel_features_from_file(argv[1], &targets.funcs, &f, err, sizeof(err))) {
		fprintf(stderr, "vg-probe-cost: %s\n", obj ? err : "cannot open the BPF object");
		return 1;
	}
	for (i = 0; i < targets.count; i++)
		found += targets.ids[i] != 0;
	printf("bpf_hook_args=%d ioctl_compat=%d bdev_integrity=%d targets=%zu/%zu\n",
	       f.bpf_hook_args, f.ioctl_compat_hook, f.bdev_integrity_hooks, found, targets.count);
	bpf_object__close(obj);
	vg_attach_targets_unregister(&targets);
	return 0;
}
