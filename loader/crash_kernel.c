// SPDX-License-Identifier: GPL-2.0
#include "crash_kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kexec.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Options of this boot that the crash kernel must not get. */
static const char *const dropped[] = {
	"crashkernel", "rd.verigate.kdump", "rd.verigate.kdump_initrd", "BOOT_IMAGE", "initrd",
};

static bool is_dropped(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(dropped) / sizeof(dropped[0]); i++)
		if (!strcmp(key, dropped[i]))
			return true;
	return false;
}

int vg_crash_cmdline(const char *cmdline, char *out, size_t len)
{
	char key[VG_CMDLINE_ARG_MAX], value[VG_CMDLINE_ARG_MAX];
	const char *p = cmdline, *start, *end;
	bool has_value;
	size_t n = 0;

	if (!len)
		return -1;
	out[0] = '\0';
	/* Split as the loader's own parser splits it, so that what it drops
	 * is exactly what it reads as those options. */
	while ((end = vg_cmdline_next(p, &start, key, value, &has_value))) {
		if (!is_dropped(key)) {
			if (n + (size_t)(end - start) + 1 >= len)
				return -1;
			memcpy(out + n, start, end - start);
			n += end - start;
			out[n++] = ' ';
		}
		p = end;
	}
	if (n + strlen(VG_CRASH_ARGS) >= len)
		return -1;
	strcpy(out + n, VG_CRASH_ARGS);
	return 0;
}

/* path, resolved inside the directory root (a symlink cannot leave it),
 * opened if it is a regular file on the device dev; -1 with err set. */
static int open_on_tree(int root, dev_t dev, const char *option, const char *path, char *err,
			size_t errlen)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	struct stat st;
	int fd = syscall(SYS_openat2, root, path, &how, sizeof(how));

	if (fd < 0) {
		snprintf(err, errlen, "%s=%s: cannot open it in the new root: %s", option, path,
			 strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_dev != dev) {
		snprintf(err, errlen, "%s=%s: not a file on the verified tree", option, path);
		close(fd);
		return -1;
	}
	return fd;
}

int vg_crash_kernel_load(const char *newroot, dev_t tree_dev, const struct vg_config *cfg,
			 const char *cmdline, char *err, size_t errlen)
{
	unsigned long flags = KEXEC_FILE_ON_CRASH;
	int root, kernel = -1, initrd = -1, rc = -1;

	root = open(newroot, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0) {
		snprintf(err, errlen, "rd.verigate.kdump=%s: cannot open the new root %s: %s",
			 cfg->kdump_kernel, newroot, strerror(errno));
		return -1;
	}
	kernel = open_on_tree(root, tree_dev, "rd.verigate.kdump", cfg->kdump_kernel, err, errlen);
	if (kernel < 0)
		goto out;
	if (cfg->kdump_initrd[0]) {
		initrd = open_on_tree(root, tree_dev, "rd.verigate.kdump_initrd", cfg->kdump_initrd,
				      err, errlen);
		if (initrd < 0)
			goto out;
	} else {
		flags |= KEXEC_FILE_NO_INITRAMFS;
	}
	if (syscall(SYS_kexec_file_load, kernel, initrd, strlen(cmdline) + 1, cmdline, flags)) {
		snprintf(err, errlen,
			 "rd.verigate.kdump=%s: the kernel did not load it as a crash kernel: %s%s",
			 cfg->kdump_kernel, strerror(errno),
			 errno == ENOMEM || errno == EADDRNOTAVAIL || errno == EINVAL ?
				 " (is memory set aside for it with crashkernel=?)" : "");
		goto out;
	}
	rc = 0;
out:
	if (initrd >= 0)
		close(initrd);
	if (kernel >= 0)
		close(kernel);
	close(root);
	return rc;
}

static int write_knob(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, value, strlen(value));
	close(fd);
	return n == (ssize_t)strlen(value) ? 0 : -1;
}

#define LIMIT_PANIC "/proc/sys/kernel/kexec_load_limit_panic"
#define LOAD_DISABLED "/proc/sys/kernel/kexec_load_disabled"

const char *vg_crash_kernel_keep(char *err, size_t errlen)
{
	bool limit = !access(LIMIT_PANIC, F_OK);
	const char *knob = limit ? LIMIT_PANIC : LOAD_DISABLED;

	if (write_knob(knob, limit ? "0" : "1")) {
		snprintf(err, errlen, "rd.verigate.kdump: cannot keep the crash kernel: writing %s: %s",
			 knob, strerror(errno));
		return NULL;
	}
	return knob;
}
