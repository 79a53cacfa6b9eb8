/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VERIGATE_ELAPSED_H
#define VERIGATE_ELAPSED_H

#include <time.h>

/* Milliseconds since start, on the monotonic clock. */
static inline long vg_ms_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

#endif
