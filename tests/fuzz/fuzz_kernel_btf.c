// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the loader's feature probe over raw BTF
 * (vg_kernel_features_from_btf). It must never read outside the blob, and
 * it either reports a bpf hook of 3 or 4 parameters, and ids of the wanted
 * functions that a blob of its size can hold, or refuses with a reason. The input is copied to its own allocation, as the loader reads
 * /sys/kernel/btf/vmlinux into one, so that its end is where ASan looks.
 */
#include "fuzz.h"
#include "kernel_features.h"

static const char *const wanted[] = { "bpf_lsm_file_open", "bpf_iter_bpf_map", "" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t ids[sizeof(wanted) / sizeof(*wanted)];
	struct vg_btf_funcs funcs = { .count = sizeof(wanted) / sizeof(*wanted), .names = wanted,
				      .ids = ids };
	struct vg_kernel_features f;
	size_t i;
	char err[256] = "";
	void *btf = malloc(size ? size : 1);
	int ret;

	MUST(btf);
	memcpy(btf, data, size);
	ret = vg_kernel_features_from_btf(btf, size, &funcs, &f, err, sizeof(err));
	free(btf);
	MUST(ret == 0 || ret == -1);
	if (ret)
		MUST(err[0] != '\0');
	else
		MUST(f.bpf_hook_args == 3 || f.bpf_hook_args == 4);
	for (i = 0; !ret && i < funcs.count; i++)
		MUST(ids[i] <= size / 12); /* every type takes a 12-byte header */
	return 0;
}
