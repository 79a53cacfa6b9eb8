// SPDX-License-Identifier: GPL-2.0
#include "attach_targets.h"
#include "elapsed.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

struct target_kind {
	const char *section_prefix;
	const char *func_prefix; /* NULL: it attaches to no kernel function */
	enum bpf_prog_type prog_type;
	enum bpf_attach_type attach_type;
	long prog_flags; /* handed to libbpf as the handler's cookie */
};

static const struct target_kind kinds[] = {
	{ "lsm/", "bpf_lsm_", BPF_PROG_TYPE_LSM, BPF_LSM_MAC, 0 },
	{ "lsm.s/", "bpf_lsm_", BPF_PROG_TYPE_LSM, BPF_LSM_MAC, BPF_F_SLEEPABLE },
	{ "iter/", "bpf_iter_", BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, 0 },
	/* A cgroup program: its handler only notes the hand-over. */
	{ "cgroup/sysctl", NULL, BPF_PROG_TYPE_CGROUP_SYSCTL, BPF_CGROUP_SYSCTL, 0 },
};

/*
 * The handlers stay registered for the life of the process: libbpf 1.1
 * frees its table of handlers when the last one is unregistered but keeps
 * the pointer, and frees it again at the next registration. So they are
 * registered once, and find the targets of the object being loaded here.
 */
static struct vg_attach_targets *active;

/* When libbpf hands prog to the kernel: the start of its load. */
static void note_hand_over(const struct bpf_program *prog)
{
	if (active && active->loaded < VG_TARGETS_MAX) {
		clock_gettime(CLOCK_MONOTONIC, &active->handed[active->loaded]);
		active->loaded_progs[active->loaded++] = prog;
	}
}

/* libbpf's prog_prepare_load_fn: the id found for this program, and its
 * section's flags (cookie). */
static int set_attach_btf_id(struct bpf_program *prog, struct bpf_prog_load_opts *opts,
			     long cookie)
{
	size_t i;

	opts->prog_flags |= cookie;
	for (i = 0; active && i < active->count; i++)
		if (active->progs[i] == prog && active->ids[i]) {
			note_hand_over(prog);
			opts->attach_btf_id = active->ids[i];
			return 0;
		}
	return -ESRCH;
}

/* libbpf's prog_prepare_load_fn for a program without a kernel function. */
static int hand_over(struct bpf_program *prog, struct bpf_prog_load_opts *opts, long cookie)
{
	(void)opts;
	(void)cookie;
	note_hand_over(prog);
	return 0;
}

long vg_attach_targets_load_us(const struct vg_attach_targets *t, const struct bpf_program *prog,
			       const struct timespec *load_end)
{
	size_t k;

	for (k = 0; k < t->loaded; k++)
		if (t->loaded_progs[k] == prog)
			return vg_us_between(&t->handed[k],
					  k + 1 < t->loaded ? &t->handed[k + 1] : load_end);
	return 0;
}

int vg_attach_targets_register(struct vg_attach_targets *t, char *err, size_t errlen)
{
	static size_t registered;

	memset(t, 0, sizeof(*t));
	for (; registered < sizeof(kinds) / sizeof(*kinds); registered++) {
		const struct target_kind *kind = &kinds[registered];
		LIBBPF_OPTS(libbpf_prog_handler_opts, opts,
			    .prog_prepare_load_fn = kind->func_prefix ? set_attach_btf_id : hand_over,
			    .cookie = kind->prog_flags);
		int id = libbpf_register_prog_handler(kind->section_prefix, kind->prog_type,
						      kind->attach_type, &opts);

		if (id < 0) {
			snprintf(err, errlen, "register the %s section handler: %s",
				 kind->section_prefix, strerror(-id));
			return -1;
		}
	}
	active = t;
	return 0;
}

static const struct target_kind *kind_of(const char *section)
{
	size_t k;

	for (k = 0; k < sizeof(kinds) / sizeof(*kinds); k++)
		if (!strncmp(section, kinds[k].section_prefix, strlen(kinds[k].section_prefix)))
			return &kinds[k];
	return NULL;
}

int vg_attach_targets_collect(struct vg_attach_targets *t, const struct bpf_object *obj,
			      char *err, size_t errlen)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj) {
		const char *section = bpf_program__section_name(prog);
		const struct target_kind *kind = kind_of(section);
		size_t n = t->count;

		if (kind && !kind->func_prefix)
			continue; /* no kernel function to find */
		if (!kind) {
			snprintf(err, errlen, "program %s: section %s has no attach target",
				 bpf_program__name(prog), section);
			return -1;
		}
		if (n == VG_TARGETS_MAX ||
		    snprintf(t->names[n], sizeof(t->names[n]), "%s%s", kind->func_prefix,
			     section + strlen(kind->section_prefix)) >= (int)sizeof(t->names[n])) {
			snprintf(err, errlen, "program %s: too many programs or too long a section",
				 bpf_program__name(prog));
			return -1;
		}
		t->progs[n] = prog;
		t->name_ptrs[n] = t->names[n];
		t->count++;
	}
	t->funcs.count = t->count;
	t->funcs.names = t->name_ptrs;
	t->funcs.ids = t->ids;
	return 0;
}

int vg_attach_targets_check(const struct vg_attach_targets *t, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < t->count; i++)
		if (!t->ids[i] && bpf_program__autoload(t->progs[i])) {
			snprintf(err, errlen, "this kernel has no %s to attach %s to", t->names[i],
				 bpf_program__name(t->progs[i]));
			return -1;
		}
	return 0;
}

void vg_attach_targets_unregister(struct vg_attach_targets *t)
{
	if (active == t)
		active = NULL;
}
