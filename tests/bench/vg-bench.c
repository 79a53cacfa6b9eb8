// SPDX-License-Identifier: GPL-2.0
/*
 * vg-bench: the workloads of make bench, timed in the guest.
 *   vg-bench WORKLOAD N
 * runs WORKLOAD N times and prints "WORKLOAD N NS_PER_OP". Where the
 * kernel's BPF statistics are on and readable (kernel.bpf_stats_enabled=1;
 * the guards refuse them when enforcing), it also prints
 * "bpf_cost WORKLOAD N NS_TOTAL": the run_time_ns that verigate's programs
 * (verigate_*, guard_*) added during the loop, a count that TCG's noise
 * does not blur (without the trampolines' entry and exit). Workloads:
 *   spawn-static   posix_spawn /bin/busybox true (a static program), wait
 *   spawn-dynamic  posix_spawn /bin/bpftool version (dynamic, several
 *                  shared libraries, each mapped PROT_EXEC), wait
 *   dlopen         dlopen and dlclose a shared library (RTLD_NOW|RTLD_LOCAL)
 *   mprotect       on anonymous memory: write, mprotect to PROT_READ|PROT_EXEC,
 *                  back to PROT_READ|PROT_WRITE (a JIT's pattern)
 * Exits 1 when an operation fails (a benchmark of refusals measures
 * nothing).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
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

/* The run_time_ns of verigate's programs so far, summed; false if there
 * are none or the statistics are off. */
static bool verigate_run_time(unsigned long long *ns)
{
	bool counted = false;
	int i;

	*ns = 0;
	for (i = 0; i < prog_count; i++) {
		struct bpf_prog_info info;

		if (prog_info(prog_fds[i], &info))
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
};

int main(int argc, char **argv)
{
	unsigned long long bpf_before, bpf_after;
	struct timespec start, end;
	bool bpf_stats;
	long i, n;
	size_t w;

	if (argc != 3 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: vg-bench WORKLOAD N\n");
		return 2;
	}
	for (w = 0; w < sizeof(workloads) / sizeof(workloads[0]); w++) {
		if (strcmp(argv[1], workloads[w].name))
			continue;
		open_verigate_progs();
		bpf_stats = verigate_run_time(&bpf_before);
		clock_gettime(CLOCK_MONOTONIC, &start);
		for (i = 0; i < n; i++) {
			if (workloads[w].run()) {
				fprintf(stderr, "vg-bench: %s failed at %ld\n", argv[1], i);
				return 1;
			}
		}
		clock_gettime(CLOCK_MONOTONIC, &end);
		printf("%s %ld %.0f\n", argv[1], n,
		       ((end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec)) / n);
		if (bpf_stats && verigate_run_time(&bpf_after))
			printf("bpf_cost %s %ld %llu\n", argv[1], n, bpf_after - bpf_before);
		return 0;
	}
	fprintf(stderr, "vg-bench: unknown workload '%s'\n", argv[1]);
	return 2;
}
