// SPDX-License-Identifier: GPL-2.0
#include "log.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

void vg_log(int level, const char *fmt, ...)
{
	char line[900], record[1024];
	va_list ap;
	int fd, len;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);

	fprintf(stderr, "verigate: %s\n", line);
	/* One write is one kmsg record. */
	len = snprintf(record, sizeof(record), "<%d>verigate: %s\n", level, line);
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, record, len) != len)
			fprintf(stderr, "verigate: could not write to /dev/kmsg\n");
		close(fd);
	}
}
