/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the probes of "verigatectl check" (check.h) mean. A probe passes
 * when the gate saw it: in enforce mode it was refused and its "deny"
 * counter rose, in audit mode its "audit" counter rose. The refusal alone
 * proves nothing (seccomp or another LSM may have refused it), nor does the
 * counter alone (another process may have moved it); the check needs both.
 */
#ifndef VG_CHECK_VERDICT_H
#define VG_CHECK_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "view.h"

enum vg_probe_outcome {
	VG_PROBE_REFUSED,     /* with EPERM or EACCES */
	VG_PROBE_NOT_REFUSED, /* what must be refused happened */
	VG_PROBE_ERROR,	      /* the probe could not be made */
	VG_PROBE_NOT_APPLICABLE, /* this kernel has no such call, and the gate knows it */
};

struct vg_probe {
	const char *name; /* exec, exec_check, mmap, guard: also the hook of its counter */
	enum vg_probe_outcome outcome;
	int err;	  /* REFUSED: EPERM or EACCES */
	char what[320];	  /* NOT_REFUSED: what happened; ERROR: what failed, and why;
			   * NOT_APPLICABLE: what this kernel lacks */
	uint64_t before, after; /* its counter, read before and after the probe */
};

enum vg_probe_judgement { VG_PROBE_PASSED, VG_PROBE_FAILED, VG_PROBE_UNKNOWN, VG_PROBE_SKIPPED };

struct vg_check_result {
	int exit_code;	   /* enum exit_code */
	const char *word;  /* passed, audit, failed, error */
	char summary[256]; /* the last line of the report */
};

/* The N of the status line "count HOOK VERDICT N": 0, or -1 if there is
 * no such line or N is not a number. */
int vg_status_counter(const struct vg_status *st, const char *hook, const char *verdict,
		      uint64_t *n);

/* The verdict whose counter each probe must raise: deny, or audit. */
const char *vg_check_counter_verdict(bool audit);

/* "EPERM", "EACCES", or NULL for any other errno. */
const char *vg_check_errno_name(int err);

enum vg_probe_judgement vg_probe_judge(const struct vg_probe *p, bool audit);

/* The probe's report line, without a newline. */
void vg_probe_line(const struct vg_probe *p, bool audit, char *buf, size_t len);

/* The exit code and last line for the n probes. */
void vg_check_judge(const struct vg_probe *probes, int n, bool audit, struct vg_check_result *r);

#endif
