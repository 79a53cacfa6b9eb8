// SPDX-License-Identifier: GPL-2.0
/*
 * kprobe-attack: kprobe programs, the one that only reads and the one that
 * could change what a kernel function returns.
 *   kprobe-attack count     load a kprobe program that only returns 0,
 *                           attach it to getppid(2)'s kernel entry through
 *                           the kprobe PMU, call getppid 100 times with the
 *                           kernel's run statistics on (BPF_ENABLE_STATS);
 *                           "allowed runs=N" only if it ran each time
 *   kprobe-attack override  load a kprobe program that calls
 *                           bpf_override_return (never attached)
 * Prints "allowed" (exit 0) or "denied errno=NAME (...)" (exit 1); 2 when
 * a step that is not the attack fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "outcome.h"

#define CALLS 100
#define TARGET "__x64_sys_getppid"

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* The verifier's log of the last load. */
static char verifier_log[4096];

static int load_kprobe(const struct bpf_insn *insns, unsigned int count)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_KPROBE;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = count;
	attr.license = (unsigned long)"GPL";
	attr.log_buf = (unsigned long)verifier_log;
	attr.log_size = sizeof(verifier_log);
	attr.log_level = 1;
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

/* The verdict on a refused load, then (after it: the verdict is the
 * first line) the verifier's reason, if it gave one. */
static int load_denied(const char *what)
{
	int rc = denied(what);

	fflush(stdout);
	if (verifier_log[0])
		fprintf(stderr, "verifier log:\n%s", verifier_log);
	return rc;
}

static int fail_step(const char *what)
{
	printf("step failed: %s: %s\n", what, strerror(errno));
	return 2;
}

/* The kprobe PMU's type, from sysfs. */
static int kprobe_pmu(void)
{
	char buf[16] = "";
	int fd = open("/sys/bus/event_source/devices/kprobe/type", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0)
		return -1;
	close(fd);
	return atoi(buf);
}

static int count(void)
{
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct perf_event_attr pe;
	struct bpf_prog_info info;
	union bpf_attr attr;
	int prog, stats, event, type, i;

	prog = load_kprobe(insns, 2);
	if (prog < 0)
		return load_denied("BPF_PROG_LOAD kprobe");
	memset(&attr, 0, sizeof(attr));
	attr.enable_stats.type = BPF_STATS_RUN_TIME;
	stats = sys_bpf(BPF_ENABLE_STATS, &attr);
	if (stats < 0)
		return fail_step("BPF_ENABLE_STATS");
	type = kprobe_pmu();
	if (type < 0)
		return fail_step("no kprobe PMU");
	memset(&pe, 0, sizeof(pe));
	pe.size = sizeof(pe);
	pe.type = type;
	pe.kprobe_func = (unsigned long)TARGET;
	event = syscall(SYS_perf_event_open, &pe, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (event < 0)
		return denied("perf_event_open kprobe " TARGET);
	if (ioctl(event, PERF_EVENT_IOC_SET_BPF, prog) || ioctl(event, PERF_EVENT_IOC_ENABLE, 0))
		return denied("PERF_EVENT_IOC_SET_BPF");
	for (i = 0; i < CALLS; i++)
		syscall(SYS_getppid);
	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog;
	attr.info.info_len = sizeof(info);
	attr.info.info = (unsigned long)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		return fail_step("BPF_OBJ_GET_INFO_BY_FD");
	if (info.run_cnt < CALLS) {
		printf("attached, but it ran %llu times for %d calls\n",
		       (unsigned long long)info.run_cnt, CALLS);
		return 2;
	}
	printf("allowed runs=%llu\n", (unsigned long long)info.run_cnt);
	return 0;
}

static int override(void)
{
	/* bpf_override_return(ctx, 0); return 0; (r1 holds ctx on entry) */
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_2, .imm = 0 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_override_return },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = load_kprobe(insns, 4);

	if (fd < 0)
		return load_denied("BPF_PROG_LOAD kprobe with bpf_override_return");
	close(fd);
	return allowed();
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "count"))
		return count();
	if (argc == 2 && !strcmp(argv[1], "override"))
		return override();
	fprintf(stderr, "usage: see the comment at the top of kprobe-attack.c\n");
	return 2;
}
