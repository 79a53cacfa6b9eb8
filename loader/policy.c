// SPDX-License-Identifier: GPL-2.0
#include "policy.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "verigate.skel.h"

struct attached {
	int count;
	struct bpf_link *links[VG_PROGS_MAX];
	bool pinned[VG_PROGS_MAX];
};

static void rollback(struct attached *a, const char *pin_dir)
{
	int i;

	for (i = a->count - 1; i >= 0; i--) {
		if (a->pinned[i])
			bpf_link__unpin(a->links[i]);
		bpf_link__destroy(a->links[i]); /* last reference: detaches */
	}
	rmdir(pin_dir);
}

static __u32 prog_id(int fd)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

static __u32 link_id(int fd)
{
	struct bpf_link_info info = { 0 };
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

static int attach_and_pin(struct verigate_bpf *skel, const char *pin_dir,
			  struct attached *a, struct vg_policy_report *report,
			  char *err, size_t errlen)
{
	struct bpf_program *prog;
	char path[256];

	bpf_object__for_each_program(prog, skel->obj) {
		const char *name = bpf_program__name(prog);
		struct bpf_link *link;

		if (a->count == VG_PROGS_MAX) {
			snprintf(err, errlen, "too many programs");
			return -1;
		}
		link = bpf_program__attach_lsm(prog);
		if (!link) {
			snprintf(err, errlen, "attach %s: %s", name, strerror(errno));
			return -1;
		}
		a->links[a->count++] = link;
		snprintf(path, sizeof(path), "%s/%s", pin_dir, name);
		if (bpf_link__pin(link, path)) {
			snprintf(err, errlen, "pin %s: %s", path, strerror(errno));
			return -1;
		}
		a->pinned[a->count - 1] = true;
		report->prog_ids[report->count] = prog_id(bpf_program__fd(prog));
		report->link_ids[report->count] = link_id(bpf_link__fd(link));
		report->count++;
	}
	return 0;
}

static int make_pin_dir(const char *pin_dir, char *err, size_t errlen)
{
	if (mkdir(pin_dir, 0700)) {
		snprintf(err, errlen, "create %s: %s%s", pin_dir, strerror(errno),
			 errno == EEXIST ? " (is verigate already loaded?)" : "");
		return -1;
	}
	return 0;
}

int vg_policy_install(const struct vg_policy_params *params, const char *pin_dir,
		      struct vg_policy_report *report, char *err, size_t errlen)
{
	struct attached a = { 0 };
	struct verigate_bpf *skel;
	int i, rc = -1;

	memset(report, 0, sizeof(*report));
	skel = verigate_bpf__open();
	if (!skel) {
		snprintf(err, errlen, "open BPF object: %s", strerror(errno));
		return -1;
	}
	skel->rodata->trusted_dev = params->trusted_dev;
	skel->rodata->initramfs_dev = params->initramfs_dev;
	skel->rodata->enforce = params->enforce;
	skel->rodata->deny_anon_exec = params->deny_anon_exec;

	if (verigate_bpf__load(skel)) {
		snprintf(err, errlen, "load BPF programs: %s (is kernel BTF available?)",
			 strerror(errno));
		goto out;
	}
	if (make_pin_dir(pin_dir, err, errlen))
		goto out;
	if (attach_and_pin(skel, pin_dir, &a, report, err, errlen)) {
		rollback(&a, pin_dir);
		memset(report, 0, sizeof(*report));
		goto out;
	}
	for (i = 0; i < a.count; i++)
		bpf_link__destroy(a.links[i]); /* closes our fd; the pin keeps it */
	rc = 0;
out:
	verigate_bpf__destroy(skel);
	return rc;
}

int vg_policy_check_pinned(const char *pin_dir, char *err, size_t errlen)
{
	struct verigate_bpf *skel;
	struct bpf_program *prog;
	struct statfs fs;
	struct stat st;
	char path[256];
	int rc = 0;

	if (statfs(pin_dir, &fs) || fs.f_type != BPF_FS_MAGIC) {
		snprintf(err, errlen, "%s is not on a BPF filesystem", pin_dir);
		return -1;
	}
	skel = verigate_bpf__open();
	if (!skel) {
		snprintf(err, errlen, "open BPF object: %s", strerror(errno));
		return -1;
	}
	bpf_object__for_each_program(prog, skel->obj) {
		snprintf(path, sizeof(path), "%s/%s", pin_dir, bpf_program__name(prog));
		if (stat(path, &st)) {
			snprintf(err, errlen, "link %s is not pinned", path);
			rc = -1;
			break;
		}
	}
	verigate_bpf__destroy(skel);
	return rc;
}
