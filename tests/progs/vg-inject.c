// SPDX-License-Identifier: GPL-2.0
/*
 * vg-inject: plant code in read-only program text the way a tracer can,
 * without mmap or mprotect, and run it. The planted code makes a function
 * that returns 1 return 42 (x86-64).
 *   vg-inject ptrace-poke    fork a child, PTRACE_ATTACH it, PTRACE_POKETEXT
 *   vg-inject traceme-poke   fork a child that asks PTRACE_TRACEME, then poke
 *   vg-inject proc-self-mem  pwrite into /proc/self/mem
 * Prints "allowed" (exit 0) when the planted code ran, or "denied
 * errno=NAME (...)" (exit 1); 2 on misuse or an unexpected failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outcome.h"

#define PLANTED_ANSWER 42
/* Exit status of a child whose PTRACE_TRACEME failed: this plus errno. */
#define TRACEME_FAILED 100

/* mov $42, %eax; ret */
static const unsigned char payload[] = { 0xb8, PLANTED_ANSWER, 0, 0, 0, 0xc3 };

/* The target: padded so that the payload fits whatever the compiler emits. */
__attribute__((noinline)) static int answer(void)
{
	__asm__ volatile(".fill 16, 1, 0x90");
	return 1;
}

/* Called through a volatile pointer, so the call is never folded away. */
static int (*volatile call_answer)(void) = answer;

static int fail(const char *what)
{
	fprintf(stderr, "vg-inject: %s: %s\n", what, strerror(errno));
	return 2;
}

static int verdict(int got)
{
	if (got == PLANTED_ANSWER)
		return allowed();
	fprintf(stderr, "vg-inject: the planted code did not run (answer %d)\n", got);
	return 2;
}

/* Overwrite the start of answer() in the stopped tracee pid. */
static int poke(pid_t pid)
{
	unsigned long word;

	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, (void *)answer, NULL);
	if (errno)
		return fail("PTRACE_PEEKTEXT");
	memcpy(&word, payload, sizeof(payload));
	if (ptrace(PTRACE_POKETEXT, pid, (void *)answer, (void *)word))
		return fail("PTRACE_POKETEXT");
	if (ptrace(PTRACE_DETACH, pid, NULL, NULL))
		return fail("PTRACE_DETACH");
	return 0;
}

static int child_exit_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int ptrace_poke(void)
{
	int go[2], status, rc;
	char byte;
	pid_t pid;

	if (pipe(go))
		return fail("pipe");
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (!pid) {
		/* Wait until the parent is done, then run the (planted) code. */
		close(go[1]);
		while (read(go[0], &byte, 1) < 0 && errno == EINTR)
			;
		_exit(call_answer());
	}
	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL)) {
		rc = denied("PTRACE_ATTACH");
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return rc;
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		return fail("wait for the tracee to stop");
	rc = poke(pid);
	if (rc)
		return rc;
	if (write(go[1], "g", 1) != 1)
		return fail("write");
	return verdict(child_exit_status(pid));
}

static int traceme_poke(void)
{
	int status, rc;
	pid_t pid = fork();

	if (pid < 0)
		return fail("fork");
	if (!pid) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(TRACEME_FAILED + errno);
		raise(SIGSTOP);
		_exit(call_answer());
	}
	if (waitpid(pid, &status, 0) != pid)
		return fail("waitpid");
	if (WIFEXITED(status) && WEXITSTATUS(status) > TRACEME_FAILED) {
		errno = WEXITSTATUS(status) - TRACEME_FAILED;
		return denied("PTRACE_TRACEME");
	}
	if (!WIFSTOPPED(status))
		return fail("wait for the tracee to stop");
	rc = poke(pid);
	if (rc)
		return rc;
	return verdict(child_exit_status(pid));
}

static int proc_self_mem(void)
{
	int fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return denied("open /proc/self/mem");
	if (pwrite(fd, payload, sizeof(payload), (off_t)(unsigned long)answer) !=
	    (ssize_t)sizeof(payload))
		return denied("pwrite /proc/self/mem");
	close(fd);
	return verdict(call_answer());
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "ptrace-poke"))
		return ptrace_poke();
	if (argc == 2 && !strcmp(argv[1], "traceme-poke"))
		return traceme_poke();
	if (argc == 2 && !strcmp(argv[1], "proc-self-mem"))
		return proc_self_mem();
	fprintf(stderr, "usage: see the comment at the top of vg-inject.c\n");
	return 2;
}
