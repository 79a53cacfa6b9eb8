// SPDX-License-Identifier: GPL-2.0
/*
 * Guards of verigate's BPF objects: no fd for its programs or maps, by ID
 * or any other way, or for its links by ID (guard_removals.bpf.c says why a
 * pin may be opened); no program that could change what an LSM hook
 * returns (LSM, fmod_ret and freplace programs, kprobes that call
 * bpf_override_return) or a sysctl write, or what a view prints.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "guard.h"
#include "own_objects.h"

static __always_inline int guard_bpf_cmd(int cmd, union bpf_attr *attr)
{
	switch (cmd) {
	case BPF_PROG_GET_FD_BY_ID:
		return own_object(VG_OWN_PROG, attr->prog_id) ? guard_refuse(VG_OP_PROG_GET_FD) : 0;
	case BPF_MAP_GET_FD_BY_ID:
		return own_object(VG_OWN_MAP, attr->map_id) ? guard_refuse(VG_OP_MAP_GET_FD) : 0;
	case BPF_LINK_GET_FD_BY_ID:
		return own_object(VG_OWN_LINK, attr->link_id) ? guard_refuse(VG_OP_LINK_GET_FD) : 0;
	case BPF_PROG_LOAD:
		/* Programs that can change what an LSM hook returns. */
		if (attr->prog_type == BPF_PROG_TYPE_LSM)
			return guard_refuse(VG_OP_LOAD_LSM);
		if (attr->prog_type == BPF_PROG_TYPE_EXT)
			return guard_refuse(VG_OP_LOAD_FREPLACE);
		if (attr->prog_type == BPF_PROG_TYPE_TRACING &&
		    attr->expected_attach_type == BPF_MODIFY_RETURN)
			return guard_refuse(VG_OP_LOAD_FMOD_RET);
		/* One that could undo guard_ftrace_switch's verdict. */
		if (attr->prog_type == BPF_PROG_TYPE_CGROUP_SYSCTL)
			return guard_refuse(VG_OP_LOAD_SYSCTL);
		return 0;
	}
	return 0;
}

/* The bpf hook until 6.15; the loader picks one of the two by BTF. */
SEC("lsm/bpf")
int BPF_PROG(guard_bpf, int cmd, union bpf_attr *attr, unsigned int size, int ret)
{
	if (ret || !guarding())
		return ret;
	return guard_bpf_cmd(cmd, attr);
}

/* Since 6.15 the hook also says whether the kernel itself calls bpf(). */
SEC("lsm/bpf")
int BPF_PROG(guard_bpf_kern, int cmd, union bpf_attr *attr, unsigned int size, bool kernel,
	     int ret)
{
	if (ret || !guarding())
		return ret;
	return guard_bpf_cmd(cmd, attr);
}

/* An fd for one of verigate's maps or programs, however it was obtained. */
SEC("lsm/bpf_map")
int BPF_PROG(guard_bpf_map, struct bpf_map *map, unsigned int fmode, int ret)
{
	if (ret || !guarding())
		return ret;
	return own_object(VG_OWN_MAP, map->id) ? guard_refuse(VG_OP_MAP_FD) : 0;
}

/*
 * The kernel also asks here when it hands out the fd of a program it has
 * just loaded, after the verifier; a program is refused, and freed, if:
 * - it is a kprobe that calls bpf_override_return (the verifier marked
 *   it), which could make a hook return success; kprobes that only read
 *   load as before;
 * - it is an iterator over a view's target: BPF_LINK_UPDATE of a view's
 *   pinned link takes only such a program, and it would print what it
 *   likes where verigatectl reads the gate's state.
 */
SEC("lsm/bpf_prog")
int BPF_PROG(guard_bpf_prog, struct bpf_prog *prog, int ret)
{
	struct bpf_prog_aux *aux;

	if (ret || !guarding())
		return ret;
	aux = prog->aux;
	if (own_object(VG_OWN_PROG, aux->id))
		return guard_refuse(VG_OP_PROG_FD);
	if (kprobe_override && BPF_CORE_READ_BITFIELD_PROBED(prog, kprobe_override))
		return guard_refuse(VG_OP_LOAD_KPROBE);
	if (prog->expected_attach_type == BPF_TRACE_ITER &&
	    own_object(VG_OWN_VIEW_TARGET, aux->attach_btf_id))
		return guard_refuse(VG_OP_LOAD_VIEW_ITER);
	return 0;
}
