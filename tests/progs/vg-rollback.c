// SPDX-License-Identifier: GPL-2.0
/*
 * vg-rollback PIN_DIR FAIL_AT: run the loader's vg_policy_install (audit
 * mode, pins under PIN_DIR) with the FAIL_AT-th bpf_link__pin failing with
 * EIO (0: none fails). Linked with --wrap=bpf_link__pin, so the code under
 * test is the loader's own.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "policy.h"

static int pins, fail_at;

int __real_bpf_link__pin(struct bpf_link *link, const char *path);

int __wrap_bpf_link__pin(struct bpf_link *link, const char *path)
{
	if (++pins == fail_at) {
		errno = EIO;
		return -EIO;
	}
	return __real_bpf_link__pin(link, path);
}

int main(int argc, char **argv)
{
	struct vg_policy_params params = { 0 };
	struct vg_policy_report report;
	struct stat root;
	char err[512];

	if (argc != 3 || stat("/", &root)) {
		fprintf(stderr, "usage: vg-rollback PIN_DIR FAIL_AT\n");
		return 2;
	}
	fail_at = atoi(argv[2]);
	params.trusted_dev = major(root.st_dev) << 20 | minor(root.st_dev);
	if (vg_policy_install(&params, argv[1], &report, err, sizeof(err))) {
		printf("install failed: %s\n", err);
		return 1;
	}
	printf("installed %d links\n", report.count);
	return 0;
}
