// SPDX-License-Identifier: GPL-2.0
#include "kernel_switches.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The first line of path into buf, or an empty string. */
static void read_line(const char *path, char *buf, size_t len)
{
	ssize_t n = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, buf, len - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

bool vg_lsm_list_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; n && (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

bool vg_lsm_active(const char *name, char *list, size_t len)
{
	read_line(VG_LSM_LIST, list, len);
	return vg_lsm_list_has(list, name);
}

bool vg_ftrace_patching_on(void)
{
	char value[4];

	read_line(VG_FTRACE_ENABLED, value, sizeof(value));
	return value[0] != '0';
}

bool vg_proc_mem_writes_forced(void)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char one = 1, *p;
	bool forced = true;
	int fd;

	p = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return true;
	fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	/* EIO: the kernel would not force the write (fs/proc/base.c, mem_rw). */
	if (fd >= 0 && pwrite(fd, &one, 1, (off_t)(uintptr_t)p) < 0 && errno == EIO)
		forced = false;
	if (fd >= 0)
		close(fd);
	munmap(p, page);
	return forced;
}
