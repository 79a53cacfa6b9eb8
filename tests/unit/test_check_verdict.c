// SPDX-License-Identifier: GPL-2.0
/* Unit tests for what verigatectl check makes of its probes (ctl/check_verdict.c). */
#include <errno.h>

#include "check_verdict.h"
#include "exit_code.h"
#include "unit.h"

static struct vg_status st;
static char err[256], line[512];

static struct vg_probe probe(const char *name, enum vg_probe_outcome outcome, uint64_t before,
			     uint64_t after)
{
	struct vg_probe p = { .name = name, .outcome = outcome, .before = before, .after = after };

	if (outcome == VG_PROBE_REFUSED)
		p.err = EPERM;
	else if (outcome == VG_PROBE_NOT_REFUSED)
		snprintf(p.what, sizeof(p.what), "the memfd copy ran");
	else if (outcome == VG_PROBE_NOT_APPLICABLE)
		snprintf(p.what, sizeof(p.what), "this kernel has no AT_EXECVE_CHECK (6.14+)");
	else
		snprintf(p.what, sizeof(p.what), "memfd_create: Function not implemented");
	return p;
}

TEST(counter_found)
{
	uint64_t n = 0;

	CHECK_INT_EQ(vg_status_parse("mode enforce\ncount mmap deny 4\ncount exec allow 9\n"
				     "count exec deny 18446744073709551615\n",
				     &st, err, sizeof(err)), 0);
	CHECK_INT_EQ(vg_status_counter(&st, "exec", "deny", &n), 0);
	CHECK(n == UINT64_MAX);
	CHECK_INT_EQ(vg_status_counter(&st, "mmap", "deny", &n), 0);
	CHECK_INT_EQ(n, 4);
	CHECK_INT_EQ(vg_status_counter(&st, "map", "deny", &n), -1);
	CHECK_INT_EQ(vg_status_counter(&st, "guard", "deny", &n), -1);
	CHECK_INT_EQ(vg_status_counter(&st, "exec", "audit", &n), -1);
}

TEST(counter_malformed)
{
	static const char *const bad[] = {
		"mode enforce\ncount exec deny\n",
		"mode enforce\ncount exec deny \n",
		"mode enforce\ncount exec deny -1\n",
		"mode enforce\ncount exec deny +1\n",
		"mode enforce\ncount exec deny  1\n",
		"mode enforce\ncount exec deny 1x\n",
		"mode enforce\ncount exec deny 18446744073709551616\n",
		"mode enforce\ncounts exec deny 1\n",
	};
	uint64_t n;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT_EQ(vg_status_parse(bad[i], &st, err, sizeof(err)), 0);
		if (vg_status_counter(&st, "exec", "deny", &n) != -1)
			unit_fail(__FILE__, __LINE__, "accepted: %s", bad[i]);
	}
}

TEST(names)
{
	CHECK_STR_EQ(vg_check_counter_verdict(false), "deny");
	CHECK_STR_EQ(vg_check_counter_verdict(true), "audit");
	CHECK_STR_EQ(vg_check_errno_name(EPERM), "EPERM");
	CHECK_STR_EQ(vg_check_errno_name(EACCES), "EACCES");
	CHECK(vg_check_errno_name(ENOENT) == NULL);
}

TEST(judge_enforce)
{
	struct vg_probe p = probe("exec", VG_PROBE_REFUSED, 3, 4);

	CHECK_INT_EQ(vg_probe_judge(&p, false), VG_PROBE_PASSED);
	/* Refused, but not by verigate: seccomp, another LSM, file modes. */
	p = probe("exec", VG_PROBE_REFUSED, 3, 3);
	CHECK_INT_EQ(vg_probe_judge(&p, false), VG_PROBE_FAILED);
	/* Counted (another process?), but it ran. */
	p = probe("exec", VG_PROBE_NOT_REFUSED, 3, 5);
	CHECK_INT_EQ(vg_probe_judge(&p, false), VG_PROBE_FAILED);
	p = probe("exec", VG_PROBE_NOT_REFUSED, 3, 3);
	CHECK_INT_EQ(vg_probe_judge(&p, false), VG_PROBE_FAILED);
	/* A counter that went back (the gate was replaced) is not counted. */
	p = probe("exec", VG_PROBE_REFUSED, 3, 1);
	CHECK_INT_EQ(vg_probe_judge(&p, false), VG_PROBE_FAILED);
	p = probe("exec", VG_PROBE_ERROR, 3, 4);
	CHECK_INT_EQ(vg_probe_judge(&p, false), VG_PROBE_UNKNOWN);
}

TEST(judge_audit)
{
	struct vg_probe p = probe("mmap", VG_PROBE_NOT_REFUSED, 0, 1);

	CHECK_INT_EQ(vg_probe_judge(&p, true), VG_PROBE_PASSED);
	p = probe("mmap", VG_PROBE_NOT_REFUSED, 1, 1);
	CHECK_INT_EQ(vg_probe_judge(&p, true), VG_PROBE_FAILED);
	/* Another LSM refused it after verigate logged it. */
	p = probe("mmap", VG_PROBE_REFUSED, 1, 2);
	CHECK_INT_EQ(vg_probe_judge(&p, true), VG_PROBE_PASSED);
	p = probe("mmap", VG_PROBE_ERROR, 1, 2);
	CHECK_INT_EQ(vg_probe_judge(&p, true), VG_PROBE_UNKNOWN);
}

TEST(lines)
{
	struct vg_probe p = probe("exec", VG_PROBE_REFUSED, 3, 4);

	vg_probe_line(&p, false, line, sizeof(line));
	CHECK_STR_EQ(line, "exec: refused (EPERM), count exec deny +1");
	p.err = EACCES;
	p.after = 3;
	vg_probe_line(&p, false, line, sizeof(line));
	CHECK_STR_EQ(line, "exec: refused (EACCES), count exec deny +0: not counted, so not refused by verigate");
	p = probe("exec", VG_PROBE_NOT_REFUSED, 3, 3);
	vg_probe_line(&p, false, line, sizeof(line));
	CHECK_STR_EQ(line, "exec: NOT refused: the memfd copy ran, count exec deny +0");
	p.after = 5;
	vg_probe_line(&p, false, line, sizeof(line));
	CHECK_STR_EQ(line, "exec: NOT refused: the memfd copy ran, count exec deny +2: counted, yet not refused");
	p = probe("exec", VG_PROBE_NOT_REFUSED, 3, 4);
	vg_probe_line(&p, true, line, sizeof(line));
	CHECK_STR_EQ(line, "exec: not refused (audit mode): the memfd copy ran, count exec audit +1");
	p.after = 3;
	vg_probe_line(&p, true, line, sizeof(line));
	CHECK_STR_EQ(line, "exec: not refused (audit mode): the memfd copy ran, count exec audit +0: "
			   "not counted, so verigate did not see it");
	p = probe("exec", VG_PROBE_REFUSED, 7, 2);
	vg_probe_line(&p, false, line, sizeof(line));
	CHECK_STR_EQ(line, "exec: refused (EPERM), count exec deny +0: not counted, so not refused by verigate");
	p = probe("exec", VG_PROBE_ERROR, 0, 0);
	vg_probe_line(&p, false, line, sizeof(line));
	CHECK_STR_EQ(line, "exec: could not probe: memfd_create: Function not implemented");
}

/* A probe that this kernel cannot make is neither a pass nor a failure,
 * whatever its counter did, and it does not hide the others' verdicts. */
TEST(not_applicable)
{
	struct vg_probe probes[2] = {
		probe("exec_check", VG_PROBE_NOT_APPLICABLE, 0, 0),
		probe("exec", VG_PROBE_REFUSED, 0, 1),
	};
	struct vg_check_result r;

	CHECK_INT_EQ(vg_probe_judge(&probes[0], false), VG_PROBE_SKIPPED);
	CHECK_INT_EQ(vg_probe_judge(&probes[0], true), VG_PROBE_SKIPPED);
	probes[0].after = 2;
	CHECK_INT_EQ(vg_probe_judge(&probes[0], false), VG_PROBE_SKIPPED);
	vg_probe_line(&probes[0], false, line, sizeof(line));
	CHECK_STR_EQ(line, "exec_check: not probed: this kernel has no AT_EXECVE_CHECK (6.14+)");
	vg_check_judge(probes, 2, false, &r);
	CHECK_INT_EQ(r.exit_code, EXIT_OK);
	CHECK_STR_EQ(r.summary, "verigate: check passed");
	vg_check_judge(probes, 2, true, &r);
	CHECK_INT_EQ(r.exit_code, EXIT_AUDIT);
	probes[1] = probe("exec", VG_PROBE_NOT_REFUSED, 0, 0);
	vg_check_judge(probes, 2, false, &r);
	CHECK_INT_EQ(r.exit_code, EXIT_CHECK_FAILED);
	CHECK_STR_EQ(r.summary, "verigate: check FAILED: exec");
	probes[1] = probe("exec", VG_PROBE_ERROR, 0, 0);
	vg_check_judge(probes, 2, false, &r);
	CHECK_INT_EQ(r.exit_code, EXIT_ERROR);
	CHECK_STR_EQ(r.summary, "verigate: check could not probe: exec");
}

static struct vg_check_result judge(enum vg_probe_outcome exec, enum vg_probe_outcome mmap,
				    enum vg_probe_outcome guard, uint64_t guard_count, bool audit)
{
	struct vg_probe probes[3] = {
		probe("exec", exec, 0, 1),
		probe("mmap", mmap, 0, 1),
		probe("guard", guard, 0, guard_count),
	};
	struct vg_check_result r;

	vg_check_judge(probes, 3, audit, &r);
	return r;
}

TEST(check_enforce)
{
	struct vg_check_result r = judge(VG_PROBE_REFUSED, VG_PROBE_REFUSED, VG_PROBE_REFUSED, 1, false);

	CHECK_INT_EQ(r.exit_code, EXIT_OK);
	CHECK_STR_EQ(r.word, "passed");
	CHECK_STR_EQ(r.summary, "verigate: check passed");
	/* The control boot: built without guards. */
	r = judge(VG_PROBE_REFUSED, VG_PROBE_REFUSED, VG_PROBE_NOT_REFUSED, 0, false);
	CHECK_INT_EQ(r.exit_code, EXIT_CHECK_FAILED);
	CHECK_STR_EQ(r.word, "failed");
	CHECK_STR_EQ(r.summary, "verigate: check FAILED: guard");
	/* The trampolines stopped (ftrace_enabled=0): nothing refused, nothing counted. */
	r = judge(VG_PROBE_NOT_REFUSED, VG_PROBE_NOT_REFUSED, VG_PROBE_NOT_REFUSED, 0, false);
	CHECK_INT_EQ(r.exit_code, EXIT_CHECK_FAILED);
	CHECK_STR_EQ(r.summary, "verigate: check FAILED: exec, mmap, guard");
	/* A failure outranks a probe not made. */
	r = judge(VG_PROBE_ERROR, VG_PROBE_ERROR, VG_PROBE_NOT_REFUSED, 1, false);
	CHECK_INT_EQ(r.exit_code, EXIT_CHECK_FAILED);
	CHECK_STR_EQ(r.summary, "verigate: check FAILED: guard; could not probe: exec, mmap");
	r = judge(VG_PROBE_ERROR, VG_PROBE_ERROR, VG_PROBE_REFUSED, 1, false);
	CHECK_INT_EQ(r.exit_code, EXIT_ERROR);
	CHECK_STR_EQ(r.word, "error");
	CHECK_STR_EQ(r.summary, "verigate: check could not probe: exec, mmap");
}

TEST(check_audit)
{
	struct vg_check_result r =
		judge(VG_PROBE_NOT_REFUSED, VG_PROBE_NOT_REFUSED, VG_PROBE_NOT_REFUSED, 1, true);

	CHECK_INT_EQ(r.exit_code, EXIT_AUDIT);
	CHECK_STR_EQ(r.word, "audit");
	CHECK_STR_EQ(r.summary, "verigate: audit mode: the gate is live but refuses nothing");
	r = judge(VG_PROBE_NOT_REFUSED, VG_PROBE_NOT_REFUSED, VG_PROBE_NOT_REFUSED, 0, true);
	CHECK_INT_EQ(r.exit_code, EXIT_CHECK_FAILED);
	CHECK_STR_EQ(r.summary, "verigate: check FAILED: guard");
	r = judge(VG_PROBE_NOT_REFUSED, VG_PROBE_ERROR, VG_PROBE_NOT_REFUSED, 1, true);
	CHECK_INT_EQ(r.exit_code, EXIT_ERROR);
}

int main(int argc, char **argv)
{
	unit_init(argc, argv);
	RUN(counter_found);
	RUN(counter_malformed);
	RUN(names);
	RUN(judge_enforce);
	RUN(judge_audit);
	RUN(lines);
	RUN(not_applicable);
	RUN(check_enforce);
	RUN(check_audit);
	return unit_done();
}
