// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's feature probe (loader/kernel_features.c) fed the BTF of each
 * Debian kernel, extracted from its vmlinuz by tests/lib/extract-btf:
 *   test_kernel_features DIR    (DIR/btf-6.1, DIR/btf-6.12, DIR/btf-7.2)
 */
#define _GNU_SOURCE /* memmem */
#include <bpf/btf.h>
#include <linux/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_features.h"
#include "unit.h"

static const char *dir;

static void btf_path(char *path, size_t len, const char *series)
{
	snprintf(path, len, "%s/btf-%s", dir, series);
}

static void expect(const char *series, int bpf_hook_args, bool ioctl_compat,
		   bool bdev_integrity, bool execve_check, bool real_data_inode)
{
	struct vg_kernel_features f;
	char path[4096], err[256];

	btf_path(path, sizeof(path), series);
	CHECK_INT_EQ(vg_kernel_features_from_file(path, NULL, &f, err, sizeof(err)), 0);
	CHECK_INT_EQ(f.bpf_hook_args, bpf_hook_args);
	CHECK_INT_EQ(f.ioctl_compat_hook, ioctl_compat);
	CHECK_INT_EQ(f.bdev_integrity_hooks, bdev_integrity);
	CHECK_INT_EQ(f.execve_check, execve_check);
	CHECK_INT_EQ(f.real_data_inode, real_data_inode);
}

/* The ids the probe finds for attach targets are the ones libbpf's own
 * search of the same BTF finds (0 where it finds none): hooks of every
 * age, the views' iterator, a hook no kernel has, a function that is not
 * a hook, and a name given twice. */
static void expect_ids_as_libbpf(const char *series)
{
	static const char *const names[] = {
		"bpf_lsm_bprm_check_security", "bpf_lsm_bpf", "bpf_lsm_file_ioctl_compat",
		"bpf_lsm_bdev_setintegrity", "bpf_iter_bpf_map", "bpf_lsm_no_such_hook",
		"vfs_read", "bpf_lsm_bpf",
	};
	enum { N = sizeof(names) / sizeof(*names) };
	struct vg_btf_funcs funcs = { .count = N, .names = names };
	struct vg_kernel_features f;
	char path[4096], err[256];
	uint32_t ids[N];
	struct btf *btf;
	size_t i;

	funcs.ids = ids;
	btf_path(path, sizeof(path), series);
	CHECK_INT_EQ(vg_kernel_features_from_file(path, &funcs, &f, err, sizeof(err)), 0);
	btf = btf__parse_raw(path);
	CHECK(btf != NULL);
	if (!btf)
		return;
	for (i = 0; i < N; i++) {
		int expected = btf__find_by_name_kind(btf, names[i], BTF_KIND_FUNC);

		CHECK_INT_EQ(ids[i], expected > 0 ? expected : 0);
	}
	CHECK(ids[0] != 0);
	CHECK_INT_EQ(ids[5], 0);
	CHECK_INT_EQ(ids[7], ids[1]);
	btf__free(btf);
}

/* 6.12's BTF in memory, for the damaged copies below. */
static unsigned char *load(size_t *size)
{
	char path[4096];
	unsigned char *data;
	FILE *file;
	long len;

	btf_path(path, sizeof(path), "6.12");
	file = fopen(path, "rb");
	if (!file)
		return NULL;
	fseek(file, 0, SEEK_END);
	len = ftell(file);
	rewind(file);
	data = malloc(len);
	if (data && fread(data, 1, len, file) != (size_t)len) {
		free(data);
		data = NULL;
	}
	fclose(file);
	*size = len;
	return data;
}

/* Damaged BTF is refused with a reason, never read past its end. */
static void expect_refused(unsigned char *data, size_t size, const char *reason)
{
	struct vg_kernel_features f;
	char err[256] = "";

	CHECK_INT_EQ(vg_kernel_features_from_btf(data, size, NULL, &f, err, sizeof(err)), -1);
	CHECK_STR_HAS(err, reason);
}

/* Debian 12: the bpf hook without "kernel"; file_ioctl_compat came to 6.1
 * with a stable update (6.1.74), so 32-bit ioctls need their own guard; no
 * bdev_setintegrity, so no extra verity devices. */
TEST(debian_6_1)
{
	expect("6.1", 3, true, false, false, false);
	expect_ids_as_libbpf("6.1");
}

/* Debian 13: file_ioctl_compat (6.8), the bpf hook still of three,
 * bdev_setintegrity (6.12). */
TEST(debian_6_12)
{
	expect("6.12", 3, true, true, false, false);
	expect_ids_as_libbpf("6.12");
}

/* sid: the bpf hook gained "bool kernel" (6.15), execveat gained
 * AT_EXECVE_CHECK (6.14), and BPF LSMs the kfunc bpf_real_data_inode. */
TEST(debian_7_2)
{
	expect("7.2", 4, true, true, true, true);
	expect_ids_as_libbpf("7.2");
}

TEST(missing_file)
{
	struct vg_kernel_features f;
	char err[256] = "";

	CHECK_INT_EQ(vg_kernel_features_from_file("/nonexistent/btf", NULL, &f, err, sizeof(err)), -1);
	CHECK_STR_EQ(err, "cannot read the kernel's BTF (/nonexistent/btf): No such file or directory");
}

TEST(damaged_btf)
{
	size_t size;
	unsigned char *data = load(&size), *copy;
	struct btf_header *h;
	struct btf_type *first;
	char *name;

	CHECK(data != NULL);
	if (!data)
		return;
	copy = malloc(size);
	h = (struct btf_header *)copy;
	first = (struct btf_type *)(copy + ((struct btf_header *)data)->hdr_len +
				    ((struct btf_header *)data)->type_off);

	memcpy(copy, data, size);
	h->magic = 0x9feb; /* the other byte order */
	expect_refused(copy, size, "no valid header");

	expect_refused(data, sizeof(*h) - 1, "no valid header");
	expect_refused(data, size / 2, "sections out of bounds");

	memcpy(copy, data, size);
	h->type_len = 7; /* ends inside the first type */
	expect_refused(copy, size, "type 1 is truncated");

	memcpy(copy, data, size);
	first->info = (first->info & ~(0x1fU << 24)) | (31U << 24);
	expect_refused(copy, size, "type 1 has an unknown kind 31");

	memcpy(copy, data, size);
	copy[size - 1] = 'x'; /* the last string loses its terminator */
	expect_refused(copy, size, "strings are not terminated");

	/* A kernel without the bpf hook's function: no guess at its shape. */
	memcpy(copy, data, size);
	name = memmem(copy, size, "bpf_lsm_bpf", sizeof("bpf_lsm_bpf"));
	CHECK(name != NULL);
	if (name)
		name[0] = 'x';
	expect_refused(copy, size, "unknown shape of the bpf LSM hook (-1 parameters)");

	free(copy);
	free(data);
}

/* Names by id, the other way round from the probe's ids by name (vg-bench
 * names each program's hook so): every kernel, and nothing for id 0, an id
 * past the last type or BTF cut short. */
TEST(type_names)
{
	static const char *const series[] = { "6.1", "6.12", "7.2" };
	static const char *const names[] = { "bpf_lsm_file_open", "bpf_iter_bpf_map" };
	char path[4096], err[256];
	uint32_t ids[2];
	struct vg_btf_funcs funcs = { .count = 2, .names = names, .ids = ids };
	struct vg_kernel_features f;
	size_t i, k, size;
	void *data;

	for (i = 0; i < sizeof(series) / sizeof(*series); i++) {
		btf_path(path, sizeof(path), series[i]);
		data = vg_btf_read(path, &size, err, sizeof(err));
		CHECK(data != NULL);
		if (!data)
			continue;
		CHECK_INT_EQ(vg_kernel_features_from_btf(data, size, &funcs, &f, err, sizeof(err)), 0);
		for (k = 0; k < 2; k++) {
			CHECK(ids[k] != 0);
			CHECK_STR_EQ(vg_btf_type_name(data, size, ids[k]) ?: "(none)", names[k]);
			CHECK(vg_btf_type_name(data, size / 2, ids[k]) == NULL);
		}
		CHECK(vg_btf_type_name(data, size, 0) == NULL);
		CHECK(vg_btf_type_name(data, size, size) == NULL);
		free(data);
	}
}

int main(int argc, char **argv)
{
	unit_init(argc, argv);
	if (argc != 2) {
		fprintf(stderr, "usage: test_kernel_features BTF_DIR\n");
		return 2;
	}
	dir = argv[1];
	RUN(debian_6_1);
	RUN(debian_6_12);
	RUN(debian_7_2);
	RUN(missing_file);
	RUN(damaged_btf);
	RUN(type_names);
	return unit_done();
}
