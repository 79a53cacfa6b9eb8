// SPDX-License-Identifier: GPL-2.0
#include "expect.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "file_text.h"
#include "gate_event.h"
#include "kernel_features.h"
#include "kernel_switches.h"
#include "program_choice.h"
#include "verigate.skel.h"

#define CONFIG_MAX (1 << 20)

/* The value of the last KEY=VALUE on cmdline into value, with the
 * kernel's matching of parameter names ("-" and "_" are the same);
 * false if there is none. */
static bool kernel_param(const char *cmdline, const char *name, char *value)
{
	char key[VG_CMDLINE_ARG_MAX], v[VG_CMDLINE_ARG_MAX];
	const char *p = cmdline, *start;
	bool has_value, found = false;
	char *c;

	while ((p = vg_cmdline_next(p, &start, key, v, &has_value))) {
		for (c = key; *c; c++)
			if (*c == '-')
				*c = '_';
		if (has_value && !strcmp(key, name)) {
			strcpy(value, v);
			found = true;
		}
	}
	return found;
}

/* The value of CONFIG_NAME in a kernel config (without quotes), or "" for
 * one not set. */
static void config_value(const char *config, const char *name, char *value, size_t len)
{
	size_t n = strlen(name);
	const char *line, *end;

	value[0] = '\0';
	for (line = config; *line; line = *end ? end + 1 : end) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		if (!strncmp(line, name, n) && line[n] == '=') {
			const char *v = line + n + 1, *v_end = end;

			if (*v == '"' && v_end > v + 1 && v_end[-1] == '"') {
				v++;
				v_end--;
			}
			snprintf(value, len, "%.*s", (int)(v_end - v), v);
		}
	}
}

static bool config_yes(const char *config, const char *name)
{
	char value[4];

	config_value(config, name, value, sizeof(value));
	return !strcmp(value, "y");
}

/* Whether the bpf LSM runs: lsm= on the command line, else CONFIG_LSM. */
static bool bpf_lsm_active(const char *cmdline, const char *config)
{
	char lsm[VG_CMDLINE_ARG_MAX];

	if (!config_yes(config, "CONFIG_BPF_LSM"))
		return false;
	if (!kernel_param(cmdline, "lsm", lsm))
		config_value(config, "CONFIG_LSM", lsm, sizeof(lsm));
	return vg_lsm_list_has(lsm, "bpf");
}

/* Whether the loader's write to its own read-only page through
 * /proc/self/mem would be forced (kernel_switches.c): proc_mem.force_override=
 * (6.12+), else the kernel's choice, which older kernels lack (they force). */
static bool proc_mem_forced(const char *cmdline, const char *config)
{
	char value[VG_CMDLINE_ARG_MAX];

	if (kernel_param(cmdline, "proc_mem.force_override", value) &&
	    (!strcmp(value, "always") || !strcmp(value, "ptrace") || !strcmp(value, "never")))
		return !strcmp(value, "always");
	return !config_yes(config, "CONFIG_PROC_MEM_NO_FORCE") &&
	       !config_yes(config, "CONFIG_PROC_MEM_FORCE_PTRACE");
}

static bool param_true(const char *cmdline, const char *name)
{
	char value[VG_CMDLINE_ARG_MAX];

	return kernel_param(cmdline, name, value) &&
	       (!strcmp(value, "1") || !strcmp(value, "Y") || !strcmp(value, "y"));
}

/* sysctl.kernel.ftrace_enabled=0: the kernel never patches in the hooks'
 * trampolines (liveness.c). */
static bool ftrace_off(const char *cmdline)
{
	char value[VG_CMDLINE_ARG_MAX];

	return kernel_param(cmdline, "sysctl.kernel.ftrace_enabled", value) && !strcmp(value, "0");
}

/* The kernel config at path, whole, or NULL with err set. */
static char *read_config(const char *path, char *err, size_t errlen)
{
	bool full;
	char *text = vg_read_file(path, CONFIG_MAX, &full);

	if (!text || full) {
		snprintf(err, errlen, "kernel config %s: %s", path, text ? "too large" : strerror(errno));
		free(text);
		return NULL;
	}
	return text;
}

/* What the kernel gives a loaded gate of cfg: the loader's choice of
 * programs, made on the kernel's BTF. */
static int gate_kernel(const struct vg_config *cfg, const char *cmdline, const char *config,
		       const char *btf_path, struct vg_gate_kernel *k, char *err, size_t errlen)
{
	struct vg_program_needs needs = { .deny_anon_exec = cfg->deny_anon_exec };
	struct vg_program_counts counts;
	struct verigate_bpf *skel;

	if (vg_kernel_features_from_file(btf_path, NULL, &k->features, err, errlen))
		return -1;
	skel = verigate_bpf__open();
	if (!skel) {
		snprintf(err, errlen, "open BPF object: %s", strerror(errno));
		return -1;
	}
	needs.proc_mem_forced = cfg->deny_anon_exec && proc_mem_forced(cmdline, config);
	vg_programs_choose(skel->obj, &k->features, &needs);
	vg_programs_count(skel->obj, &counts);
	verigate_bpf__destroy(skel);
	k->guards = counts.guards;
	k->programs = counts.programs;
	k->live = counts.provable;
	k->verity_sig = param_true(cmdline, "dm_verity.require_signatures");
	k->kprobe_override = config_yes(config, "CONFIG_BPF_KPROBE_OVERRIDE");
	k->verity_trust = k->features.bdev_integrity_hooks;
	return 0;
}

int vg_expect_event(const char *cmdline, const struct vg_expect_kernel *kernel, char *event,
		    size_t len, char *err, size_t errlen)
{
	struct vg_gate_kernel k = { 0 };
	struct vg_config cfg;
	char *config;
	int rc;

	if (vg_cmdline_parse(cmdline, &cfg, err, errlen))
		return -1;
	if (cfg.mode == VG_MODE_OFF)
		return vg_gate_describe_unloaded("off", event, len) < 0 ? -1 : 0;
	config = read_config(kernel->config_path, err, errlen);
	if (!config)
		return -1;
	/* The loader loads nothing without the bpf LSM, or with the hooks'
	 * trampolines never patched in (ftrace off from the command line). */
	if (!bpf_lsm_active(cmdline, config) || ftrace_off(cmdline))
		rc = vg_gate_describe_unloaded(vg_mode_name(cfg.mode), event, len);
	else if (gate_kernel(&cfg, cmdline, config, kernel->btf_path, &k, err, errlen))
		rc = -2; /* err says why */
	else
		rc = vg_gate_describe(&cfg, &k, event, len);
	free(config);
	if (rc == -1)
		snprintf(err, errlen, "the event does not fit %zu bytes", len);
	return rc < 0 ? -1 : 0;
}
