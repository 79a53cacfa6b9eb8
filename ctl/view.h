/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text of verigate's read-only views (bpf/views.bpf.c), parsed. The
 * text comes from the kernel, but verigatectl still treats it as input:
 * every line is checked, and anything unexpected is an error, not a guess.
 */
#ifndef VG_VIEW_H
#define VG_VIEW_H

#include <stddef.h>
#include <stdint.h>

#define VG_STATUS_FIELDS_MAX 64

/* One "key value" line of the status view. */
struct vg_status_field {
	char key[32];    /* [a-z_]+ */
	char value[800]; /* printable ASCII; for "count": "HOOK VERDICT N" */
};

struct vg_status {
	int count;
	struct vg_status_field fields[VG_STATUS_FIELDS_MAX];
};

/* One record of the denials view. */
struct vg_denial_record {
	uint64_t seq;
	uint64_t boot_ns;
	char verdict[8]; /* deny, audit */
	char hook[16];
	unsigned int dev_major, dev_minor;
	uint64_t ino;
	unsigned int pid;
	char comm[17];
	int err_no; /* EPERM when denied, 0 in audit mode */
	char what[25]; /* the guard's name for what it refused; "" for the exec gate */
};

/* Parse the status view. 0, or -1 with the offending line named in err. */
int vg_status_parse(const char *text, struct vg_status *st, char *err, size_t errlen);

/* The value of key in st, or NULL. */
const char *vg_status_get(const struct vg_status *st, const char *key);

/* Parse one line of the denials view (without its newline). */
int vg_denial_parse(const char *line, struct vg_denial_record *rec, char *err, size_t errlen);

#endif
