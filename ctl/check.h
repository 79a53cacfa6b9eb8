/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The probes of "verigatectl check": each tries something that verigate
 * must refuse and records what the kernel did (check_verdict.h says what
 * that means). They change nothing: what they are let do, they undo.
 */
#ifndef VG_CHECK_H
#define VG_CHECK_H

#include <stdbool.h>

#include "check_verdict.h"

#define VG_PROBES 4

/* The exec probe runs a copy of verigatectl with this one argument; if the
 * copy does run, it exits at once with this status. */
#define VG_CHECK_RAN_ARG "--check-probe-ran"
#define VG_CHECK_RAN_STATUS 99

/* What the probes work on. */
struct vg_check_target {
	const char *dir;    /* the pin directory */
	bool execve_check;  /* the loader found AT_EXECVE_CHECK in this kernel */
	int file;	    /* a memfd holding a copy of this program, or -1 */
	char file_err[160]; /* why there is none */
};

typedef void vg_probe_fn(struct vg_probe *p, const struct vg_check_target *t);

struct vg_probe_def {
	const char *name;
	vg_probe_fn *run;
};

/* exec, exec_check, mmap and guard, in the order they run. */
extern const struct vg_probe_def vg_probe_defs[VG_PROBES];

/* Make t's memfd copy (t->file is -1 if that fails, with t->file_err). */
void vg_check_target_open(struct vg_check_target *t, const char *dir, bool execve_check);
void vg_check_target_close(struct vg_check_target *t);

#endif
