// SPDX-License-Identifier: GPL-2.0
/*
 * vg-try: attempt one way of running code and report what the kernel said.
 *   vg-try exec PATH            execve PATH (on success PATH's output follows)
 *   vg-try memfd-exec PATH      copy PATH into a memfd, fexecve it
 *   vg-try execveat PATH        open PATH O_PATH, execveat(fd, "", AT_EMPTY_PATH)
 *   vg-try exec-deleted PATH    open PATH, unlink it, execve /proc/self/fd/N
 *   vg-try mmap-exec PATH|-     mmap PATH (or anonymous memory) PROT_EXEC
 *   vg-try mprotect-exec PATH|- map PROT_READ, then mprotect to PROT_EXEC
 *   vg-try mmap-wx PATH         mmap PATH private, writable and executable
 *   vg-try cow-mprotect PATH    map PATH private writable, write a byte (a
 *                               copied page), then mprotect to PROT_EXEC
 *   vg-try wx-mprotect PATH     map PATH private PROT_READ|PROT_EXEC, mprotect it
 *                               writable and executable before any write, copy
 *                               code into it and call it
 *   vg-try read-implies-exec PATH
 *                               with personality READ_IMPLIES_EXEC, mmap PATH
 *                               PROT_READ (the kernel adds PROT_EXEC)
 *   vg-try read-implies-exec-mprotect PATH
 *                               the same, by mprotect(PROT_READ) of a
 *                               PROT_NONE mapping
 *   vg-try shm-exec             write code into a System V shared memory
 *                               segment, attach it again with SHM_EXEC, call it
 *   vg-try shm-mprotect         the same, by mprotect(PROT_EXEC) of the
 *                               writable attachment
 *   vg-try hold-pin PATH SECS   BPF_OBJ_GET a bpffs pin, keep the fd SECS seconds
 *   vg-try hold-map SECS        create a BPF map, print its ID, keep the fd
 *   vg-try exec-flood N PATH    execve PATH N times in a row; for a PATH that
 *                               is refused: "refused N of N with EPERM in MS ms"
 *   vg-try exec-as NAME PATH    set this process's comm to NAME
 *                               (PR_SET_NAME), then execve PATH
 * Prints "allowed" (exit 0) or "denied errno=NAME" (exit 1); 2 on misuse.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "outcome.h"

extern char **environ;

static int setup_error(const char *what)
{
	fprintf(stderr, "vg-try: %s: %s\n", what, strerror(errno));
	return 2;
}

static int try_exec(const char *path)
{
	char *argv[] = { (char *)path, NULL };

	fflush(stdout);
	execve(path, argv, environ);
	return denied("execve");
}

static int try_memfd_exec(const char *path)
{
	char *argv[] = { (char *)path, NULL };
	struct stat st;
	int in, mfd;

	in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0 || fstat(in, &st))
		return setup_error(path);
	mfd = memfd_create("vg-try", MFD_CLOEXEC);
	if (mfd < 0 || sendfile(mfd, in, NULL, st.st_size) != st.st_size)
		return setup_error("memfd copy");
	fflush(stdout);
	fexecve(mfd, argv, environ);
	return denied("fexecve");
}

static int try_execveat(const char *path)
{
	char *argv[] = { (char *)path, NULL };
	int fd = open(path, O_PATH | O_CLOEXEC);

	if (fd < 0)
		return setup_error(path);
	fflush(stdout);
	syscall(SYS_execveat, fd, "", argv, environ, AT_EMPTY_PATH);
	return denied("execveat AT_EMPTY_PATH");
}

static int try_exec_deleted(const char *path)
{
	char *argv[] = { (char *)path, NULL };
	char self[64];
	int fd = open(path, O_RDONLY);

	if (fd < 0 || unlink(path))
		return setup_error(path);
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	fflush(stdout);
	execve(self, argv, environ);
	return denied("execve /proc/self/fd of a deleted file");
}

static void *map_source(const char *path, int prot)
{
	int fd;
	void *p;

	if (!strcmp(path, "-"))
		return mmap(NULL, 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return MAP_FAILED;
	p = mmap(NULL, 4096, prot, MAP_PRIVATE, fd, 0);
	close(fd);
	return p;
}

static int try_mmap_exec(const char *path)
{
	if (map_source(path, PROT_READ | PROT_EXEC) == MAP_FAILED)
		return denied("mmap PROT_EXEC");
	return allowed();
}

static int try_mprotect_exec(const char *path)
{
	void *p = map_source(path, PROT_READ);

	if (p == MAP_FAILED)
		return setup_error("mmap PROT_READ");
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC))
		return denied("mprotect PROT_EXEC");
	return allowed();
}

static int try_mmap_wx(const char *path)
{
	if (map_source(path, PROT_READ | PROT_WRITE | PROT_EXEC) == MAP_FAILED)
		return denied("mmap PROT_WRITE|PROT_EXEC");
	return allowed();
}

static int try_cow_mprotect(const char *path)
{
	volatile char *p = map_source(path, PROT_READ | PROT_WRITE);

	if (p == MAP_FAILED)
		return setup_error("mmap PROT_READ|PROT_WRITE");
	p[0] = p[0];
	if (mprotect((void *)p, 4096, PROT_READ | PROT_EXEC))
		return denied("mprotect PROT_EXEC of a written private page");
	return allowed();
}

/* mov eax, 42; ret */
static const unsigned char return_42[] = { 0xb8, 0x2a, 0x00, 0x00, 0x00, 0xc3 };

static int try_wx_mprotect(const char *path)
{
	void *p = map_source(path, PROT_READ | PROT_EXEC);
	int (*planted)(void);

	if (p == MAP_FAILED)
		return setup_error("mmap PROT_READ|PROT_EXEC");
	if (mprotect(p, 4096, PROT_READ | PROT_WRITE | PROT_EXEC))
		return denied("mprotect PROT_WRITE|PROT_EXEC of an unwritten private mapping");
	memcpy(p, return_42, sizeof(return_42));
	planted = (int (*)(void))p;
	if (planted() != 42)
		return setup_error("the planted code");
	return allowed();
}

/* Whether the mapping at p is executable, as /proc/self/maps says. */
static int mapped_executable(const void *p)
{
	char line[512], perms[8];
	unsigned long start, end;
	FILE *maps = fopen("/proc/self/maps", "r");
	int x = -1;

	if (!maps)
		return -1;
	while (x < 0 && fgets(line, sizeof(line), maps))
		if (sscanf(line, "%lx-%lx %7s", &start, &end, perms) == 3 &&
		    start <= (unsigned long)p && (unsigned long)p < end)
			x = perms[2] == 'x';
	fclose(maps);
	return x;
}

/* A per-process mode that turns a read into an executable mapping: the
 * kernel adds PROT_EXEC before the LSM hooks see the call. Allowed only if
 * the mapping did become executable. */
static int try_read_implies_exec(const char *path, bool by_mprotect)
{
	void *p;

	if (personality(PER_LINUX | READ_IMPLIES_EXEC) < 0)
		return setup_error("personality READ_IMPLIES_EXEC");
	if (by_mprotect) {
		p = map_source(path, PROT_NONE);
		if (p == MAP_FAILED)
			return setup_error("mmap PROT_NONE");
		if (mprotect(p, 4096, PROT_READ))
			return denied("mprotect PROT_READ with READ_IMPLIES_EXEC");
	} else {
		p = map_source(path, PROT_READ);
		if (p == MAP_FAILED)
			return denied("mmap PROT_READ with READ_IMPLIES_EXEC");
	}
	if (mapped_executable(p) != 1) {
		errno = ENOEXEC;
		return setup_error("the mapping did not become executable");
	}
	return allowed();
}

/* Code planted in a System V segment, then run from it: by an attachment
 * with SHM_EXEC, or by mprotect of the writable one. */
static int try_shm_exec(bool by_mprotect)
{
	int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	int (*planted)(void);
	void *rw, *x;

	if (id < 0)
		return setup_error("shmget");
	rw = shmat(id, NULL, 0);
	shmctl(id, IPC_RMID, NULL); /* gone with the last detach */
	if (rw == (void *)-1)
		return setup_error("shmat");
	memcpy(rw, return_42, sizeof(return_42));
	if (by_mprotect) {
		if (mprotect(rw, 4096, PROT_READ | PROT_EXEC))
			return denied("mprotect PROT_EXEC of a System V segment");
		x = rw;
	} else {
		x = shmat(id, NULL, SHM_RDONLY | SHM_EXEC);
		if (x == (void *)-1)
			return denied("shmat SHM_EXEC");
	}
	planted = (int (*)(void))x;
	if (planted() != 42)
		return setup_error("the planted code");
	return allowed();
}

static int hold_pin(const char *path, const char *secs)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.pathname = (__u64)(unsigned long)path;
	fd = syscall(SYS_bpf, BPF_OBJ_GET, &attr, sizeof(attr));
	if (fd < 0)
		return denied("BPF_OBJ_GET");
	printf("holding fd %d\n", fd);
	fflush(stdout);
	sleep(atoi(secs));
	return 0;
}

static int hold_map(const char *secs)
{
	struct bpf_map_info info;
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 8;
	attr.max_entries = 1;
	fd = syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof(attr));
	if (fd < 0)
		return denied("BPF_MAP_CREATE");
	memset(&attr, 0, sizeof(attr));
	memset(&info, 0, sizeof(info));
	attr.info.bpf_fd = fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (__u64)(unsigned long)&info;
	if (syscall(SYS_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)))
		return setup_error("BPF_OBJ_GET_INFO_BY_FD");
	printf("map_id %u\n", info.id);
	fflush(stdout);
	sleep(atoi(secs));
	return 0;
}

static int exec_flood(const char *count, const char *path)
{
	char *argv[] = { (char *)path, NULL };
	long i, n = atol(count), refused = 0;
	struct timespec start, end;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (i = 0; i < n; i++) {
		execve(path, argv, environ);
		if (errno != EPERM)
			return denied("execve (not EPERM)");
		refused++;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("refused %ld of %ld with EPERM in %ld ms\n", refused, n,
	       (end.tv_sec - start.tv_sec) * 1000 + (end.tv_nsec - start.tv_nsec) / 1000000);
	return 0;
}

static int exec_as(const char *name, const char *path)
{
	if (prctl(PR_SET_NAME, name))
		return setup_error("prctl PR_SET_NAME");
	return try_exec(path);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "exec"))
		return try_exec(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "memfd-exec"))
		return try_memfd_exec(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "execveat"))
		return try_execveat(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "exec-deleted"))
		return try_exec_deleted(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "mmap-exec"))
		return try_mmap_exec(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "mprotect-exec"))
		return try_mprotect_exec(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "mmap-wx"))
		return try_mmap_wx(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "cow-mprotect"))
		return try_cow_mprotect(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "wx-mprotect"))
		return try_wx_mprotect(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "hold-map"))
		return hold_map(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "read-implies-exec"))
		return try_read_implies_exec(argv[2], false);
	if (argc == 3 && !strcmp(argv[1], "read-implies-exec-mprotect"))
		return try_read_implies_exec(argv[2], true);
	if (argc == 2 && !strcmp(argv[1], "shm-exec"))
		return try_shm_exec(false);
	if (argc == 2 && !strcmp(argv[1], "shm-mprotect"))
		return try_shm_exec(true);
	if (argc == 4 && !strcmp(argv[1], "exec-flood"))
		return exec_flood(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "exec-as"))
		return exec_as(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "hold-pin"))
		return hold_pin(argv[2], argv[3]);
	fprintf(stderr, "usage: see the comment at the top of vg-try.c\n");
	return 2;
}
