// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE /* memfd_create, pipe2 */
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* 6.3+: keep the memfd executable even where vm.memfd_noexec asks for
 * sealed ones by default; older kernels refuse the flag (EINVAL). */
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

/* 6.14+: execveat only asks whether the file may run (include/uapi/linux/fcntl.h). */
#ifndef AT_EXECVE_CHECK
#define AT_EXECVE_CHECK 0x10000
#endif

/* The pin of the exec gate's link: the guards refuse an fd for it. */
#define GUARDED_PIN "verigate_exec"

static void probe_not_refused(struct vg_probe *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void probe_not_refused(struct vg_probe *p, const char *fmt, ...)
{
	va_list ap;

	p->outcome = VG_PROBE_NOT_REFUSED;
	va_start(ap, fmt);
	vsnprintf(p->what, sizeof(p->what), fmt, ap);
	va_end(ap);
}

static void probe_error(struct vg_probe *p, const char *what, int err)
{
	p->outcome = VG_PROBE_ERROR;
	snprintf(p->what, sizeof(p->what), "%s: %s", what, strerror(err));
}

/* A call that must fail failed with err: refused, or the probe not made. */
static void probe_failed_with(struct vg_probe *p, const char *what, int err)
{
	if (err == EPERM || err == EACCES) {
		p->outcome = VG_PROBE_REFUSED;
		p->err = err;
	} else {
		probe_error(p, what, err);
	}
}

static int copy_file(int from, int to)
{
	char buf[65536];
	ssize_t n, done, w;

	while ((n = read(from, buf, sizeof(buf))) > 0) {
		for (done = 0; done < n; done += w) {
			w = write(to, buf + done, n - done);
			if (w < 0)
				return -1;
		}
	}
	return n < 0 ? -1 : 0;
}

/* A memfd copy of this program, or -1 with errno and *what set. */
static int copy_self(const char **what)
{
	int file, exe, err;

	*what = "memfd_create";
	file = memfd_create("verigate-check", MFD_CLOEXEC | MFD_EXEC);
	if (file < 0 && errno == EINVAL)
		file = memfd_create("verigate-check", MFD_CLOEXEC);
	if (file < 0)
		return -1;
	*what = "/proc/self/exe";
	exe = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (exe >= 0) {
		*what = "copying /proc/self/exe";
		if (!copy_file(exe, file)) {
			close(exe);
			return file;
		}
	}
	err = errno;
	if (exe >= 0)
		close(exe);
	close(file);
	errno = err;
	return -1;
}

/* A memfd is a file on the kernel's internal tmpfs, which verigate must
 * refuse to execute or map executable; verigatectl itself is the content,
 * so that the exec probe, if let through, runs something harmless. */
void vg_check_target_open(struct vg_check_target *t, const char *dir, bool execve_check)
{
	const char *what;

	t->dir = dir;
	t->execve_check = execve_check;
	t->file = copy_self(&what);
	if (t->file < 0)
		snprintf(t->file_err, sizeof(t->file_err), "%s: %s", what, strerror(errno));
}

void vg_check_target_close(struct vg_check_target *t)
{
	if (t->file >= 0)
		close(t->file);
	t->file = -1;
}

/* The exec and mmap probes need the copy. */
static bool have_file(struct vg_probe *p, const struct vg_check_target *t)
{
	if (t->file >= 0)
		return true;
	p->outcome = VG_PROBE_ERROR;
	snprintf(p->what, sizeof(p->what), "%s", t->file_err);
	return false;
}

/* The child: fexecve the copy. If that fails, its errno goes through the
 * pipe; if it succeeds, the pipe closes (O_CLOEXEC) with nothing in it. */
static void exec_child(int file, int report)
{
	char *const argv[] = { "verigatectl", VG_CHECK_RAN_ARG, NULL };
	char *const envp[] = { NULL };
	int err;

	fexecve(file, argv, envp);
	err = errno;
	_exit(write(report, &err, sizeof(err)) == (ssize_t)sizeof(err) ? 126 : 127);
}

/* What became of a child whose exec succeeded. */
static void describe_run(struct vg_probe *p, int status)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == VG_CHECK_RAN_STATUS)
		probe_not_refused(p, "the memfd copy ran");
	else if (WIFSIGNALED(status))
		probe_not_refused(p, "fexecve of the memfd copy succeeded, then it was killed by signal %d",
				  WTERMSIG(status));
	else
		probe_not_refused(p, "fexecve of the memfd copy succeeded, then it exited with %d",
				  WEXITSTATUS(status));
}

/* The child's errno (> 0), 0 if its exec succeeded, or -1 with errno. */
static int child_report(int report, pid_t pid, int *status)
{
	ssize_t n;
	int err;

	do
		n = read(report, &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		err = errno;
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (n == (ssize_t)sizeof(err))
		return err;
	if (!n)
		return 0;
	errno = n < 0 ? err : EIO;
	return -1;
}

static void probe_exec(struct vg_probe *p, const struct vg_check_target *t)
{
	int pipefd[2], err, status;
	pid_t pid;

	if (!have_file(p, t))
		return;
	if (pipe2(pipefd, O_CLOEXEC)) {
		probe_error(p, "pipe2", errno);
		return;
	}
	pid = fork();
	if (!pid)
		exec_child(t->file, pipefd[1]);
	if (pid < 0) {
		err = errno;
		close(pipefd[0]);
		close(pipefd[1]);
		probe_error(p, "fork", err);
		return;
	}
	close(pipefd[1]);
	err = child_report(pipefd[0], pid, &status);
	close(pipefd[0]);
	if (err > 0)
		probe_failed_with(p, "fexecve", err);
	else if (!err)
		describe_run(p, status);
	else
		probe_error(p, "waiting for the child", errno);
}

/* The question an interpreter asks before it runs a script (AT_EXECVE_CHECK):
 * the answer must be a real exec's. Where the kernel has no such flag it
 * refuses it (EINVAL), which is no probe, unless the loader found it. */
static void probe_exec_check(struct vg_probe *p, const struct vg_check_target *t)
{
	char *const argv[] = { "verigatectl", NULL };
	char *const envp[] = { NULL };
	int err;

	if (!have_file(p, t))
		return;
	if (!syscall(SYS_execveat, t->file, "", argv, envp, AT_EMPTY_PATH | AT_EXECVE_CHECK)) {
		probe_not_refused(p, "execveat(AT_EXECVE_CHECK) said the memfd copy may run%s",
				  t->execve_check ? "" : ", and the loader found no AT_EXECVE_CHECK here");
		return;
	}
	err = errno;
	if (err == EINVAL && !t->execve_check) {
		p->outcome = VG_PROBE_NOT_APPLICABLE;
		snprintf(p->what, sizeof(p->what), "this kernel has no AT_EXECVE_CHECK (6.14+)");
		return;
	}
	probe_failed_with(p, "execveat(AT_EXECVE_CHECK)", err);
}

static void probe_mmap(struct vg_probe *p, const struct vg_check_target *t)
{
	size_t len = (size_t)sysconf(_SC_PAGESIZE);
	void *addr;

	if (!have_file(p, t))
		return;
	addr = mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_PRIVATE, t->file, 0);
	if (addr == MAP_FAILED) {
		probe_failed_with(p, "mmap", errno);
		return;
	}
	munmap(addr, len);
	probe_not_refused(p, "the memfd copy was mapped executable");
}

/* Where the last max characters of s begin. */
static size_t tail_at(const char *s, size_t max)
{
	size_t len = strlen(s);

	return len > max ? len - max : 0;
}

/* The ID of the link pinned at path (an fd for a pinned link is harmless,
 * and not guarded: guard_removals.bpf.c), or 0 with errno set. */
static __u32 pinned_link_id(const char *path)
{
	struct bpf_link_info info;
	union bpf_attr attr;
	int fd, err;

	memset(&attr, 0, sizeof(attr));
	attr.pathname = (uint64_t)(uintptr_t)path;
	fd = syscall(SYS_bpf, BPF_OBJ_GET, &attr, sizeof(attr));
	if (fd < 0)
		return 0;
	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uint64_t)(uintptr_t)&info;
	err = syscall(SYS_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)) ? errno : 0;
	close(fd);
	errno = err;
	return err ? 0 : info.id;
}

/* BPF_LINK_GET_FD_BY_ID of the exec gate's link: it needs no BPF object
 * of its own, and loads nothing. */
static void probe_guard(struct vg_probe *p, const struct vg_check_target *t)
{
	char path[4096], what[256];
	union bpf_attr attr;
	__u32 id;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", t->dir, GUARDED_PIN);
	id = pinned_link_id(path);
	if (!id) {
		/* The messages keep the path's end, where its name is. */
		snprintf(what, sizeof(what), "the link pinned at %s", path + tail_at(path, 200));
		probe_error(p, what, errno);
		return;
	}
	snprintf(what, sizeof(what), "BPF_LINK_GET_FD_BY_ID of the exec gate's link (ID %u)", id);
	memset(&attr, 0, sizeof(attr));
	attr.link_id = id;
	fd = syscall(SYS_bpf, BPF_LINK_GET_FD_BY_ID, &attr, sizeof(attr));
	if (fd >= 0) {
		close(fd);
		probe_not_refused(p, "%s gave an fd", what);
		return;
	}
	probe_failed_with(p, what, errno);
}

const struct vg_probe_def vg_probe_defs[VG_PROBES] = {
	{ "exec", probe_exec },
	{ "exec_check", probe_exec_check },
	{ "mmap", probe_mmap },
	{ "guard", probe_guard },
};
