// SPDX-License-Identifier: GPL-2.0
/*
 * vg-bench: the workloads of make bench, timed in the guest.
 *   vg-bench WORKLOAD N
 * runs WORKLOAD N times and prints "WORKLOAD N NS_PER_OP". Where the
 * kernel's BPF statistics are on and readable (kernel.bpf_stats_enabled=1;
 * the guards refuse them when enforcing), it also prints
 * "bpf_cost WORKLOAD N NS_TOTAL": the run_time_ns that verigate's programs
 * (verigate_*, guard_*) added during the loop, a count that TCG's noise
 * does not blur (without the trampolines' entry and exit).
 *   vg-bench --empty-twins WORKLOAD N
 * first attaches, beside each of verigate's LSM programs, an empty one
 * (it returns 0) on the same hook, then runs the loop and prints
 * "twinned_cost WORKLOAD N NS_TOTAL" (verigate's programs) and
 * "twin_floor WORKLOAD N NS_TOTAL" (the empty ones): what the statistics
 * and the dispatch cost a program that does nothing, counted in the same
 * loop. Loading them is a bpf() command the guards refuse when enforcing
 * (then it exits 1) and log in audit mode. Workloads:
 *   spawn-static   posix_spawn /bin/busybox true (a static program), wait
 *   spawn-dynamic  posix_spawn /bin/bpftool version (dynamic, several
 *                  shared libraries, each mapped PROT_EXEC), wait
 *   dlopen         dlopen and dlclose a shared library (RTLD_NOW|RTLD_LOCAL)
 *   mprotect       on anonymous memory: write, mprotect to PROT_READ|PROT_EXEC,
 *                  back to PROT_READ|PROT_WRITE (a JIT's pattern)
 *   open-read      open /bin/busybox for reading, close
 *   open-write     open /dev/null for writing, close
 * Exits 1 when an operation fails (a benchmark of refusals measures
 * nothing).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define DLOPEN_LIBRARY "libz.so.1"

static int spawn(char *const argv[])
{
	posix_spawn_file_actions_t actions;
	int status = -1;
	pid_t pid;

	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
	if (posix_spawn(&pid, argv[0], &actions, NULL, argv, environ) ||
	    waitpid(pid, &status, 0) != pid)
		status = -1;
	posix_spawn_file_actions_destroy(&actions);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int spawn_static(void)
{
	char *const argv[] = { "/bin/busybox", "true", NULL };

	return spawn(argv);
}

static int spawn_dynamic(void)
{
	char *const argv[] = { "/bin/bpftool", "version", NULL };

	return spawn(argv);
}

static int dlopen_close(void)
{
	void *h = dlopen(DLOPEN_LIBRARY, RTLD_NOW | RTLD_NOLOAD);

	/* Already loaded, dlopen would only count a reference: nothing mapped. */
	if (h) {
		fprintf(stderr, "vg-bench: %s is loaded already; dlopen would map nothing\n",
			DLOPEN_LIBRARY);
		dlclose(h);
		return -1;
	}
	h = dlopen(DLOPEN_LIBRARY, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		fprintf(stderr, "vg-bench: %s\n", dlerror());
		return -1;
	}
	return dlclose(h);
}

static int mprotect_churn(void)
{
	static unsigned char *page;
	long size = sysconf(_SC_PAGESIZE);

	if (!page) {
		page = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (page == MAP_FAILED)
			return -1;
	}
	page[0] = 0xc3; /* ret */
	if (mprotect(page, size, PROT_READ | PROT_EXEC) ||
	    mprotect(page, size, PROT_READ | PROT_WRITE))
		return -1;
	return 0;
}

/* What file_open's guard sees on every open: one for reading (it returns
 * at the mode), one for writing (it looks at the filesystem too). */
static int open_close(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	return fd < 0 ? -1 : close(fd);
}

static int open_read(void)
{
	return open_close("/bin/busybox", O_RDONLY);
}

static int open_write(void)
{
	return open_close("/dev/null", O_WRONLY);
}

/* Raw bpf(2): libbpf would bring libz, which the dlopen workload must
 * find not yet loaded. */
static int sys_bpf(enum bpf_cmd cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static int next_prog_id(__u32 *id)
{
	union bpf_attr attr = { .start_id = *id };

	if (sys_bpf(BPF_PROG_GET_NEXT_ID, &attr))
		return -1;
	*id = attr.next_id;
	return 0;
}

static int prog_fd(__u32 id)
{
	union bpf_attr attr = { .prog_id = id };

	return sys_bpf(BPF_PROG_GET_FD_BY_ID, &attr);
}

static int prog_info(int fd, struct bpf_prog_info *info)
{
	union bpf_attr attr = { .info = { .bpf_fd = fd, .info_len = sizeof(*info),
					  .info = (__u64)(unsigned long)info } };

	memset(info, 0, sizeof(*info));
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr);
}

static bool is_verigate_prog(const char *name)
{
	return !strncmp(name, "verigate_", 9) || !strncmp(name, "guard_", 6);
}

#define PROGS_MAX 64
static int prog_fds[PROGS_MAX];
static int prog_count;

/* Fds for verigate's programs, taken before anything is timed: getting one
 * is a bpf() command the guards refuse (enforcing) or log (audit), while
 * reading a held fd's statistics costs the guards a compare. */
static void open_verigate_progs(void)
{
	__u32 id = 0;

	while (prog_count < PROGS_MAX && !next_prog_id(&id)) {
		struct bpf_prog_info info;
		int fd = prog_fd(id);

		if (fd < 0)
			continue;
		if (!prog_info(fd, &info) && is_verigate_prog(info.name))
			prog_fds[prog_count++] = fd;
		else
			close(fd);
	}
}

/* The empty programs' fds, for their statistics, and their links' fds,
 * which keep them attached until vg-bench exits. */
static int twin_fds[PROGS_MAX];
static int twin_links[PROGS_MAX];
static int twin_count;

/* An empty LSM program (return 0), attached to the hook of verigate's
 * program that info describes: its fd (its link's in *link), or -1. */
static int attach_empty_twin(const struct bpf_prog_info *info, int *link)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr load = {
		.prog_type = BPF_PROG_TYPE_LSM,
		.expected_attach_type = BPF_LSM_MAC,
		.attach_btf_id = info->attach_btf_id,
		.insns = (__u64)(unsigned long)insns,
		.insn_cnt = sizeof(insns) / sizeof(insns[0]),
		.license = (__u64)(unsigned long)"GPL",
		.prog_name = "empty_twin",
	};
	union bpf_attr attach = { 0 };
	int prog = sys_bpf(BPF_PROG_LOAD, &load);

	if (prog < 0)
		return -1;
	attach.raw_tracepoint.prog_fd = prog;
	*link = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attach);
	if (*link < 0) {
		close(prog);
		return -1;
	}
	return prog;
}

/* A twin beside each of verigate's LSM programs; false if one failed or
 * there is none. */
static bool attach_empty_twins(void)
{
	int i;

	for (i = 0; i < prog_count; i++) {
		struct bpf_prog_info info;

		if (prog_info(prog_fds[i], &info))
			return false;
		if (info.type != BPF_PROG_TYPE_LSM)
			continue;
		twin_fds[twin_count] = attach_empty_twin(&info, &twin_links[twin_count]);
		if (twin_fds[twin_count] < 0) {
			fprintf(stderr, "vg-bench: cannot attach an empty program beside %s: %s\n",
				info.name, strerror(errno));
			return false;
		}
		twin_count++;
	}
	if (!twin_count)
		fprintf(stderr, "vg-bench: verigate has no LSM program here to stand beside\n");
	return twin_count > 0;
}

/* The run_time_ns of the programs in fds so far, summed; false if there
 * are none or the statistics are off. */
static bool run_time(const int *fds, int count, unsigned long long *ns)
{
	bool counted = false;
	int i;

	*ns = 0;
	for (i = 0; i < count; i++) {
		struct bpf_prog_info info;

		if (prog_info(fds[i], &info))
			return false;
		*ns += info.run_time_ns;
		counted |= info.run_cnt > 0;
	}
	return counted;
}

static const struct {
	const char *name;
	int (*run)(void);
} workloads[] = {
	{ "spawn-static", spawn_static },
	{ "spawn-dynamic", spawn_dynamic },
	{ "dlopen", dlopen_close },
	{ "mprotect", mprotect_churn },
	{ "open-read", open_read },
	{ "open-write", open_write },
};

/* The loop, timed: "WORKLOAD N NS_PER_OP", and the counts the header
 * names. */
static int run_workload(size_t w, long n, bool twins)
{
	unsigned long long before = 0, after = 0, twins_before = 0, twins_after = 0;
	struct timespec start, end;
	bool stats;
	long i;

	open_verigate_progs();
	if (twins && !attach_empty_twins())
		return 1;
	stats = run_time(prog_fds, prog_count, &before);
	/* (the twins may not have run yet: their sum is then 0, not "off") */
	if (twins)
		run_time(twin_fds, twin_count, &twins_before);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (i = 0; i < n; i++) {
		if (workloads[w].run()) {
			fprintf(stderr, "vg-bench: %s failed at %ld\n", workloads[w].name, i);
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("%s %ld %.0f\n", workloads[w].name, n,
	       ((end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec)) / n);
	if (!stats || !run_time(prog_fds, prog_count, &after))
		return 0;
	if (!twins) {
		printf("bpf_cost %s %ld %llu\n", workloads[w].name, n, after - before);
		return 0;
	}
	if (!run_time(twin_fds, twin_count, &twins_after))
		return 0;
	printf("twinned_cost %s %ld %llu\n", workloads[w].name, n, after - before);
	printf("twin_floor %s %ld %llu\n", workloads[w].name, n, twins_after - twins_before);
	return 0;
}

int main(int argc, char **argv)
{
	bool twins = argc == 4 && !strcmp(argv[1], "--empty-twins");
	long n;
	size_t w;

	if (argc != 3 + twins || (n = atol(argv[2 + twins])) <= 0) {
		fprintf(stderr, "usage: vg-bench [--empty-twins] WORKLOAD N\n");
		return 2;
	}
	for (w = 0; w < sizeof(workloads) / sizeof(workloads[0]); w++)
		if (!strcmp(argv[1 + twins], workloads[w].name))
			return run_workload(w, n, twins);
	fprintf(stderr, "vg-bench: unknown workload '%s'\n", argv[1 + twins]);
	return 2;
}
