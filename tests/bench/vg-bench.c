// SPDX-License-Identifier: GPL-2.0
/*
 * vg-bench: the workloads of make bench, timed in the guest.
 *   vg-bench WORKLOAD N
 * runs WORKLOAD N times and prints "WORKLOAD N NS_PER_OP". Workloads:
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
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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
	void *h = dlopen(DLOPEN_LIBRARY, RTLD_NOW | RTLD_LOCAL);

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
	struct timespec start, end;
	long i, n;
	size_t w;

	if (argc != 3 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: vg-bench WORKLOAD N\n");
		return 2;
	}
	for (w = 0; w < sizeof(workloads) / sizeof(workloads[0]); w++) {
		if (strcmp(argv[1], workloads[w].name))
			continue;
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
		return 0;
	}
	fprintf(stderr, "vg-bench: unknown workload '%s'\n", argv[1]);
	return 2;
}
