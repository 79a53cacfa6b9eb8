// SPDX-License-Identifier: GPL-2.0
/*
 * ptrace-attack: try to reach into PID 1.
 *   ptrace-attack attach-pid1    PTRACE_ATTACH to PID 1 (on success wait for
 *                                it to stop, then PTRACE_DETACH)
 *   ptrace-attack proc-mem-pid1  open /proc/1/mem read-write
 *   ptrace-attack vm-read-pid1   process_vm_readv one byte at the start of
 *                                PID 1's first mapping (from /proc/1/maps,
 *                                which is itself ptrace-checked: the output
 *                                names the step that failed)
 * Prints "allowed" (exit 0) or "denied errno=NAME (...)" (exit 1); 2 on
 * misuse.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "outcome.h"

static int setup_error(const char *what)
{
	fprintf(stderr, "ptrace-attack: %s: %s\n", what, strerror(errno));
	return 2;
}

static int attach_pid1(void)
{
	int status;

	if (ptrace(PTRACE_ATTACH, 1, NULL, NULL))
		return denied("PTRACE_ATTACH");
	if (waitpid(1, &status, __WALL) != 1)
		return setup_error("waitpid 1");
	if (ptrace(PTRACE_DETACH, 1, NULL, NULL))
		return setup_error("PTRACE_DETACH");
	return allowed();
}

static int vm_read_pid1(void)
{
	unsigned long start;
	char byte;
	struct iovec local = { &byte, 1 }, remote;
	FILE *maps = fopen("/proc/1/maps", "re");

	if (!maps)
		return denied("open /proc/1/maps");
	if (fscanf(maps, "%lx-", &start) != 1) {
		if (ferror(maps))
			return denied("read /proc/1/maps");
		fprintf(stderr, "ptrace-attack: /proc/1/maps: no mapping\n");
		return 2;
	}
	remote.iov_base = (void *)start;
	remote.iov_len = 1;
	if (process_vm_readv(1, &local, 1, &remote, 1, 0) != 1)
		return denied("process_vm_readv");
	return allowed();
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "attach-pid1"))
		return attach_pid1();
	if (argc == 2 && !strcmp(argv[1], "proc-mem-pid1")) {
		if (open("/proc/1/mem", O_RDWR | O_CLOEXEC) < 0)
			return denied("open /proc/1/mem");
		return allowed();
	}
	if (argc == 2 && !strcmp(argv[1], "vm-read-pid1"))
		return vm_read_pid1();
	fprintf(stderr, "usage: see the comment at the top of ptrace-attack.c\n");
	return 2;
}
