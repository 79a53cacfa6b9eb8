// SPDX-License-Identifier: GPL-2.0
/*
 * vg-script: a script interpreter that asks the kernel before it runs a
 * script, as Documentation/userspace-api/check_exec.rst tells one to
 * (kernels 6.14+): execveat(fd, "", ..., AT_EMPTY_PATH | AT_EXECVE_CHECK)
 * on the script's fd, whose answer it obeys when the process has
 * SECBIT_EXEC_RESTRICT_FILE.
 *   vg-script check PATH     ask the kernel whether PATH may run
 *   vg-script run PATH       interpret PATH: each line "print TEXT" prints
 *                            TEXT; refuse it if the process has
 *                            SECBIT_EXEC_RESTRICT_FILE and the kernel says no
 *   vg-script restrict PATH  set SECBIT_EXEC_RESTRICT_FILE, then run PATH
 *   vg-script secure-exec PROG ARGS...
 *                            set SECBIT_EXEC_RESTRICT_FILE (inherited across
 *                            exec), then exec PROG: whether another
 *                            interpreter honours it
 * check prints "allowed" (exit 0) or "denied errno=NAME" (exit 1); run
 * prints what the script prints, then "vg-script: ran N lines", or the
 * refusal (exit 1); 2 on misuse or a failed set-up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "outcome.h"

#ifndef AT_EXECVE_CHECK
#define AT_EXECVE_CHECK 0x10000 /* linux/fcntl.h, 6.14+ */
#endif
#ifndef SECBIT_EXEC_RESTRICT_FILE
#define SECBIT_EXEC_RESTRICT_FILE (1 << 8) /* linux/securebits.h, 6.14+ */
#endif

static int setup_error(const char *what)
{
	fprintf(stderr, "vg-script: %s: %s\n", what, strerror(errno));
	return 2;
}

/* The kernel's answer for the open script fd: 0, or -1 with errno. */
static int kernel_allows(int fd, const char *path)
{
	char *const argv[] = { (char *)path, NULL }, *const envp[] = { NULL };

	return syscall(SYS_execveat, fd, "", argv, envp, AT_EMPTY_PATH | AT_EXECVE_CHECK);
}

static int check(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return setup_error(path);
	return result(kernel_allows(fd, path), "execveat AT_EXECVE_CHECK");
}

static int run(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), bits;
	char line[256];
	long lines = 0;
	FILE *script;

	if (fd < 0)
		return setup_error(path);
	bits = prctl(PR_GET_SECUREBITS);
	if (bits < 0)
		return setup_error("PR_GET_SECUREBITS");
	/* The check is always made; its answer binds only with the bit set. */
	if (kernel_allows(fd, path) && (bits & SECBIT_EXEC_RESTRICT_FILE))
		return denied("execveat AT_EXECVE_CHECK, with SECBIT_EXEC_RESTRICT_FILE");
	script = fdopen(fd, "r");
	if (!script)
		return setup_error("fdopen");
	while (fgets(line, sizeof(line), script)) {
		lines++;
		if (!strncmp(line, "print ", 6))
			fputs(line + 6, stdout);
	}
	fclose(script);
	printf("vg-script: ran %ld lines\n", lines);
	return 0;
}

static int restrict_exec(void)
{
	int bits = prctl(PR_GET_SECUREBITS);

	if (bits < 0 || prctl(PR_SET_SECUREBITS, bits | SECBIT_EXEC_RESTRICT_FILE))
		return setup_error("PR_SET_SECUREBITS SECBIT_EXEC_RESTRICT_FILE");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "check"))
		return check(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "run"))
		return run(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "restrict"))
		return restrict_exec() ?: run(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "secure-exec")) {
		if (restrict_exec())
			return 2;
		execvp(argv[2], argv + 2);
		return setup_error(argv[2]);
	}
	fprintf(stderr, "usage: see the comment at the top of vg-script.c\n");
	return 2;
}
