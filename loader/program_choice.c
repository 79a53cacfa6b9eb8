// SPDX-License-Identifier: GPL-2.0
#include "program_choice.h"

#include <string.h>

static void disable(struct bpf_object *obj, const char *name)
{
	struct bpf_program *prog = bpf_object__find_program_by_name(obj, name);

	if (prog)
		bpf_program__set_autoload(prog, false);
}

void vg_programs_choose(struct bpf_object *obj, const struct vg_kernel_features *f,
			const struct vg_program_needs *needs)
{
	disable(obj, f->bpf_hook_args == 4 ? "guard_bpf" : "guard_bpf_kern");
	/* Where dm-verity tells the LSMs of each table before it goes live
	 * (6.12+), verigate_bdev_integrity keeps the root's own; a guard on
	 * every ioctl would add nothing but its cost. */
	if (!f->ioctl_compat_hook || f->bdev_integrity_hooks)
		disable(obj, "guard_dm_ioctl32");
	if (f->bdev_integrity_hooks)
		disable(obj, "guard_dm_ioctl");
	/* Each exec hook has a program that judges an overlay file by its
	 * data layer (exec_gate_layers.bpf.c) and one that judges it by the
	 * overlay's own device, which refuses every overlay file. */
	if (f->real_data_inode) {
		disable(obj, "verigate_exec");
		disable(obj, "verigate_mmap");
		disable(obj, "verigate_exec_check");
	} else {
		disable(obj, "verigate_exec_layers");
		disable(obj, "verigate_mmap_layers");
		disable(obj, "verigate_exec_check_layers");
	}
	if (!f->execve_check) {
		disable(obj, "verigate_exec_check");
		disable(obj, "verigate_exec_check_layers");
	}
	if (!f->bdev_integrity_hooks) {
		disable(obj, "verigate_bdev_integrity");
		disable(obj, "verigate_bdev_free");
	}
	if (!needs->deny_anon_exec) {
		/* Tracers writing code only matter when anonymous code is refused. */
		disable(obj, "verigate_ptrace");
		disable(obj, "verigate_traceme");
		disable(obj, "verigate_mem_write");
	} else if (!needs->proc_mem_forced) {
		/* The kernel forces no write through /proc/self/mem, and a
		 * tracer's forced writes need an attach the ptrace hooks refuse:
		 * nothing for a program on every open to do. */
		disable(obj, "verigate_mem_write");
	}
}

bool vg_program_is_guard(const struct bpf_program *prog)
{
	return !strncmp(bpf_program__name(prog), "guard_", 6);
}

bool vg_program_is_view(const struct bpf_program *prog)
{
	return bpf_program__expected_attach_type(prog) == BPF_TRACE_ITER;
}

const char *vg_program_hook(const struct bpf_program *prog)
{
	const char *section = bpf_program__section_name(prog), *slash = strchr(section, '/');

	if (vg_program_is_view(prog))
		return "iterator";
	return slash ? slash + 1 : section;
}

const char *vg_hook_unprovable(const char *hook)
{
	static const struct {
		const char *hook, *why;
	} unprovable[] = {
		{ "ptrace_traceme",
		  "its only trigger, PTRACE_TRACEME, is what it refuses (the proof would log a denial)" },
		{ "bdev_setintegrity", "runs only when dm-verity sets up a table" },
		{ "bdev_free_security", "runs only when a block device is freed" },
	};
	size_t i;

	for (i = 0; i < sizeof(unprovable) / sizeof(unprovable[0]); i++)
		if (!strcmp(unprovable[i].hook, hook))
			return unprovable[i].why;
	return NULL;
}

void vg_programs_count(const struct bpf_object *obj, struct vg_program_counts *c)
{
	struct bpf_program *prog;

	memset(c, 0, sizeof(*c));
	bpf_object__for_each_program(prog, obj) {
		if (!bpf_program__autoload(prog))
			continue;
		c->programs++;
		c->guards += vg_program_is_guard(prog);
		c->provable += !vg_hook_unprovable(vg_program_hook(prog));
	}
}
