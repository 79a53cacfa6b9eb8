// SPDX-License-Identifier: GPL-2.0
#include "file_text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

char *vg_read_fd(int fd, size_t max, bool *full)
{
	char *buf = malloc(max);
	size_t len = 0;
	ssize_t n = 0;

	if (!buf)
		return NULL;
	while (len < max - 1 && (n = read(fd, buf + len, max - 1 - len)) > 0)
		len += n;
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	*full = len == max - 1;
	return buf;
}

char *vg_read_file(const char *path, size_t max, bool *full)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), saved;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = vg_read_fd(fd, max, full);
	saved = errno;
	close(fd);
	errno = saved;
	return buf;
}
