// SPDX-License-Identifier: GPL-2.0
/*
 * vg-bench: the workloads of make bench, timed in the guest.
 *   vg-bench WORKLOAD N
 * runs WORKLOAD N times and prints "WORKLOAD N NS_PER_OP". Where the
 * kernel's BPF statistics are on and readable (kernel.bpf_stats_enabled=1;
 * the guards refuse them when enforcing), it also prints
 * "bpf_cost WORKLOAD N NS_TOTAL": the run_time_ns that verigate's programs
 * (verigate_*, guard_*) added during the loop, a count that TCG's noise
 * does not blur (without the trampolines' entry and exit), and for each
 * of those programs "prog_runs WORKLOAD N ID NAME RUN_CNT RUN_NS": how
 * often the kernel ran it in the loop and for how long, less what
 * vg-bench's own reading of the statistics added (ID is the program's
 * id, NAME its name as the kernel keeps it, cut to 15 characters).
 *   vg-bench WORKLOAD N COMMAND [ARG...]
 * the same with a command as the workload: each operation runs COMMAND
 * (stdout to /dev/null) and waits for it, which must exit 0.
 *   vg-bench --empty-twins WORKLOAD N [COMMAND [ARG...]]
 * first attaches, beside each of verigate's programs, an empty one on the
 * same hook (an LSM program that returns 0; for a cgroup/sysctl program,
 * one that returns 1, allow, linked to the same cgroup, which the kernel
 * runs in the same list as an attachment with BPF_F_ALLOW_MULTI), then
 * runs the loop and prints "twinned_cost WORKLOAD N NS_TOTAL" (verigate's
 * programs), "twin_floor WORKLOAD N NS_TOTAL" (the empty ones) and for
 * each empty one "twin_runs WORKLOAD N ID RUN_CNT RUN_NS" (ID: the
 * verigate program it stands beside): what the statistics and the
 * dispatch cost a program that does nothing, counted in the same loop.
 * A program it cannot put an empty one beside (of another type, or a
 * cgroup program off the root cgroup or alone there) is left without
 * one: "twin_skip ID NAME WHY". Loading them is a bpf() command the guards
 * refuse when enforcing (then it exits 1) and log in audit mode.
 *   vg-bench --hooks
 * prints "prog_hook ID NAME TYPE HOOK" for each of verigate's programs:
 * the hook it is attached to (an LSM program's from the kernel's BTF:
 * file_open for bpf_lsm_file_open), or "-" where it has none to name.
 * Workloads:
 *   spawn-static   posix_spawn /bin/busybox true (a static program), wait
 *   spawn-dynamic  posix_spawn /bin/bpftool version (dynamic, several
 *                  shared libraries, each mapped PROT_EXEC), wait
 *   dlopen         dlopen and dlclose a shared library (RTLD_NOW|RTLD_LOCAL)
 *   mprotect       on anonymous memory: write, mprotect to PROT_READ|PROT_EXEC,
 *                  back to PROT_READ|PROT_WRITE (a JIT's pattern)
 *   open-read      open /bin/busybox for reading, close
 *   open-write     open /dev/null for writing, close
 *   stat           stat DEEP_PATH (4 components, on the verified root)
 *   open           open DEEP_PATH for reading, close
 *   ioctl          ioctl(TCGETS) on /dev/null, which is no tty: ENOTTY
 *                  from the driver, after the file_ioctl hook has run
 *   rename         create a file in /tmp, rename it, unlink it
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
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel_features.h"

extern char **environ;

#define DLOPEN_LIBRARY "libz.so.1"
/* A path of four components on the verified root: make bench puts
 * vg-bench itself there (run-in-guest --add). */
#define DEEP_PATH "/usr/local/bin/vg-bench"
#define RENAME_FROM "/tmp/vg-bench-rename.a"
#define RENAME_TO "/tmp/vg-bench-rename.b"

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

/* The command of a command workload (vg-bench WORKLOAD N COMMAND...). */
static char **command;

static int spawn_command(void)
{
	return spawn(command);
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

/* What a system does most: look a path up, open it, ioctl a file, and
 * create, rename and remove files. */
static int stat_deep(void)
{
	struct stat st;

	return stat(DEEP_PATH, &st);
}

static int open_deep(void)
{
	return open_close(DEEP_PATH, O_RDONLY);
}

static int ioctl_tty(void)
{
	static int fd = -1;
	char termios[256]; /* larger than any struct termios */

	if (fd < 0 && (fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (!ioctl(fd, TCGETS, termios))
		return 0;
	return errno == ENOTTY ? 0 : -1;
}

static int create_rename_unlink(void)
{
	int fd = open(RENAME_FROM, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0 || close(fd) || rename(RENAME_FROM, RENAME_TO) || unlink(RENAME_TO))
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

/* The empty programs' fds, for their statistics, the id of the verigate
 * program each stands beside, and their links' fds, which keep them
 * attached until vg-bench exits. */
static int twin_fds[PROGS_MAX];
static __u32 twin_of[PROGS_MAX];
static int twin_links[PROGS_MAX];
static int twin_count;

/* An empty program: r0 = ret; exit. */
static int load_empty(enum bpf_prog_type type, enum bpf_attach_type attach_type,
		      __u32 attach_btf_id, int ret)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = ret },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr load = {
		.prog_type = type,
		.expected_attach_type = attach_type,
		.attach_btf_id = attach_btf_id,
		.insns = (__u64)(unsigned long)insns,
		.insn_cnt = sizeof(insns) / sizeof(insns[0]),
		.license = (__u64)(unsigned long)"GPL",
		.prog_name = "empty_twin",
	};

	return sys_bpf(BPF_PROG_LOAD, &load);
}

/* An empty LSM program (return 0), attached to the hook of verigate's
 * program that info describes: its fd (its link's in *link), or -1. */
static int attach_empty_lsm(const struct bpf_prog_info *info, int *link)
{
	union bpf_attr attach = { 0 };
	int prog = load_empty(BPF_PROG_TYPE_LSM, BPF_LSM_MAC, info->attach_btf_id, 0);

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

/* The root of the cgroup v2 hierarchy: where it is mounted, or a mount of
 * it made here. */
static int cgroup_root(void)
{
	static const char dir[] = "/tmp/vg-bench-cgroup2";
	char line[512], path[256], type[64];
	FILE *f = fopen("/proc/self/mounts", "r");
	int fd;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %255s %63s", path, type) == 2 && !strcmp(type, "cgroup2")) {
			fclose(f);
			return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		}
	}
	if (f)
		fclose(f);
	if ((mkdir(dir, 0700) && errno != EEXIST) || mount("cgroup2", dir, "cgroup2", 0, NULL))
		return -1;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	umount2(dir, MNT_DETACH); /* the fd keeps the cgroup */
	rmdir(dir);
	return fd;
}

/* Whether the program id is attached to the cgroup cg for attach_type. */
static bool attached_to(int cg, enum bpf_attach_type attach_type, __u32 id)
{
	__u32 ids[PROGS_MAX];
	union bpf_attr query = { .query = { .target_fd = cg, .attach_type = attach_type,
					    .prog_ids = (__u64)(unsigned long)ids,
					    .prog_cnt = PROGS_MAX } };
	__u32 i;

	if (sys_bpf(BPF_PROG_QUERY, &query))
		return false;
	for (i = 0; i < query.query.prog_cnt && i < PROGS_MAX; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* An empty cgroup/sysctl program (return 1: allow), linked to the root
 * cgroup where verigate's program that info describes is attached: its
 * fd (its link's in *link), -1 on an error, -2 with *why set where it
 * cannot stand beside it (not on the root cgroup, or attached there in a
 * way that lets nothing else in: without BPF_F_ALLOW_MULTI). */
static int attach_empty_sysctl(const struct bpf_prog_info *info, int *link, const char **why)
{
	static char refused[128];
	union bpf_attr attach = { 0 };
	int cg = cgroup_root(), prog;

	if (cg < 0)
		return -1;
	if (!attached_to(cg, BPF_CGROUP_SYSCTL, info->id)) {
		close(cg);
		*why = "not attached to the root cgroup's sysctl hook";
		return -2;
	}
	prog = load_empty(BPF_PROG_TYPE_CGROUP_SYSCTL, BPF_CGROUP_SYSCTL, 0, 1);
	if (prog < 0) {
		close(cg);
		return -1;
	}
	attach.link_create.prog_fd = prog;
	attach.link_create.target_fd = cg;
	attach.link_create.attach_type = BPF_CGROUP_SYSCTL;
	*link = sys_bpf(BPF_LINK_CREATE, &attach);
	close(cg);
	if (*link < 0) {
		snprintf(refused, sizeof(refused), "the kernel linked no program beside it: %s",
			 strerror(errno));
		*why = refused;
		close(prog);
		return -2;
	}
	return prog;
}

/* A twin beside each of verigate's programs of a type there is an empty
 * twin for (the others: a "twin_skip" line); false if one failed or
 * there is none. */
static bool attach_empty_twins(void)
{
	int i;

	for (i = 0; i < prog_count; i++) {
		struct bpf_prog_info info;
		const char *why = NULL;
		int fd;

		if (prog_info(prog_fds[i], &info))
			return false;
		if (info.type == BPF_PROG_TYPE_LSM) {
			fd = attach_empty_lsm(&info, &twin_links[twin_count]);
		} else if (info.type == BPF_PROG_TYPE_CGROUP_SYSCTL) {
			fd = attach_empty_sysctl(&info, &twin_links[twin_count], &why);
		} else {
			fd = -2;
			why = "a program type vg-bench has no empty twin for";
		}
		if (fd == -2) {
			printf("twin_skip %u %s %s (type %u)\n", info.id, info.name, why, info.type);
			continue;
		}
		if (fd < 0) {
			fprintf(stderr, "vg-bench: cannot attach an empty program beside %s: %s\n",
				info.name, strerror(errno));
			return false;
		}
		twin_fds[twin_count] = fd;
		twin_of[twin_count++] = info.id;
	}
	if (!twin_count)
		fprintf(stderr, "vg-bench: verigate has no program here to stand beside\n");
	return twin_count > 0;
}

/* Each program's run_cnt and run_time_ns. */
struct runs {
	__u64 cnt, ns;
};

/* The statistics of the programs in fds, into runs; false if there are
 * none or the statistics are off (no program has run). */
static bool read_runs(const int *fds, int count, struct runs *runs)
{
	bool counted = false;
	int i;

	for (i = 0; i < count; i++) {
		struct bpf_prog_info info;

		if (prog_info(fds[i], &info))
			return false;
		runs[i].cnt = info.run_cnt;
		runs[i].ns = info.run_time_ns;
		counted |= info.run_cnt > 0;
	}
	return counted;
}

static unsigned long long total_ns(const struct runs *after, const struct runs *before, int count)
{
	unsigned long long ns = 0;
	int i;

	for (i = 0; i < count; i++)
		ns += after[i].ns - before[i].ns;
	return ns;
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
	{ "stat", stat_deep },
	{ "open", open_deep },
	{ "ioctl", ioctl_tty },
	{ "rename", create_rename_unlink },
};

/* A program's runs in the loop (after - before) less one reading's
 * (see run_workload), never below 0, as "RUN_CNT RUN_NS": no time where
 * no run is left. */
static void print_runs(const struct runs *after, const struct runs *before,
		       const struct runs *reading)
{
	__u64 cnt = after->cnt - before->cnt, ns = after->ns - before->ns;

	cnt = cnt > reading->cnt ? cnt - reading->cnt : 0;
	ns = cnt && ns > reading->ns ? ns - reading->ns : 0;
	printf(" %llu %llu\n", (unsigned long long)cnt, (unsigned long long)ns);
}

/* The loop, timed: "WORKLOAD N NS_PER_OP", and the counts the header
 * names. */
static int run_workload(const char *name, int (*run)(void), long n, bool twins)
{
	static struct runs before[PROGS_MAX], after[PROGS_MAX], reading[PROGS_MAX];
	static struct runs twins_before[PROGS_MAX], twins_after[PROGS_MAX], twins_reading[PROGS_MAX];
	struct timespec start, end;
	bool stats;
	long i;
	int p;

	open_verigate_progs();
	if (twins && !attach_empty_twins())
		return 1;
	/* Reading a program's statistics is a bpf() command, which guard_bpf
	 * sees: the runs of one reading of them all, before and after with
	 * nothing between, are taken out of the per-program counts (the sums,
	 * bpf_cost, twinned_cost and twin_floor, keep them, as they always
	 * did: a few calls per loop). Between the two readings before the
	 * loop, as between the last one and the one after it, each program
	 * and each twin is read once. */
	read_runs(prog_fds, prog_count, reading);
	if (twins)
		read_runs(twin_fds, twin_count, twins_reading);
	stats = read_runs(prog_fds, prog_count, before);
	/* (the twins may not have run yet: their sum is then 0, not "off") */
	if (twins)
		read_runs(twin_fds, twin_count, twins_before);
	for (p = 0; p < prog_count; p++) {
		reading[p].cnt = before[p].cnt - reading[p].cnt;
		reading[p].ns = before[p].ns - reading[p].ns;
	}
	for (p = 0; p < twin_count; p++) {
		twins_reading[p].cnt = twins_before[p].cnt - twins_reading[p].cnt;
		twins_reading[p].ns = twins_before[p].ns - twins_reading[p].ns;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (i = 0; i < n; i++) {
		if (run()) {
			fprintf(stderr, "vg-bench: %s failed at %ld: %s\n", name, i, strerror(errno));
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("%s %ld %.0f\n", name, n,
	       ((end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec)) / n);
	if (!stats || !read_runs(prog_fds, prog_count, after))
		return 0;
	if (!twins) {
		printf("bpf_cost %s %ld %llu\n", name, n, total_ns(after, before, prog_count));
		for (p = 0; p < prog_count; p++) {
			struct bpf_prog_info info;

			if (prog_info(prog_fds[p], &info))
				continue;
			printf("prog_runs %s %ld %u %s", name, n, info.id, info.name);
			print_runs(&after[p], &before[p], &reading[p]);
		}
		return 0;
	}
	read_runs(twin_fds, twin_count, twins_after);
	printf("twinned_cost %s %ld %llu\n", name, n, total_ns(after, before, prog_count));
	printf("twin_floor %s %ld %llu\n", name, n, total_ns(twins_after, twins_before, twin_count));
	for (p = 0; p < twin_count; p++) {
		printf("twin_runs %s %ld %u", name, n, twin_of[p]);
		print_runs(&twins_after[p], &twins_before[p], &twins_reading[p]);
	}
	return 0;
}

/* "prog_hook ID NAME TYPE HOOK" for each of verigate's programs. */
static int print_hooks(void)
{
	char err[256];
	size_t btf_size = 0;
	void *btf = vg_btf_read("/sys/kernel/btf/vmlinux", &btf_size, err, sizeof(err));
	int i;

	open_verigate_progs();
	for (i = 0; i < prog_count; i++) {
		struct bpf_prog_info info;
		const char *type, *hook = NULL;

		if (prog_info(prog_fds[i], &info))
			continue;
		switch (info.type) {
		case BPF_PROG_TYPE_LSM:
			type = "lsm";
			break;
		case BPF_PROG_TYPE_TRACING:
			type = "tracing";
			break;
		case BPF_PROG_TYPE_CGROUP_SYSCTL:
			type = "cgroup_sysctl";
			hook = "cgroup/sysctl";
			break;
		case BPF_PROG_TYPE_KPROBE:
			type = "kprobe";
			break;
		default:
			type = "other";
		}
		if (!hook && btf && info.attach_btf_id &&
		    (!info.attach_btf_obj_id || info.attach_btf_obj_id == 1))
			hook = vg_btf_type_name(btf, btf_size, info.attach_btf_id);
		if (hook && info.type == BPF_PROG_TYPE_LSM && !strncmp(hook, "bpf_lsm_", 8))
			hook += 8;
		printf("prog_hook %u %s %s %s\n", info.id, info.name, type, hook ? hook : "-");
	}
	free(btf);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: vg-bench [--empty-twins] WORKLOAD N [COMMAND [ARG...]]\n"
			"       vg-bench --hooks\n");
}

int main(int argc, char **argv)
{
	bool twins = argc > 1 && !strcmp(argv[1], "--empty-twins");
	int first = 1 + twins;
	long n;
	size_t w;

	if (argc == 2 && !strcmp(argv[1], "--hooks"))
		return print_hooks();
	if (argc < first + 2 || (n = atol(argv[first + 1])) <= 0) {
		usage();
		return 2;
	}
	if (argc > first + 2) {
		command = argv + first + 2;
		return run_workload(argv[first], spawn_command, n, twins);
	}
	for (w = 0; w < sizeof(workloads) / sizeof(workloads[0]); w++)
		if (!strcmp(argv[first], workloads[w].name))
			return run_workload(workloads[w].name, workloads[w].run, n, twins);
	fprintf(stderr, "vg-bench: unknown workload '%s'\n", argv[first]);
	return 2;
}
