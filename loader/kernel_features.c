// SPDX-License-Identifier: GPL-2.0
#include "kernel_features.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Parameters of the BPF LSM hook function bpf_lsm_NAME, or -1 if none. */
static int hook_args(const struct btf *btf, const char *hook)
{
	char name[64];
	const struct btf_type *t;
	int id;

	snprintf(name, sizeof(name), "bpf_lsm_%s", hook);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	if (id < 0)
		return -1;
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	return t && btf_is_func_proto(t) ? btf_vlen(t) : -1;
}

int vg_kernel_features_from_btf(const struct btf *btf, struct vg_kernel_features *f,
				char *err, size_t errlen)
{
	memset(f, 0, sizeof(*f));
	f->bpf_hook_args = hook_args(btf, "bpf");
	if (f->bpf_hook_args != 3 && f->bpf_hook_args != 4) {
		snprintf(err, errlen, "unknown shape of the bpf LSM hook (%d parameters)",
			 f->bpf_hook_args);
		return -1;
	}
	f->ioctl_compat_hook = hook_args(btf, "file_ioctl_compat") == 3;
	f->bdev_integrity_hooks = hook_args(btf, "bdev_setintegrity") == 4 &&
				  hook_args(btf, "bdev_free_security") == 1;
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
