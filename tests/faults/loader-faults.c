// SPDX-License-Identifier: GPL-2.0
/*
 * Faults for a test-only build of the whole loader
 * (build/test/verigate-loader-faults, tests/run-in-guest --fault STEP),
 * linked with --wrap so that the loader's own code runs unchanged. The
 * step comes from vg_test.fault= on the kernel command line:
 *   bpffs        mounting bpffs fails with ENODEV, as on a kernel without it
 *   kill-load    SIGKILL just before the BPF object is loaded
 *   kill-attach  SIGKILL at the second attach (one link attached, unpinned)
 *   kill-pin     SIGKILL at the second pin (one link pinned)
 *   ftrace-off   kernel.ftrace_enabled set to 0 after the loader's own
 *                check of it, just before the load: the programs attach
 *                but never run, which the liveness proof must find
 *   tpm-extend   every PCR extend fails, as a TPM that refuses it: the
 *                measurement fails (with rd.verigate.tpm=required the
 *                boot must stop; with auto it goes on, tpm=failed)
 * The boot must stop in each case but the last.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "tpm.h"

static const char *fault(void)
{
	static char step[32];
	static int read_once;
	char line[4096], *p;
	FILE *f;

	if (read_once++)
		return step;
	f = fopen("/proc/cmdline", "re");
	if (!f)
		return step;
	if (fgets(line, sizeof(line), f) && (p = strstr(line, "vg_test.fault=")))
		sscanf(p + strlen("vg_test.fault="), "%31[a-z-]", step);
	fclose(f);
	return step;
}

static void kill_at(const char *step, int *calls, int at)
{
	char line[64];
	int fd, n;

	if (strcmp(fault(), step) || ++*calls != at)
		return;
	/* In the kernel log, where the test finds it on the console. */
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = snprintf(line, sizeof(line), "verigate-loader-faults: SIGKILL at %s\n", step);
		if (write(fd, line, n) != n)
			perror("/dev/kmsg");
		close(fd);
	}
	raise(SIGKILL);
}

int __real_mount(const char *source, const char *target, const char *type,
		 unsigned long flags, const void *data);
int __real_bpf_object__load_skeleton(struct bpf_object_skeleton *s);
struct bpf_link *__real_bpf_program__attach_lsm(const struct bpf_program *prog);
int __real_bpf_link__pin(struct bpf_link *link, const char *path);

int __wrap_mount(const char *source, const char *target, const char *type,
		 unsigned long flags, const void *data)
{
	if (!strcmp(fault(), "bpffs") && type && !strcmp(type, "bpf")) {
		errno = ENODEV;
		return -1;
	}
	return __real_mount(source, target, type, flags, data);
}

int __wrap_bpf_object__load_skeleton(struct bpf_object_skeleton *s)
{
	static int calls;

	kill_at("kill-load", &calls, 1);
	if (!strcmp(fault(), "ftrace-off")) {
		int fd = open("/proc/sys/kernel/ftrace_enabled", O_WRONLY | O_CLOEXEC);

		if (fd < 0 || write(fd, "0", 1) != 1)
			perror("verigate-loader-faults: ftrace_enabled");
		if (fd >= 0)
			close(fd);
	}
	return __real_bpf_object__load_skeleton(s);
}

struct bpf_link *__wrap_bpf_program__attach_lsm(const struct bpf_program *prog)
{
	static int calls;

	kill_at("kill-attach", &calls, 2);
	return __real_bpf_program__attach_lsm(prog);
}

int __wrap_bpf_link__pin(struct bpf_link *link, const char *path)
{
	static int calls;

	kill_at("kill-pin", &calls, 2);
	return __real_bpf_link__pin(link, path);
}

int __real_vg_tpm_extend(struct vg_tpm *tpm, unsigned int pcr, const void *data, size_t len,
			 struct vg_tpm_event *ev, char *err, size_t errlen);

int __wrap_vg_tpm_extend(struct vg_tpm *tpm, unsigned int pcr, const void *data, size_t len,
			 struct vg_tpm_event *ev, char *err, size_t errlen)
{
	if (!strcmp(fault(), "tpm-extend")) {
		snprintf(err, errlen, "TPM2_PCR_Extend: injected failure (vg_test.fault=tpm-extend)");
		return -1;
	}
	return __real_vg_tpm_extend(tpm, pcr, data, len, ev, err, errlen);
}
