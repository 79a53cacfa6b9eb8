/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VERIGATE_ELAPSED_H
#define VERIGATE_ELAPSED_H

#include <sys/resource.h>
#include <time.h>

/* Milliseconds since start, on the monotonic clock. */
static inline long vg_ms_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

/* Microseconds from one monotonic time to a later one. */
static inline long vg_us_between(const struct timespec *from, const struct timespec *to)
{
	return (to->tv_sec - from->tv_sec) * 1000000 + (to->tv_nsec - from->tv_nsec) / 1000;
}

static inline long vg_timeval_ms(const struct timeval *t)
{
	return t->tv_sec * 1000 + t->tv_usec / 1000;
}

/* This process's CPU time so far, in user space (libbpf) and in the kernel
 * (mostly the verifier), in milliseconds. */
static inline void vg_cpu_ms(long *user_ms, long *kernel_ms)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user_ms = vg_timeval_ms(&ru.ru_utime);
	*kernel_ms = vg_timeval_ms(&ru.ru_stime);
}

#endif
