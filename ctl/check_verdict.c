// SPDX-License-Identifier: GPL-2.0
#include "check_verdict.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "exit_code.h"

/* Decimal digits only (sscanf would take a sign and leading spaces). */
static int parse_u64(const char *s, uint64_t *n)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*n = v;
	return 0;
}

int vg_status_counter(const struct vg_status *st, const char *hook, const char *verdict,
		      uint64_t *n)
{
	char prefix[80];
	int len, i;

	len = snprintf(prefix, sizeof(prefix), "%s %s ", hook, verdict);
	if (len < 0 || (size_t)len >= sizeof(prefix))
		return -1;
	for (i = 0; i < st->count; i++)
		if (!strcmp(st->fields[i].key, "count") && !strncmp(st->fields[i].value, prefix, len))
			return parse_u64(st->fields[i].value + len, n);
	return -1;
}

const char *vg_check_counter_verdict(bool audit)
{
	return audit ? "audit" : "deny";
}

const char *vg_check_errno_name(int err)
{
	return err == EPERM ? "EPERM" : err == EACCES ? "EACCES" : NULL;
}

static bool counted(const struct vg_probe *p)
{
	return p->after > p->before;
}

enum vg_probe_judgement vg_probe_judge(const struct vg_probe *p, bool audit)
{
	if (p->outcome == VG_PROBE_ERROR)
		return VG_PROBE_UNKNOWN;
	if (p->outcome == VG_PROBE_NOT_APPLICABLE)
		return VG_PROBE_SKIPPED;
	if (!counted(p))
		return VG_PROBE_FAILED;
	/* Audit mode refuses nothing: the count is the proof the gate saw it. */
	return audit || p->outcome == VG_PROBE_REFUSED ? VG_PROBE_PASSED : VG_PROBE_FAILED;
}

/* What a failed probe's counter says, after the counter itself. */
static const char *counter_note(const struct vg_probe *p, bool audit)
{
	if (audit)
		return counted(p) ? "" : ": not counted, so verigate did not see it";
	if (p->outcome == VG_PROBE_REFUSED)
		return counted(p) ? "" : ": not counted, so not refused by verigate";
	return counted(p) ? ": counted, yet not refused" : "";
}

void vg_probe_line(const struct vg_probe *p, bool audit, char *buf, size_t len)
{
	char outcome[400];
	const char *name;

	switch (p->outcome) {
	case VG_PROBE_ERROR:
		snprintf(buf, len, "%s: could not probe: %s", p->name, p->what);
		return;
	case VG_PROBE_NOT_APPLICABLE:
		snprintf(buf, len, "%s: not probed: %s", p->name, p->what);
		return;
	case VG_PROBE_REFUSED:
		name = vg_check_errno_name(p->err);
		snprintf(outcome, sizeof(outcome), "refused (%s)", name ? name : strerror(p->err));
		break;
	case VG_PROBE_NOT_REFUSED:
		snprintf(outcome, sizeof(outcome), "%s: %s",
			 audit ? "not refused (audit mode)" : "NOT refused", p->what);
		break;
	}
	snprintf(buf, len, "%s: %s, count %s %s +%" PRIu64 "%s", p->name, outcome, p->name,
		 vg_check_counter_verdict(audit), counted(p) ? p->after - p->before : 0,
		 counter_note(p, audit));
}

/* ", "-separated names of the probes judged j, appended to buf. */
static void append_names(const struct vg_probe *probes, int n, bool audit,
			 enum vg_probe_judgement j, char *buf, size_t len)
{
	const char *sep = "";
	int i;

	for (i = 0; i < n; i++) {
		if (vg_probe_judge(&probes[i], audit) != j)
			continue;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", sep, probes[i].name);
		sep = ", ";
	}
}

static int how_many(const struct vg_probe *probes, int n, bool audit, enum vg_probe_judgement j)
{
	int i, count = 0;

	for (i = 0; i < n; i++)
		count += vg_probe_judge(&probes[i], audit) == j;
	return count;
}

/* A failure outranks a probe not made: what was probed already failed. */
void vg_check_judge(const struct vg_probe *probes, int n, bool audit, struct vg_check_result *r)
{
	char *s = r->summary;
	size_t len = sizeof(r->summary);

	if (how_many(probes, n, audit, VG_PROBE_FAILED)) {
		r->exit_code = EXIT_CHECK_FAILED;
		r->word = "failed";
		snprintf(s, len, "verigate: check FAILED: ");
		append_names(probes, n, audit, VG_PROBE_FAILED, s, len);
		if (how_many(probes, n, audit, VG_PROBE_UNKNOWN)) {
			snprintf(s + strlen(s), len - strlen(s), "; could not probe: ");
			append_names(probes, n, audit, VG_PROBE_UNKNOWN, s, len);
		}
	} else if (how_many(probes, n, audit, VG_PROBE_UNKNOWN)) {
		r->exit_code = EXIT_ERROR;
		r->word = "error";
		snprintf(s, len, "verigate: check could not probe: ");
		append_names(probes, n, audit, VG_PROBE_UNKNOWN, s, len);
	} else if (audit) {
		r->exit_code = EXIT_AUDIT;
		r->word = "audit";
		snprintf(s, len, "verigate: audit mode: the gate is live but refuses nothing");
	} else {
		r->exit_code = EXIT_OK;
		r->word = "passed";
		snprintf(s, len, "verigate: check passed");
	}
}
