// SPDX-License-Identifier: GPL-2.0
#include "policy.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "attach_targets.h"
#include "elapsed.h"
#include "kernel_switches.h"
#include "liveness.h"
#include "program_choice.h"
#include "verigate.skel.h"
#include "verigate_abi.h"

#define CGROUP2_MOUNT "/sys/fs/cgroup"

_Static_assert(VG_PROGS_MAX <= VG_OWN_MAX, "own_objects must have room for every object");

struct attached {
	int count;
	struct bpf_link *links[VG_PROGS_MAX]; /* NULL: on the root cgroup */
	bool pinned[VG_PROGS_MAX];
	int cgroup_fd; /* the root cgroup, once opened; else -1 */
	const struct bpf_program *progs[VG_PROGS_MAX];
};

__u32 vg_kernel_dev(dev_t dev)
{
	return major(dev) << 20 | minor(dev);
}

/* A program for a cgroup hook rather than an LSM hook: it goes on the root
 * cgroup, without a link, so that nothing is pinned that could detach it. */
static bool on_root_cgroup(const struct bpf_program *prog)
{
	return bpf_program__type(prog) == BPF_PROG_TYPE_CGROUP_SYSCTL;
}

/* The programs that match this kernel's hooks and the policy (and, in test
 * builds without guards, only the exec gate); the probe also finds funcs
 * (NULL for none). */
static int select_programs(struct verigate_bpf *skel, bool deny_anon_exec,
			   struct vg_btf_funcs *funcs, struct vg_kernel_features *f, char *err,
			   size_t errlen)
{
	struct vg_program_needs needs = { .deny_anon_exec = deny_anon_exec };

	if (vg_kernel_features_probe(funcs, f, err, errlen))
		return -1;
	needs.proc_mem_forced = deny_anon_exec && vg_proc_mem_writes_forced();
	vg_programs_choose(skel->obj, f, &needs);
#ifdef VG_TEST_WITHOUT_GUARDS
	/* Test builds only (tests/run-in-guest --guards off): the control
	 * boots of the guard attack tests. */
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj)
		if (vg_program_is_guard(prog))
			bpf_program__set_autoload(prog, false);
#endif
	return 0;
}

static void rollback(struct attached *a, const char *pin_dir)
{
	int i;

	for (i = a->count - 1; i >= 0; i--) {
		if (!a->links[i]) {
			bpf_prog_detach2(bpf_program__fd(a->progs[i]), a->cgroup_fd,
					 bpf_program__expected_attach_type(a->progs[i]));
			continue;
		}
		if (a->pinned[i])
			bpf_link__unpin(a->links[i]);
		bpf_link__destroy(a->links[i]); /* last reference: detaches */
	}
	rmdir(pin_dir);
}

/* The program's ID, how many instructions the verifier processed, and
 * the BTF type it is attached to. */
static __u32 prog_id(int fd, __u32 *verified_insns, __u32 *attach_btf_id)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	*verified_insns = info.verified_insns;
	*attach_btf_id = info.attach_btf_id;
	return info.id;
}

static __u32 map_id(int fd)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

static __u32 link_id(int fd)
{
	struct bpf_link_info info = { 0 };
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

/* Put one of verigate's objects out of everyone's reach (own_objects.h). */
static int record_own(struct verigate_bpf *skel, enum vg_own_kind kind, __u64 id, char *err,
		      size_t errlen)
{
	struct vg_own_key key = { .id = id, .kind = kind };
	__u32 none = 0;

	if (!id || bpf_map__update_elem(skel->maps.own_objects, &key, sizeof(key), &none,
					sizeof(none), BPF_NOEXIST)) {
		snprintf(err, errlen, "record object %llu (kind %d): %s", (unsigned long long)id,
			 kind, id ? strerror(errno) : "no ID");
		return -1;
	}
	return 0;
}

/* The views share their iterator target (bpf_map): recorded once. */
static int record_view_target(struct verigate_bpf *skel, __u32 btf_id, char *err, size_t errlen)
{
	struct vg_own_key key = { .id = btf_id, .kind = VG_OWN_VIEW_TARGET };
	__u32 none;

	if (btf_id && !bpf_map__lookup_elem(skel->maps.own_objects, &key, sizeof(key), &none,
					    sizeof(none), 0))
		return 0;
	return record_own(skel, VG_OWN_VIEW_TARGET, btf_id, err, errlen);
}

/*
 * A link is pinned under its program's name, but for a program of
 * exec_gate_layers.bpf.c, which takes the name of the one it stands in
 * for: the pins are the same on every kernel.
 */
#define LAYERS_SUFFIX "_layers"

static void pin_path(char *path, size_t len, const char *pin_dir, const struct bpf_program *prog)
{
	const char *name = bpf_program__name(prog);
	size_t n = strlen(name), suffix = strlen(LAYERS_SUFFIX);

	if (n > suffix && !strcmp(name + n - suffix, LAYERS_SUFFIX))
		n -= suffix;
	snprintf(path, len, "%s/%.*s", pin_dir, (int)n, name);
}

/*
 * The root of the cgroup v2 hierarchy: /sys/fs/cgroup where it is cgroup2
 * (systemd's initrd, or the real root when the loader runs there), else a
 * mount of its own. The root cgroup is every process's ancestor, wherever
 * it is seen from; the fd keeps it after that mount is gone.
 */
static int open_root_cgroup(char *err, size_t errlen)
{
	char dir[] = "/run/.verigate-cgroup.XXXXXX";
	struct statfs fs;
	int fd = open(CGROUP2_MOUNT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0 && !fstatfs(fd, &fs) && fs.f_type == CGROUP2_SUPER_MAGIC)
		return fd;
	if (fd >= 0)
		close(fd);
	fd = -1;
	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "%s is not cgroup2, and no directory to mount it on: %s",
			 CGROUP2_MOUNT, strerror(errno));
		return -1;
	}
	if (mount("cgroup2", dir, "cgroup2", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		snprintf(err, errlen, "mount cgroup2: %s", strerror(errno));
	else if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		snprintf(err, errlen, "open the root cgroup: %s", strerror(errno));
	umount2(dir, MNT_DETACH);
	rmdir(dir);
	return fd;
}

/* BPF_F_ALLOW_MULTI: a descendant cgroup's programs run before it, and
 * none can replace it. */
static int attach_to_root_cgroup(struct attached *a, const struct bpf_program *prog, char *err,
				 size_t errlen)
{
	enum bpf_attach_type type = bpf_program__expected_attach_type(prog);
	int fd = bpf_program__fd(prog);

	if (a->cgroup_fd < 0 && (a->cgroup_fd = open_root_cgroup(err, errlen)) < 0)
		return -1;
	if (bpf_prog_attach(fd, a->cgroup_fd, type, BPF_F_ALLOW_MULTI)) {
		snprintf(err, errlen, "attach %s to the root cgroup: %s", bpf_program__name(prog),
			 strerror(errno));
		return -1;
	}
	return 0;
}

static int attach_and_pin(struct verigate_bpf *skel, const char *pin_dir,
			  const struct vg_attach_targets *targets, const struct timespec *load_end,
			  struct attached *a, struct vg_policy_report *report,
			  char *err, size_t errlen)
{
	struct timespec attach_start, attach_end;
	struct bpf_program *prog;
	struct stat st;
	char path[256];
	__u32 target = 0;

	bpf_object__for_each_program(prog, skel->obj) {
		const char *name = bpf_program__name(prog);
		struct bpf_link *link;
		int n = a->count;

		if (!bpf_program__autoload(prog))
			continue;
		if (n == VG_PROGS_MAX) {
			snprintf(err, errlen, "too many programs");
			return -1;
		}
		clock_gettime(CLOCK_MONOTONIC, &attach_start);
		if (on_root_cgroup(prog)) {
			if (attach_to_root_cgroup(a, prog, err, errlen))
				return -1;
			link = NULL;
		} else {
			link = vg_program_is_view(prog) ? bpf_program__attach_iter(prog, NULL)
					     : bpf_program__attach_lsm(prog);
			if (!link) {
				snprintf(err, errlen, "attach %s: %s", name, strerror(errno));
				return -1;
			}
		}
		clock_gettime(CLOCK_MONOTONIC, &attach_end);
		report->attach_us[n] = vg_us_between(&attach_start, &attach_end);
		report->load_us[n] = vg_attach_targets_load_us(targets, prog, load_end);
		a->progs[a->count] = prog;
		a->links[a->count++] = link;
		report->prog_ids[n] =
			prog_id(bpf_program__fd(prog), &report->verified_insns[n], &target);
		snprintf(report->prog_names[n], sizeof(report->prog_names[n]), "%s", name);
		report->guards += vg_program_is_guard(prog);
		report->count++;
		if (record_own(skel, VG_OWN_PROG, report->prog_ids[n], err, errlen))
			return -1;
		if (!link)
			continue;
		pin_path(path, sizeof(path), pin_dir, prog);
		if (bpf_link__pin(link, path) || (vg_program_is_view(prog) && chmod(path, 0444)) ||
		    stat(path, &st)) {
			snprintf(err, errlen, "pin %s: %s", path, strerror(errno));
			return -1;
		}
		a->pinned[n] = true;
		report->link_ids[n] = link_id(bpf_link__fd(link));
		if (record_own(skel, VG_OWN_LINK, report->link_ids[n], err, errlen) ||
		    record_own(skel, VG_OWN_PIN, st.st_ino, err, errlen) ||
		    (vg_program_is_view(prog) && record_view_target(skel, target, err, errlen)))
			return -1;
	}
	return 0;
}

/* The attached programs' names, for the status view. */
static void record_program_names(struct verigate_bpf *skel)
{
	char *names = skel->bss->program_names;
	struct bpf_program *prog;
	size_t n = 0;

	bpf_object__for_each_program(prog, skel->obj) {
		if (!bpf_program__autoload(prog) || vg_program_is_view(prog))
			continue;
		n += snprintf(names + n, VG_PROGRAM_NAMES_MAX - n, "%s%s", n ? "," : "",
			      bpf_program__name(prog));
		if (n >= VG_PROGRAM_NAMES_MAX) {
			names[VG_PROGRAM_NAMES_MAX - 1] = '\0';
			return;
		}
	}
}

/* Every map of the object (the counters, the global data, own_objects
 * itself), then own_objects frozen: from now on not even an fd for it
 * could change it. */
static int record_maps(struct verigate_bpf *skel, struct vg_policy_report *report, char *err,
		       size_t errlen)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, skel->obj) {
		__u32 id = map_id(bpf_map__fd(map));

		if (report->map_count == VG_PROGS_MAX) {
			snprintf(err, errlen, "too many maps");
			return -1;
		}
		if (record_own(skel, VG_OWN_MAP, id, err, errlen))
			return -1;
		report->map_ids[report->map_count++] = id;
	}
	if (bpf_map_freeze(bpf_map__fd(skel->maps.own_objects))) {
		snprintf(err, errlen, "freeze own_objects: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int make_pin_dir(const char *pin_dir, struct stat *st, char *err, size_t errlen)
{
	if (mkdir(pin_dir, 0700)) {
		snprintf(err, errlen, "create %s: %s%s", pin_dir, strerror(errno),
			 errno == EEXIST ? " (is verigate already loaded?)" : "");
		return -1;
	}
	if (stat(pin_dir, st)) {
		snprintf(err, errlen, "stat %s: %s", pin_dir, strerror(errno));
		rmdir(pin_dir);
		return -1;
	}
	return 0;
}

/*
 * Whether kprobe programs can call bpf_override_return: load one that does.
 * libbpf_probe_bpf_helper (libbpf 1.1) knows only the verifier's older
 * wording for a helper a program type cannot use, and takes the newer one
 * ("program of this type cannot use helper", 6.12's and 7.2's, which Debian
 * builds without CONFIG_BPF_KPROBE_OVERRIDE) for support.
 */
static bool kprobe_override_helper(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_2, .imm = 0 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_override_return },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", insns, 4, NULL);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static void set_rodata(struct verigate_bpf *skel, const struct vg_policy_params *p,
		       const struct vg_kernel_features *f, const struct stat *pin_dir)
{
	int i;

	skel->rodata->trusted_dev = p->trusted_dev;
	skel->rodata->real_root_dev = p->real_root_dev;
	skel->rodata->initramfs_dev = p->initramfs_dev;
	skel->rodata->enforce = p->enforce;
	skel->rodata->deny_anon_exec = p->deny_anon_exec;
	skel->rodata->bpffs_dev = vg_kernel_dev(pin_dir->st_dev);
	skel->rodata->pin_dir_ino = pin_dir->st_ino;
	skel->rodata->sysfs_dev = p->sysfs_dev;
	skel->rodata->init_mnt_ns = p->init_mnt_ns;
	skel->rodata->bpffs_mountpoint_ino = p->bpffs_mountpoint_ino;
	skel->rodata->sys_mountpoint_ino = p->sys_mountpoint_ino;
	skel->rodata->dm_control_rdev = p->dm_control_rdev;
	skel->rodata->kprobe_override = kprobe_override_helper();
	skel->rodata->verity_trust = f->bdev_integrity_hooks;
	skel->rodata->execve_check = f->execve_check;
	skel->rodata->overlay_data_layer = f->real_data_inode;
	memcpy((void *)skel->rodata->root_digest, p->root_digest, sizeof(p->root_digest));
	skel->rodata->root_digest_len = p->root_digest_len;
	for (i = 0; i < p->allow_count && i < VG_ALLOW_MAX; i++) {
		memcpy((void *)skel->rodata->allowed_digests[i], p->allow_digests[i],
		       VG_DIGEST_MAX);
		skel->rodata->allowed_digest_lens[i] = p->allow_digest_lens[i];
	}
	skel->rodata->allow_signed = p->allow_signed;
	memcpy((void *)skel->rodata->tree_hash_hex, p->tree_hash_hex, sizeof(p->tree_hash_hex));
	skel->rodata->tree_is_usr = p->tree_is_usr;
	memcpy((void *)skel->rodata->tree_data_dev, p->tree_data_dev, sizeof(p->tree_data_dev));
	memcpy((void *)skel->rodata->tree_hash_dev, p->tree_hash_dev, sizeof(p->tree_hash_dev));
	skel->rodata->nr_cpus = libbpf_num_possible_cpus();
}

int vg_policy_install(const struct vg_policy_params *params, const char *pin_dir,
		      struct vg_policy_report *report, char *err, size_t errlen)
{
	struct vg_attach_targets targets;
	struct attached a = { .cgroup_fd = -1 };
	struct verigate_bpf *skel = NULL;
	long user_ms, kernel_ms;
	struct timespec phase, load_end;
	struct stat dir;
	int i, rc = -1;

	memset(report, 0, sizeof(*report));
	clock_gettime(CLOCK_MONOTONIC, &phase);
	if (vg_attach_targets_register(&targets, err, errlen))
		return -1;
	skel = verigate_bpf__open();
	if (!skel) {
		snprintf(err, errlen, "open BPF object: %s", strerror(errno));
		goto out;
	}
	if (vg_attach_targets_collect(&targets, skel->obj, err, errlen) ||
	    select_programs(skel, params->deny_anon_exec, &targets.funcs, &report->features, err,
			    errlen) ||
	    vg_attach_targets_check(&targets, err, errlen) ||
	    make_pin_dir(pin_dir, &dir, err, errlen))
		goto out;
	set_rodata(skel, params, &report->features, &dir);
	report->proc_mem_write = !params->deny_anon_exec ? "allowed" :
				 bpf_program__autoload(skel->progs.verigate_mem_write) ? "refused" :
											  "not-forced";
	report->kprobe_override = skel->rodata->kprobe_override;
	report->verity_trust = skel->rodata->verity_trust;
	report->probe_ms = vg_ms_since(&phase);
	clock_gettime(CLOCK_MONOTONIC, &phase);
	vg_cpu_ms(&user_ms, &kernel_ms);
	if (verigate_bpf__load(skel)) {
		snprintf(err, errlen, "load BPF programs: %s (is kernel BTF available?)",
			 strerror(errno));
		rmdir(pin_dir);
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &load_end);
	report->bpf_load_ms = vg_us_between(&phase, &load_end) / 1000;
	if (targets.loaded)
		report->bpf_load_progs_ms = vg_us_between(&targets.handed[0], &load_end) / 1000;
	vg_cpu_ms(&report->bpf_load_user_ms, &report->bpf_load_kernel_ms);
	report->bpf_load_user_ms -= user_ms;
	report->bpf_load_kernel_ms -= kernel_ms;
	clock_gettime(CLOCK_MONOTONIC, &phase);
	if (attach_and_pin(skel, pin_dir, &targets, &load_end, &a, report, err, errlen) ||
	    record_maps(skel, report, err, errlen)) {
		rollback(&a, pin_dir);
		memset(report, 0, sizeof(*report));
		goto out;
	}
	record_program_names(skel);
	report->attach_ms = vg_ms_since(&phase);
	/* Attached is not running: with the links still held, so that a
	 * failure can detach them, prove that each program runs. */
	if (vg_liveness_prove(skel->obj, pin_dir, params->initramfs_dev, report, err, errlen)) {
		rollback(&a, pin_dir);
		memset(report, 0, sizeof(*report));
		goto out;
	}
	skel->bss->live_at_boot = report->live_count;
	skel->bss->programs_at_boot = report->count;
	for (i = 0; i < a.count; i++)
		bpf_link__destroy(a.links[i]); /* closes our fd; the pin keeps it */
	rc = 0;
out:
	if (a.cgroup_fd >= 0)
		close(a.cgroup_fd);
	verigate_bpf__destroy(skel);
	vg_attach_targets_unregister(&targets);
	return rc;
}

int vg_policy_check_pinned(const char *pin_dir, bool deny_anon_exec, char *err, size_t errlen)
{
	struct vg_kernel_features features;
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
	if (select_programs(skel, deny_anon_exec, NULL, &features, err, errlen)) {
		verigate_bpf__destroy(skel);
		return -1;
	}
	bpf_object__for_each_program(prog, skel->obj) {
		if (!bpf_program__autoload(prog) || on_root_cgroup(prog))
			continue;
		pin_path(path, sizeof(path), pin_dir, prog);
		if (stat(path, &st)) {
			snprintf(err, errlen, "link %s is not pinned", path);
			rc = -1;
			break;
		}
	}
	verigate_bpf__destroy(skel);
	return rc;
}
