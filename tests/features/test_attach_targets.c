// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's attach targets (loader/attach_targets.c) for verigate's own
 * BPF object, opened on the host (opening loads nothing into the kernel),
 * and found in the BTF of Debian's kernels:
 *   test_attach_targets BTF_DIR BPF_OBJECT
 */
#include <bpf/libbpf.h>
#include <stdio.h>
#include <string.h>

#include "attach_targets.h"
#include "kernel_features.h"
#include "unit.h"

static const char *dir, *object;

struct opened {
	struct vg_attach_targets targets;
	struct bpf_object *obj;
};

static bool open_object(struct opened *o)
{
	char err[256] = "";

	CHECK_INT_EQ(vg_attach_targets_register(&o->targets, err, sizeof(err)), 0);
	o->obj = bpf_object__open_file(object, NULL);
	CHECK(o->obj != NULL);
	if (!o->obj) {
		vg_attach_targets_unregister(&o->targets);
		return false;
	}
	CHECK_INT_EQ(vg_attach_targets_collect(&o->targets, o->obj, err, sizeof(err)), 0);
	CHECK_STR_EQ(err, "");
	return true;
}

static void close_object(struct opened *o)
{
	bpf_object__close(o->obj);
	vg_attach_targets_unregister(&o->targets);
}

static int probe(struct opened *o, const char *series, char *err, size_t errlen)
{
	struct vg_kernel_features f;
	char path[4096];

	snprintf(path, sizeof(path), "%s/btf-%s", dir, series);
	CHECK_INT_EQ(vg_kernel_features_from_file(path, &o->targets.funcs, &f, err, errlen), 0);
	return vg_attach_targets_check(&o->targets, err, errlen);
}

static void set_autoload(struct bpf_object *obj, const char *name, bool load)
{
	struct bpf_program *prog = bpf_object__find_program_by_name(obj, name);

	CHECK(prog != NULL);
	if (prog)
		bpf_program__set_autoload(prog, load);
}

/* Every program has its target, named after its section (sleepable LSM
 * programs too), and took the program type of verigate's handler for that
 * section; but cgroup programs, which attach to a cgroup and load with
 * libbpf's own handler. */
TEST(every_program_named)
{
	struct bpf_program *prog;
	struct opened o;
	size_t i = 0;

	if (!open_object(&o))
		return;
	bpf_object__for_each_program(prog, o.obj) {
		const char *section = bpf_program__section_name(prog);
		char want[96];

		if (!strncmp(section, "cgroup/", 7)) {
			CHECK_INT_EQ(bpf_program__type(prog), BPF_PROG_TYPE_CGROUP_SYSCTL);
			continue;
		}
		CHECK(i < o.targets.count);
		if (i >= o.targets.count)
			break;
		CHECK(o.targets.progs[i] == prog);
		if (!strncmp(section, "lsm/", 4) || !strncmp(section, "lsm.s/", 6)) {
			snprintf(want, sizeof(want), "bpf_lsm_%s", strchr(section, '/') + 1);
			CHECK_INT_EQ(bpf_program__type(prog), BPF_PROG_TYPE_LSM);
			CHECK_INT_EQ(bpf_program__expected_attach_type(prog), BPF_LSM_MAC);
		} else {
			snprintf(want, sizeof(want), "bpf_iter_%s", section + 5);
			CHECK_INT_EQ(bpf_program__type(prog), BPF_PROG_TYPE_TRACING);
			CHECK_INT_EQ(bpf_program__expected_attach_type(prog), BPF_TRACE_ITER);
		}
		CHECK_STR_EQ(o.targets.names[i], want);
		i++;
	}
	CHECK_INT_EQ(i, o.targets.count);
	CHECK(o.targets.count > 20);
	close_object(&o);
}

/* 7.2 has every hook the object uses. */
TEST(all_found_on_7_2)
{
	char err[256] = "";
	struct opened o;
	size_t i;

	if (!open_object(&o))
		return;
	CHECK_INT_EQ(probe(&o, "7.2", err, sizeof(err)), 0);
	for (i = 0; i < o.targets.count; i++)
		CHECK(o.targets.ids[i] != 0);
	close_object(&o);
}

/* 6.1 has no bdev_setintegrity: the program for it must not load there,
 * and once the loader leaves it out (as it does on 6.1) nothing is
 * missing. */
TEST(missing_hook_named_on_6_1)
{
	char err[256] = "";
	struct opened o;

	if (!open_object(&o))
		return;
	CHECK_INT_EQ(probe(&o, "6.1", err, sizeof(err)), -1);
	CHECK_STR_HAS(err, "this kernel has no bpf_lsm_bdev_");
	set_autoload(o.obj, "verigate_bdev_integrity", false);
	set_autoload(o.obj, "verigate_bdev_free", false);
	err[0] = '\0';
	CHECK_INT_EQ(vg_attach_targets_check(&o.targets, err, sizeof(err)), 0);
	CHECK_STR_EQ(err, "");
	close_object(&o);
}

/* A program's load lasts from its hand-over to the next program's, the
 * last one's to the end of the load; one never handed over took none. Here
 * the third program went first (at 1 s), then the first (1.005 s), then
 * the second (1.020 s), and the load ended at 1.050 s. */
TEST(load_lasts_until_next_hand_over)
{
	const struct timespec end = { .tv_sec = 1, .tv_nsec = 50000000 };
	struct opened o;

	if (!open_object(&o))
		return;
	CHECK(o.targets.count > 3);
	o.targets.loaded = 3;
	o.targets.loaded_progs[0] = o.targets.progs[2];
	o.targets.loaded_progs[1] = o.targets.progs[0];
	o.targets.loaded_progs[2] = o.targets.progs[1];
	o.targets.handed[0] = (struct timespec){ .tv_sec = 1 };
	o.targets.handed[1] = (struct timespec){ .tv_sec = 1, .tv_nsec = 5000000 };
	o.targets.handed[2] = (struct timespec){ .tv_sec = 1, .tv_nsec = 20000000 };
	CHECK_INT_EQ(vg_attach_targets_load_us(&o.targets, o.targets.progs[2], &end), 5000);
	CHECK_INT_EQ(vg_attach_targets_load_us(&o.targets, o.targets.progs[0], &end), 15000);
	CHECK_INT_EQ(vg_attach_targets_load_us(&o.targets, o.targets.progs[1], &end), 30000);
	CHECK_INT_EQ(vg_attach_targets_load_us(&o.targets, o.targets.progs[3], &end), 0);
	close_object(&o);
}

int main(int argc, char **argv)
{
	unit_init(argc, argv);
	if (argc != 3) {
		fprintf(stderr, "usage: test_attach_targets BTF_DIR BPF_OBJECT\n");
		return 2;
	}
	dir = argv[1];
	object = argv[2];
	RUN(every_program_named);
	RUN(all_found_on_7_2);
	RUN(missing_hook_named_on_6_1);
	RUN(load_lasts_until_next_hand_over);
	return unit_done();
}
