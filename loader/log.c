// SPDX-License-Identifier: GPL-2.0
#include "log.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

void vg_log(int level, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int fd;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);

	fprintf(stderr, "verigate: %s\n", line);
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		dprintf(fd, "<%d>verigate: %s\n", level, line);
		close(fd);
	}
}
