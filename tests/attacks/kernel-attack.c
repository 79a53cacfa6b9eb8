// SPDX-License-Identifier: GPL-2.0
/*
 * kernel-attack: try to load kernel code or reach kernel memory and ports.
 *   kernel-attack finit-module PATH  finit_module(fd of PATH, "", 0)
 *   kernel-attack init-module PATH   init_module(contents of PATH, "")
 *   kernel-attack kexec-load         kexec_load with no segments (which
 *                                    unloads: it succeeds without an LSM)
 *   kernel-attack kexec-load-crash   the same for the crash kernel
 *   kernel-attack kexec-file PATH    kexec_file_load(fd of PATH, no initramfs);
 *                                    "allowed" only if /sys/kernel/kexec_loaded
 *                                    then says 1; the image is unloaded again
 *   kernel-attack kexec-file-crash PATH  the same as the crash kernel
 *                                    (KEXEC_FILE_ON_CRASH, kexec_crash_loaded;
 *                                    needs crashkernel= to load)
 *   kernel-attack kexec-crash-unload unload the crash kernel; "allowed" only
 *                                    if kexec_crash_loaded then says 0
 *   kernel-attack snapshot-restore   open /dev/snapshot to write a hibernation
 *                                    image into it (uswsusp's restore)
 *   kernel-attack hibernate          write "disk" to /sys/power/state
 *   kernel-attack dev-mem            open /dev/mem read-write
 *   kernel-attack dev-port           open /dev/port read-write
 *   kernel-attack iopl               iopl(3)
 *   kernel-attack ioperm             ioperm(0x80, 1, 1)
 * Prints "allowed" (exit 0) or "denied errno=NAME (...)" (exit 1); 2 on
 * misuse. A file that is not a kernel makes kexec-file fail with the
 * kernel's own error (denied errno=OTHER:...).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/kexec.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "outcome.h"

static int open_input(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "kernel-attack: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	return fd;
}

static int init_module_from(const char *path)
{
	int fd = open_input(path);
	struct stat st;
	char *buf;

	if (fstat(fd, &st) || !(buf = malloc(st.st_size)) ||
	    read(fd, buf, st.st_size) != st.st_size) {
		fprintf(stderr, "kernel-attack: reading %s failed\n", path);
		return 2;
	}
	return result(syscall(SYS_init_module, buf, (unsigned long)st.st_size, ""),
		      "init_module");
}

/* The kernel's own word on whether an image is loaded: 1, 0, or -1. */
static int kexec_state(const char *file)
{
	char path[64], c = 0;
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/%s", file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, &c, 1) != 1)
		c = 0;
	if (fd >= 0)
		close(fd);
	return c == '1' ? 1 : c == '0' ? 0 : -1;
}

static int kexec_file(const char *path, unsigned long crash)
{
	const char *state = crash ? "kexec_crash_loaded" : "kexec_loaded";
	long rc = syscall(SYS_kexec_file_load, open_input(path), -1, 1, "",
			  KEXEC_FILE_NO_INITRAMFS | crash);
	int loaded;

	if (rc)
		return denied("kexec_file_load");
	loaded = kexec_state(state);
	syscall(SYS_kexec_file_load, -1, -1, 0, NULL, KEXEC_FILE_UNLOAD | crash);
	if (loaded != 1) {
		printf("loaded, but /sys/kernel/%s says %d\n", state, loaded);
		return 2;
	}
	return allowed();
}

static int kexec_crash_unload(void)
{
	int loaded;

	if (syscall(SYS_kexec_file_load, -1, -1, 0, NULL, KEXEC_FILE_UNLOAD | KEXEC_FILE_ON_CRASH))
		return denied("kexec_file_load");
	loaded = kexec_state("kexec_crash_loaded");
	if (loaded != 0) {
		printf("unloaded, but /sys/kernel/kexec_crash_loaded says %d\n", loaded);
		return 2;
	}
	return allowed();
}

static int hibernate(void)
{
	int fd = open("/sys/power/state", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return denied("open /sys/power/state");
	return result(write(fd, "disk", 4), "write disk to /sys/power/state");
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "finit-module"))
		return result(syscall(SYS_finit_module, open_input(argv[2]), "", 0),
			      "finit_module");
	if (argc == 3 && !strcmp(argv[1], "init-module"))
		return init_module_from(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "kexec-load"))
		return result(syscall(SYS_kexec_load, 0UL, 0UL, NULL, 0UL), "kexec_load");
	if (argc == 2 && !strcmp(argv[1], "kexec-load-crash"))
		return result(syscall(SYS_kexec_load, 0UL, 0UL, NULL, KEXEC_ON_CRASH),
			      "kexec_load");
	if (argc == 2 && !strcmp(argv[1], "kexec-crash-unload"))
		return kexec_crash_unload();
	if (argc == 3 && !strcmp(argv[1], "kexec-file"))
		return kexec_file(argv[2], 0);
	if (argc == 3 && !strcmp(argv[1], "kexec-file-crash"))
		return kexec_file(argv[2], KEXEC_FILE_ON_CRASH);
	if (argc == 2 && !strcmp(argv[1], "snapshot-restore"))
		return result(open("/dev/snapshot", O_WRONLY | O_CLOEXEC), "open /dev/snapshot");
	if (argc == 2 && !strcmp(argv[1], "hibernate"))
		return hibernate();
	if (argc == 2 && !strcmp(argv[1], "dev-mem"))
		return result(open("/dev/mem", O_RDWR | O_CLOEXEC), "open /dev/mem");
	if (argc == 2 && !strcmp(argv[1], "dev-port"))
		return result(open("/dev/port", O_RDWR | O_CLOEXEC), "open /dev/port");
	if (argc == 2 && !strcmp(argv[1], "iopl"))
		return result(iopl(3), "iopl");
	if (argc == 2 && !strcmp(argv[1], "ioperm"))
		return result(ioperm(0x80, 1, 1), "ioperm");
	fprintf(stderr, "usage: see the comment at the top of kernel-attack.c\n");
	return 2;
}
