// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's feature probe (loader/kernel_features.c) fed the BTF of each
 * Debian kernel, extracted from its vmlinuz by tests/lib/extract-btf:
 *   test_kernel_features DIR    (DIR/btf-6.1, DIR/btf-6.12, DIR/btf-7.2)
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <stdio.h>

#include "kernel_features.h"
#include "unit.h"

static const char *dir;

static void expect(const char *series, int bpf_hook_args, bool ioctl_compat,
		   bool bdev_integrity)
{
	struct vg_kernel_features f;
	char path[4096], err[256];
	struct btf *btf;

	snprintf(path, sizeof(path), "%s/btf-%s", dir, series);
	btf = btf__parse_raw(path);
	CHECK(btf != NULL);
	if (!btf)
		return;
	CHECK_INT_EQ(vg_kernel_features_from_btf(btf, &f, err, sizeof(err)), 0);
	CHECK_INT_EQ(f.bpf_hook_args, bpf_hook_args);
	CHECK_INT_EQ(f.ioctl_compat_hook, ioctl_compat);
	CHECK_INT_EQ(f.bdev_integrity_hooks, bdev_integrity);
	btf__free(btf);
}

/* Debian 12: the bpf hook without "kernel"; file_ioctl_compat came to 6.1
 * with a stable update (6.1.74), so 32-bit ioctls need their own guard; no
 * bdev_setintegrity, so no extra verity devices. */
TEST(debian_6_1)
{
	expect("6.1", 3, true, false);
}

/* Debian 13: file_ioctl_compat (6.8), the bpf hook still of three,
 * bdev_setintegrity (6.12). */
TEST(debian_6_12)
{
	expect("6.12", 3, true, true);
}

/* sid: the bpf hook gained "bool kernel" (6.15). */
TEST(debian_7_2)
{
	expect("7.2", 4, true, true);
}

int main(int argc, char **argv)
{
	unit_init(argc, argv);
	if (argc != 2) {
		fprintf(stderr, "usage: test_kernel_features BTF_DIR\n");
		return 2;
	}
	dir = argv[1];
	libbpf_set_print(NULL);
	RUN(debian_6_1);
	RUN(debian_6_12);
	RUN(debian_7_2);
	return unit_done();
}
