// SPDX-License-Identifier: GPL-2.0
/*
 * vg-rollback PIN_DIR STEP N: run the loader's vg_policy_install (audit
 * mode, pins under PIN_DIR) with the N-th call of one of its steps failing
 * with EIO: STEP is load (bpf_object__load_skeleton), attach
 * (bpf_program__attach_lsm, or bpf_program__attach_iter for the views) or
 * pin (bpf_link__pin); N 0 fails none. Prints "installed N links", and a
 * line "on the root cgroup: ID" for each program attached there. Linked
 * with --wrap for each, so the code under test is the loader's own.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "policy.h"

static const char *fail_step;
static int fail_at;

/* Whether this call of STEP is the one to fail. */
static int inject(const char *step)
{
	static int calls[3];
	static const char *const steps[3] = { "load", "attach", "pin" };
	int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(step, steps[i]))
			return !strcmp(step, fail_step) && ++calls[i] == fail_at;
	return 0;
}

int __real_bpf_object__load_skeleton(struct bpf_object_skeleton *s);
int __real_bpf_link__pin(struct bpf_link *link, const char *path);
struct bpf_link *__real_bpf_program__attach_lsm(const struct bpf_program *prog);
struct bpf_link *__real_bpf_program__attach_iter(const struct bpf_program *prog,
						 const struct bpf_iter_attach_opts *opts);

int __wrap_bpf_object__load_skeleton(struct bpf_object_skeleton *s)
{
	if (inject("load")) {
		errno = EIO;
		return -EIO;
	}
	return __real_bpf_object__load_skeleton(s);
}

struct bpf_link *__wrap_bpf_program__attach_lsm(const struct bpf_program *prog)
{
	if (inject("attach")) {
		errno = EIO;
		return NULL;
	}
	return __real_bpf_program__attach_lsm(prog);
}

struct bpf_link *__wrap_bpf_program__attach_iter(const struct bpf_program *prog,
						 const struct bpf_iter_attach_opts *opts)
{
	if (inject("attach")) {
		errno = EIO;
		return NULL;
	}
	return __real_bpf_program__attach_iter(prog, opts);
}

int __wrap_bpf_link__pin(struct bpf_link *link, const char *path)
{
	if (inject("pin")) {
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
	int i, links = 0;

	if (argc != 4 || stat("/", &root) ||
	    (strcmp(argv[2], "load") && strcmp(argv[2], "attach") && strcmp(argv[2], "pin"))) {
		fprintf(stderr, "usage: vg-rollback PIN_DIR load|attach|pin N\n");
		return 2;
	}
	fail_step = argv[2];
	fail_at = atoi(argv[3]);
	params.trusted_dev = major(root.st_dev) << 20 | minor(root.st_dev);
	if (vg_policy_install(&params, argv[1], &report, err, sizeof(err))) {
		printf("install failed: %s\n", err);
		return 1;
	}
	/* A program on the root cgroup has no link (ID 0); the test detaches
	 * it by ID. */
	for (i = 0; i < report.count; i++)
		links += report.link_ids[i] != 0;
	printf("installed %d links\n", links);
	for (i = 0; i < report.count; i++)
		if (!report.link_ids[i])
			printf("on the root cgroup: %u\n", report.prog_ids[i]);
	return 0;
}
