// SPDX-License-Identifier: GPL-2.0
#include "gate_event.h"

#include <stdio.h>

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

static int fits(int n, size_t len)
{
	return n < 0 || (size_t)n >= len ? -1 : n;
}

int vg_gate_describe(const struct vg_config *cfg, const struct vg_gate_kernel *k, char *buf,
		     size_t len)
{
	char allow[VG_ALLOW_MAX * (VG_HASH_HEX_MAX + 1)] = "none";
	size_t n = 0;
	int i;

	for (i = 0; i < cfg->allow_count; i++)
		n += snprintf(allow + n, sizeof(allow) - n, "%s%s", i ? "," : "", cfg->allow[i]);
	return fits(snprintf(buf, len,
			     "verigate mode=%s loaded=yes %s=%s roothash_sig=%s verity_sig=%s anon_exec=%s guards=%d live=%d/%d allow=%s signed=%d kdump=%s bpf_hook_args=%d ioctl_compat=%s verity_trust=%s execve_check=%s overlay=%s kprobe_override=%s",
			     vg_mode_name(cfg->mode), vg_tree_option(cfg->tree), cfg->roothash,
			     cfg->pubkey[0] ? "verified" : "none", k->verity_sig ? "required" : "no",
			     cfg->deny_anon_exec ? "deny" : "allow", k->guards, k->live, k->programs,
			     allow, cfg->allow_signed, cfg->kdump_kernel[0] ? cfg->kdump_kernel : "none",
			     k->features.bpf_hook_args, yes_no(k->features.ioctl_compat_hook),
			     yes_no(k->verity_trust), yes_no(k->features.execve_check),
			     k->features.real_data_inode ? "data-layer" : "refused",
			     yes_no(k->kprobe_override)),
		    len);
}

int vg_gate_describe_unloaded(const char *mode, char *buf, size_t len)
{
	return fits(snprintf(buf, len, "verigate mode=%s loaded=no", mode), len);
}
