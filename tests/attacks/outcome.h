/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one-line verdict every attack program prints: "allowed" (exit 0), or
 * "denied errno=EPERM|EACCES (what: message)", or for any other errno
 * "denied errno=OTHER:NAME (what: message)" (exit 1).
 */
#ifndef VG_OUTCOME_H
#define VG_OUTCOME_H

/* Needs _GNU_SOURCE (strerrorname_np), defined before the first include. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

static inline int allowed(void)
{
	puts("allowed");
	return 0;
}

static inline int denied(const char *what)
{
	int e = errno;

	if (e == EPERM || e == EACCES)
		printf("denied errno=%s (%s: %s)\n", e == EPERM ? "EPERM" : "EACCES", what,
		       strerror(e));
	else
		printf("denied errno=OTHER:%s (%s: %s)\n", strerrorname_np(e) ?: "?", what,
		       strerror(e));
	return 1;
}

/* The verdict on a call that returns -1 with errno on failure. */
static inline int result(long rc, const char *what)
{
	return rc >= 0 ? allowed() : denied(what);
}

#endif
