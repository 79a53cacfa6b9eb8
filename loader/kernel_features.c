// SPDX-License-Identifier: GPL-2.0
#include "kernel_features.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

enum hook { HOOK_BPF, HOOK_IOCTL_COMPAT, HOOK_BDEV_SETINTEGRITY, HOOK_BDEV_FREE, HOOKS };

static const char *const hook_names[HOOKS] = {
	[HOOK_BPF] = "bpf",
	[HOOK_IOCTL_COMPAT] = "file_ioctl_compat",
	[HOOK_BDEV_SETINTEGRITY] = "bdev_setintegrity",
	[HOOK_BDEV_FREE] = "bdev_free_security",
};

#define LSM_FUNC_PREFIX "bpf_lsm_"

/*
 * The parameter count of each hook's function bpf_lsm_NAME, or -1 if the
 * kernel has none. One pass over the types: a lookup by name is a pass of
 * its own, and these passes were half of the probe's instructions.
 */
static void hook_args(const struct btf *btf, int args[HOOKS])
{
	const size_t prefix = sizeof(LSM_FUNC_PREFIX) - 1;
	__u32 id, count = btf__type_cnt(btf);
	int h;

	for (h = 0; h < HOOKS; h++)
		args[h] = -1;
	for (id = 1; id < count; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id), *proto;
		const char *name;

		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		/* The first letter alone turns most names away. */
		if (!name || name[0] != LSM_FUNC_PREFIX[0] || strncmp(name, LSM_FUNC_PREFIX, prefix))
			continue;
		for (h = 0; h < HOOKS; h++) {
			if (strcmp(name + prefix, hook_names[h]))
				continue;
			proto = btf__type_by_id(btf, t->type);
			args[h] = proto && btf_is_func_proto(proto) ? btf_vlen(proto) : -1;
		}
	}
}

int vg_kernel_features_from_btf(const struct btf *btf, struct vg_kernel_features *f,
				char *err, size_t errlen)
{
	int args[HOOKS];

	memset(f, 0, sizeof(*f));
	hook_args(btf, args);
	f->bpf_hook_args = args[HOOK_BPF];
	if (f->bpf_hook_args != 3 && f->bpf_hook_args != 4) {
		snprintf(err, errlen, "unknown shape of the bpf LSM hook (%d parameters)",
			 f->bpf_hook_args);
		return -1;
	}
	f->ioctl_compat_hook = args[HOOK_IOCTL_COMPAT] == 3;
	f->bdev_integrity_hooks = args[HOOK_BDEV_SETINTEGRITY] == 4 && args[HOOK_BDEV_FREE] == 1;
	return 0;
}

int vg_kernel_features_probe(struct vg_kernel_features *f, char *err, size_t errlen)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int rc;

	if (!btf) {
		snprintf(err, errlen, "cannot read the kernel's BTF: %s", strerror(errno));
		return -1;
	}
	rc = vg_kernel_features_from_btf(btf, f, err, errlen);
	btf__free(btf);
	return rc;
}
