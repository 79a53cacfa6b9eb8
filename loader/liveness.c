// SPDX-License-Identifier: GPL-2.0
/*
 * The proof that every attached program runs. A BPF LSM program can be
 * attached and still never be called: with kernel.ftrace_enabled=0 the
 * trampolines that call the programs are never patched into the hooks.
 * So before the loader reports the gate loaded, it makes each hook run
 * once and asks the kernel whether each program ran: the kernel counts
 * every program's runs while an fd from BPF_ENABLE_STATS is open, and
 * stops when it is closed, so nothing is left to cost anything later. A
 * program counts runs only from its attach (an iterator: when its pin is
 * read), so any count at all is a run; no count before the triggers is
 * needed.
 *
 * The triggers are things the gate allows at this moment: the initramfs
 * is still trusted and the guards stay passive until the real init runs.
 * Each is chosen so that its outcome only comes after its hook was called
 * (an exec that fails with ENOEXEC got past bprm_check_security): a
 * program whose hook was reached and which did not run is one the kernel
 * does not call, and the proof fails. A trigger with another outcome (an
 * earlier LSM refused it, the kernel lacks the feature) leaves the program
 * "not probed", with the reason, as do the hooks no trigger reaches. The
 * triggers go by hook, not by program: every program on a hook runs when
 * the hook does, so a new program on a known hook is probed, and one on
 * another hook is reported as not probed.
 */
#include "liveness.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "append.h"
#include "elapsed.h"
#include "kernel_switches.h"
#include "program_choice.h"

/* A private directory in the initramfs' own filesystem, whose files the
 * exec gate allows until the real init runs (a tmpfs such as /run is
 * not the initramfs). */
#define PROBE_DIR_TEMPLATE "/.verigate-liveness.XXXXXX"
#define PROBE_FILE "program"
/* Printable, so that the kernel asks for no binfmt module when no binary
 * format claims it, and no format's magic. */
#define PROBE_CONTENT "verigate liveness probe: not a program\n"
/* A sysfs attribute: its inode says a page, a read yields a few bytes. */
#define SHORT_SYSFS_FILE "/sys/kernel/uevent_seqnum"
#define ELF_HEADER_SIZE 64 /* a shorter buffer fails before the hook */
#define I386_NR_IOCTL 54
#ifndef AT_EXECVE_CHECK
#define AT_EXECVE_CHECK 0x10000 /* linux/fcntl.h, 6.14+ */
#endif

enum hook {
	H_BPRM_CHECK,
	H_BPRM_CREDS_FOR_EXEC,
	H_MMAP_FILE,
	H_FILE_MPROTECT,
	H_FILE_OPEN,
	H_FILE_IOCTL,
	H_FILE_IOCTL_COMPAT,
	H_INODE_RENAME,
	H_INODE_UNLINK,
	H_INODE_RMDIR,
	H_SB_MOUNT,
	H_MOVE_MOUNT,
	H_SB_UMOUNT,
	H_BPF,
	H_BPF_MAP,
	H_BPF_PROG,
	H_KERNEL_READ_FILE,
	H_KERNEL_LOAD_DATA,
	H_LOCKED_DOWN,
	H_PTRACE_ACCESS_CHECK,
	H_PTRACE_TRACEME,
	H_BDEV_SETINTEGRITY,
	H_BDEV_FREE_SECURITY,
	H_SYSCTL,
	H_COUNT,
	H_UNKNOWN = H_COUNT,
};

#define BIT(h) (1u << (h))
_Static_assert(H_COUNT <= 32, "a hook set fits in an unsigned int");

/* Every hook the proof knows (those no trigger reaches are in
 * program_choice.c, which verigatectl shares). */
static const char *const hooks[H_COUNT] = {
	[H_BPRM_CHECK] = "bprm_check_security",
	[H_BPRM_CREDS_FOR_EXEC] = "bprm_creds_for_exec",
	[H_MMAP_FILE] = "mmap_file",
	[H_FILE_MPROTECT] = "file_mprotect",
	[H_FILE_OPEN] = "file_open",
	[H_FILE_IOCTL] = "file_ioctl",
	[H_FILE_IOCTL_COMPAT] = "file_ioctl_compat",
	[H_INODE_RENAME] = "inode_rename",
	[H_INODE_UNLINK] = "inode_unlink",
	[H_INODE_RMDIR] = "inode_rmdir",
	[H_SB_MOUNT] = "sb_mount",
	[H_MOVE_MOUNT] = "move_mount",
	[H_SB_UMOUNT] = "sb_umount",
	[H_BPF] = "bpf",
	[H_BPF_MAP] = "bpf_map",
	[H_BPF_PROG] = "bpf_prog",
	[H_KERNEL_READ_FILE] = "kernel_read_file",
	[H_KERNEL_LOAD_DATA] = "kernel_load_data",
	[H_LOCKED_DOWN] = "locked_down",
	[H_PTRACE_ACCESS_CHECK] = "ptrace_access_check",
	[H_PTRACE_TRACEME] = "ptrace_traceme",
	[H_BDEV_SETINTEGRITY] = "bdev_setintegrity",
	[H_BDEV_FREE_SECURITY] = "bdev_free_security",
	[H_SYSCTL] = "sysctl", /* cgroup/sysctl, on the root cgroup */
};

/* Whether a trigger got past a hook, and if not, why not. */
struct outcome {
	bool reached;
	char why[96];
};

struct probe {
	const char *pin_dir;
	__u32 prog_id, map_id; /* verigate's own, for the BPF triggers */
	char dir[sizeof(PROBE_DIR_TEMPLATE)];
	int dir_fd;
	unsigned int wanted; /* the hooks of the attached programs */
	struct outcome out[H_COUNT];
};

/* An attached program. */
struct prog_run {
	const char *name, *hook;
	enum hook id; /* H_UNKNOWN for a hook the proof does not know */
	bool view; /* an iterator: runs when its pin is read */
	int fd, view_err;
};

/* 0 if a call that returned rc got past its hook: it succeeded, or failed
 * with the error (expect) that only comes after the hook; else why not. */
static int past_hook(long rc, int expect)
{
	return rc >= 0 || (expect && errno == expect) ? 0 : errno;
}

/* What a call that runs hook h came to (err from past_hook). */
static void note(struct probe *p, enum hook h, int err, const char *call)
{
	struct outcome *o = &p->out[h];

	if (!err)
		o->reached = true;
	else if (!o->why[0])
		snprintf(o->why, sizeof(o->why), "%s: %s", call, strerror(err));
}

static void skip(struct probe *p, enum hook h, const char *why)
{
	snprintf(p->out[h].why, sizeof(p->out[h].why), "%s", why);
}

static void path_in(const struct probe *p, const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", p->dir, name);
}

/* Open, map executable, mprotect and ioctl the initramfs file. */
static void trigger_file(struct probe *p)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = openat(p->dir_fd, PROBE_FILE, O_RDONLY | O_CLOEXEC);
	int err = past_hook(fd, 0);
	void *map;

	note(p, H_FILE_OPEN, err, "open");
	if (fd < 0)
		return;
	map = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	note(p, H_MMAP_FILE, map == MAP_FAILED ? errno : 0, "mmap");
	if (map != MAP_FAILED) {
		/* Dropping PROT_EXEC, which no gate refuses. */
		note(p, H_FILE_MPROTECT, past_hook(mprotect(map, page, PROT_READ), 0), "mprotect");
		munmap(map, page);
	}
	note(p, H_FILE_IOCTL, past_hook(ioctl(fd, FIOCLEX), 0), "ioctl");
	close(fd);
}

/* bprm_check_security comes before the search for a binary format: an
 * exec of a file that no format claims fails with ENOEXEC after the hook,
 * before the point of no return, and the loader goes on. An exec with
 * AT_EXECVE_CHECK (6.14+) returns after bprm_creds_for_exec, with 0 for
 * a file the gate allows: the process stays what it is. */
static void trigger_exec(struct probe *p)
{
	char path[sizeof(p->dir) + sizeof(PROBE_FILE)];
	char *const argv[] = { path, NULL }, *const envp[] = { NULL };

	path_in(p, PROBE_FILE, path, sizeof(path));
	note(p, H_BPRM_CHECK, past_hook(execve(path, argv, envp), ENOEXEC), "execve");
	note(p, H_BPRM_CREDS_FOR_EXEC,
	     past_hook(syscall(SYS_execveat, AT_FDCWD, path, argv, envp, AT_EXECVE_CHECK), 0),
	     "execveat AT_EXECVE_CHECK");
}

/* A rename, an unlink and an rmdir in the private directory. */
static void trigger_names(struct probe *p)
{
	int fd = openat(p->dir_fd, "a", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd >= 0)
		close(fd);
	note(p, H_INODE_RENAME, past_hook(renameat(p->dir_fd, "a", p->dir_fd, "b"), 0), "rename");
	note(p, H_INODE_UNLINK, past_hook(unlinkat(p->dir_fd, "b", 0), 0), "unlink");
	if (mkdirat(p->dir_fd, "d", 0700))
		note(p, H_INODE_RMDIR, errno, "mkdir");
	else
		note(p, H_INODE_RMDIR, past_hook(unlinkat(p->dir_fd, "d", AT_REMOVEDIR), 0), "rmdir");
}

/*
 * A bind mount of a directory onto itself, and its unmount. move_mount of
 * a directory that is no mount's root fails with EINVAL after its hook,
 * which comes before any check of what is moved: nothing moves.
 */
static void trigger_mounts(struct probe *p)
{
	char path[sizeof(p->dir) + 2];
	int rc;

	path_in(p, "m", path, sizeof(path));
	if (mkdirat(p->dir_fd, "m", 0700)) {
		note(p, H_SB_MOUNT, errno, "mkdir");
		return;
	}
	note(p, H_MOVE_MOUNT, past_hook(move_mount(AT_FDCWD, path, AT_FDCWD, path, 0), EINVAL),
	     "move_mount");
	rc = mount(path, path, NULL, MS_BIND, NULL);
	note(p, H_SB_MOUNT, past_hook(rc, 0), "mount");
	if (rc)
		return;
	rc = umount2(path, 0);
	note(p, H_SB_UMOUNT, past_hook(rc, 0), "umount");
	if (rc)
		umount2(path, MNT_DETACH);
}

/* verigate's own program and map, by ID: the bpf hook, then bpf_prog and
 * bpf_map as the kernel makes each fd. */
static void trigger_bpf(struct probe *p)
{
	int fd = bpf_prog_get_fd_by_id(p->prog_id);
	int err = past_hook(fd, 0);

	note(p, H_BPF, err, "BPF_PROG_GET_FD_BY_ID");
	note(p, H_BPF_PROG, err, "BPF_PROG_GET_FD_BY_ID");
	if (fd >= 0)
		close(fd);
	fd = bpf_map_get_fd_by_id(p->map_id);
	note(p, H_BPF_MAP, past_hook(fd, 0), "BPF_MAP_GET_FD_BY_ID");
	if (fd >= 0)
		close(fd);
}

/*
 * Neither trigger loads, logs or changes anything. finit_module of a sysfs
 * attribute: the kernel asks kernel_read_file, then reads fewer bytes than
 * the inode's size (a page) and stops with EIO, before the module loader.
 * init_module of a buffer the kernel cannot read: kernel_load_data is
 * asked, then the copy fails with EFAULT. Where loadpin is active, the
 * first read would make sysfs the only filesystem modules may come from,
 * so neither is made.
 */
static void trigger_modules(struct probe *p)
{
	char lsm_list[512];
	int fd;

	if (vg_lsm_active("loadpin", lsm_list, sizeof(lsm_list))) {
		skip(p, H_KERNEL_READ_FILE, "loadpin is active: a read would pin its filesystem");
		skip(p, H_KERNEL_LOAD_DATA, "loadpin is active: it refuses module buffers first");
		return;
	}
	fd = open(SHORT_SYSFS_FILE, O_RDONLY | O_CLOEXEC);
	note(p, H_KERNEL_READ_FILE, past_hook(fd, 0), "open " SHORT_SYSFS_FILE);
	if (fd >= 0) {
		note(p, H_KERNEL_READ_FILE, past_hook(syscall(SYS_finit_module, fd, "", 0), EIO),
		     "finit_module");
		close(fd);
	}
	note(p, H_KERNEL_LOAD_DATA,
	     past_hook(syscall(SYS_init_module, NULL, (unsigned long)ELF_HEADER_SIZE, ""), EFAULT),
	     "init_module");
}

/* Opening /dev/mem (or, without it, /proc/kcore) asks locked_down first;
 * nothing is read. */
static void trigger_lockdown(struct probe *p)
{
	int fd = open("/dev/mem", O_RDONLY | O_CLOEXEC);
	const char *call = "open /dev/mem";

	if (fd < 0 && errno == ENOENT) {
		fd = open("/proc/kcore", O_RDONLY | O_CLOEXEC);
		call = "open /proc/kcore";
	}
	note(p, H_LOCKED_DOWN, past_hook(fd, 0), call);
	if (fd >= 0)
		close(fd);
}

/* Opening another process's environ asks ptrace_access_check in read mode
 * (a process's own is not checked): the parent's, which waits for us. */
static void trigger_ptrace(struct probe *p)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)getppid());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	note(p, H_PTRACE_ACCESS_CHECK, past_hook(fd, 0), "open /proc/PARENT/environ");
	if (fd >= 0)
		close(fd);
}

#ifdef __x86_64__
static sigjmp_buf compat_fault;

static void on_compat_fault(int sig)
{
	(void)sig;
	siglongjmp(compat_fault, 1);
}

/* ioctl(fd, FIOCLEX) through the 32-bit system call gate, int $0x80: 0
 * or an errno. Not inlined: nothing of it lives across the sigsetjmp. */
__attribute__((noinline)) static int compat_fioclex(int fd)
{
	long ret = I386_NR_IOCTL;

	__asm__ volatile("int $0x80"
			 : "+a"(ret)
			 : "b"(fd), "c"(FIOCLEX), "d"(0)
			 : "memory", "r8", "r9", "r10", "r11");
	return ret < 0 ? (int)-ret : 0;
}

/*
 * A 32-bit ioctl asks file_ioctl_compat. Where the kernel runs no 32-bit
 * system calls (ia32_emulation=0), int $0x80 faults: the fault is caught
 * here (so the kernel logs nothing either) and the hook is not probed.
 */
static void trigger_ioctl_compat(struct probe *p)
{
	struct sigaction catch = { .sa_handler = on_compat_fault }, saved;

	sigaction(SIGSEGV, &catch, &saved);
	if (!sigsetjmp(compat_fault, 1))
		note(p, H_FILE_IOCTL_COMPAT, compat_fioclex(p->dir_fd), "32-bit ioctl");
	else
		skip(p, H_FILE_IOCTL_COMPAT, "int $0x80 faults: no 32-bit system calls (ia32_emulation=0?)");
	sigaction(SIGSEGV, &saved, NULL);
}
#else
static void trigger_ioctl_compat(struct probe *p)
{
	skip(p, H_FILE_IOCTL_COMPAT, "needs a 32-bit system call, made only on x86-64");
}
#endif

/* A sysctl read runs the root cgroup's sysctl programs first. */
static void trigger_sysctl(struct probe *p)
{
	char buf[16];
	int fd = open(VG_FTRACE_ENABLED, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		note(p, H_SYSCTL, errno, "open " VG_FTRACE_ENABLED);
		return;
	}
	note(p, H_SYSCTL, past_hook(read(fd, buf, sizeof(buf)), 0), "read " VG_FTRACE_ENABLED);
	close(fd);
}

/* Each trigger, and the hooks it reaches: it is made if one of them has
 * an attached program. */
static const struct {
	void (*run)(struct probe *p);
	unsigned int hooks;
} triggers[] = {
	{ trigger_file, BIT(H_FILE_OPEN) | BIT(H_MMAP_FILE) | BIT(H_FILE_MPROTECT) | BIT(H_FILE_IOCTL) },
	{ trigger_exec, BIT(H_BPRM_CHECK) | BIT(H_BPRM_CREDS_FOR_EXEC) },
	{ trigger_names, BIT(H_INODE_RENAME) | BIT(H_INODE_UNLINK) | BIT(H_INODE_RMDIR) },
	{ trigger_mounts, BIT(H_SB_MOUNT) | BIT(H_MOVE_MOUNT) | BIT(H_SB_UMOUNT) },
	{ trigger_bpf, BIT(H_BPF) | BIT(H_BPF_PROG) | BIT(H_BPF_MAP) },
	{ trigger_modules, BIT(H_KERNEL_READ_FILE) | BIT(H_KERNEL_LOAD_DATA) },
	{ trigger_lockdown, BIT(H_LOCKED_DOWN) },
	{ trigger_ptrace, BIT(H_PTRACE_ACCESS_CHECK) },
	{ trigger_ioctl_compat, BIT(H_FILE_IOCTL_COMPAT) },
	{ trigger_sysctl, BIT(H_SYSCTL) },
};

/* Reading a view runs its iterator. */
static int read_view(const char *pin_dir, const char *name)
{
	char path[256], buf[4096];
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", pin_dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	err = n < 0 ? errno : 0;
	close(fd);
	return err;
}

/* Remove what the triggers may have left (their mount is gone). */
static int remove_probe_dir(struct probe *p, char *err, size_t errlen)
{
	static const char *const files[] = { PROBE_FILE, "a", "b" }, *const dirs[] = { "d", "m" };
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		unlinkat(p->dir_fd, files[i], 0);
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		unlinkat(p->dir_fd, dirs[i], AT_REMOVEDIR);
	close(p->dir_fd);
	if (rmdir(p->dir)) {
		snprintf(err, errlen, "remove %s after the proof that the programs run: %s", p->dir,
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* The private directory, and in it the file to open, map and execute. */
static int make_probe_dir(struct probe *p, char *err, size_t errlen)
{
	static const char content[] = PROBE_CONTENT;
	ssize_t len = sizeof(content) - 1;
	char ignored[128];
	bool written;
	int fd, saved;

	memcpy(p->dir, PROBE_DIR_TEMPLATE, sizeof(p->dir));
	if (!mkdtemp(p->dir)) {
		snprintf(err, errlen, "make %s for the proof that the programs run: %s", p->dir,
			 strerror(errno));
		return -1;
	}
	p->dir_fd = open(p->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = p->dir_fd < 0 ? -1 :
		openat(p->dir_fd, PROBE_FILE, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
	written = fd >= 0 && write(fd, content, len) == len;
	saved = errno;
	if (fd >= 0)
		close(fd);
	if (written)
		return 0;
	snprintf(err, errlen, "write %s/%s for the proof that the programs run: %s", p->dir,
		 PROBE_FILE, strerror(saved));
	if (p->dir_fd < 0)
		rmdir(p->dir);
	else
		remove_probe_dir(p, ignored, sizeof(ignored));
	return -1;
}

static int run_count(int fd, __u64 *count)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -1;
	*count = info.run_cnt;
	return 0;
}

static enum hook hook_id(const char *hook)
{
	int h;

	for (h = 0; h < H_COUNT; h++)
		if (!strcmp(hooks[h], hook))
			return h;
	return H_UNKNOWN;
}

/* The attached programs and their hooks (from "lsm/HOOK"). */
static int collect(const struct bpf_object *obj, struct prog_run *runs, int *count,
		   unsigned int *wanted, char *err, size_t errlen)
{
	struct bpf_program *prog;
	int n = 0;

	bpf_object__for_each_program(prog, obj) {
		struct prog_run *r = &runs[n];

		if (!bpf_program__autoload(prog))
			continue;
		if (n == VG_PROGS_MAX) {
			snprintf(err, errlen, "too many programs");
			return -1;
		}
		r->name = bpf_program__name(prog);
		r->view = vg_program_is_view(prog);
		r->hook = vg_program_hook(prog);
		r->id = r->view ? H_UNKNOWN : hook_id(r->hook);
		r->fd = bpf_program__fd(prog);
		if (r->id != H_UNKNOWN)
			*wanted |= BIT(r->id);
		n++;
	}
	*count = n;
	return 0;
}

static void trigger(struct probe *p, struct prog_run *runs, int count)
{
	size_t t;
	int i;

	for (t = 0; t < sizeof(triggers) / sizeof(triggers[0]); t++)
		if (triggers[t].hooks & p->wanted)
			triggers[t].run(p);
	for (i = 0; i < count; i++)
		if (runs[i].view)
			runs[i].view_err = read_view(p->pin_dir, runs[i].name);
}

/* Why a program that did not run was not made to, or NULL: it was, and
 * did not run. */
static const char *not_probed(const struct probe *p, const struct prog_run *r, char *buf,
			      size_t len)
{
	const char *why;

	if (r->view) {
		if (!r->view_err)
			return NULL;
		snprintf(buf, len, "read: %s", strerror(r->view_err));
		return buf;
	}
	if (r->id == H_UNKNOWN)
		return "no trigger for this hook";
	if ((why = vg_hook_unprovable(r->hook)))
		return why;
	if (p->out[r->id].reached)
		return NULL;
	return p->out[r->id].why[0] ? p->out[r->id].why : "its trigger stopped before it";
}

/* Why programs would attach and never run. */
static const char *likely_cause(int dead)
{
	if (!vg_ftrace_patching_on())
		return "kernel.ftrace_enabled is 0 (sysctl.kernel.ftrace_enabled=0 on the command line?)";
	return dead > 1 ? "the kernel does not call them" : "the kernel does not call it";
}

/* Sort the programs into those that ran, those not probed and those that
 * did not run although made to; -1 if there are any of the last. */
static int judge(const struct probe *p, const struct prog_run *runs, int count,
		 struct vg_policy_report *report, char *err, size_t errlen)
{
	char why[128], first[160] = "", others[512] = "";
	size_t used = 0, others_used = 0;
	const struct prog_run *r;
	const char *reason;
	int i, dead = 0;
	__u64 runs_seen;

	for (i = 0; i < count; i++) {
		r = &runs[i];
		if (run_count(r->fd, &runs_seen)) {
			snprintf(err, errlen, "run count of %s: %s", r->name, strerror(errno));
			return -1;
		}
		if (runs_seen) {
			report->live_count++;
		} else if ((reason = not_probed(p, r, why, sizeof(why)))) {
			vg_append(report->unprobed, sizeof(report->unprobed), &used, "%s%s (%s): %s",
			       used ? "; " : "", r->name, r->hook, reason);
			report->unprobed_count++;
		} else if (!dead++) {
			snprintf(first, sizeof(first), "%s (%s)", r->name, r->hook);
		} else {
			vg_append(others, sizeof(others), &others_used, "%s%s (%s)",
			       others_used ? ", " : "", r->name, r->hook);
		}
	}
	if (dead == 1)
		snprintf(err, errlen, "%s attached but never ran: %s", first, likely_cause(dead));
	else if (dead)
		snprintf(err, errlen, "%s and %d more attached but never ran: %s; the others: %s",
			 first, dead - 1, likely_cause(dead), others);
	return dead ? -1 : 0;
}

int vg_liveness_prove(const struct bpf_object *obj, const char *pin_dir, __u32 initramfs_dev,
		      struct vg_policy_report *report, char *err, size_t errlen)
{
	struct probe p = { .pin_dir = pin_dir, .prog_id = report->prog_ids[0],
			   .map_id = report->map_ids[0] };
	struct prog_run runs[VG_PROGS_MAX];
	struct timespec start, end;
	int count, stats_fd, rc = -1;
	struct stat root;

	clock_gettime(CLOCK_MONOTONIC, &start);
	/* The file triggers need the initramfs' files, trusted until the
	 * real init runs: elsewhere (a test install in the real root) the
	 * gate being installed, or one already running, would refuse them. */
	if (stat("/", &root) || vg_kernel_dev(root.st_dev) != initramfs_dev) {
		report->unprobed_count = report->count;
		snprintf(report->unprobed, sizeof(report->unprobed),
			 "all: the proof runs from the initramfs only");
		return 0;
	}
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0) {
		snprintf(err, errlen, "count the programs' runs (BPF_ENABLE_STATS): %s",
			 strerror(errno));
		return -1;
	}
	if (!collect(obj, runs, &count, &p.wanted, err, errlen) &&
	    !make_probe_dir(&p, err, errlen)) {
		trigger(&p, runs, count);
		rc = remove_probe_dir(&p, err, errlen) ? -1 :
			judge(&p, runs, count, report, err, errlen);
	}
	close(stats_fd);
	clock_gettime(CLOCK_MONOTONIC, &end);
	report->live_us = vg_us_between(&start, &end);
	return rc;
}
