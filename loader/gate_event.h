/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The gate as one line of text: the event the loader measures into the
 * TPM, and the one verigatectl predicts for a configuration. Both build it
 * here, from the command line's configuration and what the kernel gave.
 */
#ifndef VERIGATE_GATE_EVENT_H
#define VERIGATE_GATE_EVENT_H

#include <stdbool.h>
#include <stddef.h>

#include "cmdline.h"
#include "kernel_features.h"

/* PCR 9: the kernel and systemd-stub measure the initrd there, so one
 * value binds the initramfs and the gate it set up (docs/attestation.md).
 * The event goes there, then the separator, which closes verigate's part. */
#define VG_MEASURE_PCR 9
#define VG_MEASURE_SEPARATOR "verigate separator"

/* The longest event text, with its NUL: its fields, a sha512 tree hash,
 * the allow-list's 16 sha512 digests and a 255-character kdump path. */
#define VG_MEASURE_EVENT_MAX 4096

/* What the kernel gave a loaded gate. */
struct vg_gate_kernel {
	bool verity_sig;      /* dm-verity required the root hash's signature */
	int guards, live, programs;
	struct vg_kernel_features features;
	bool kprobe_override; /* bpf_override_return: kprobe loads refused */
	bool verity_trust;    /* extra verity devices can be trusted (6.12+) */
};

/* The event of a gate loaded and proven live: one line of key=value
 * fields, the same for the same configuration on the same kernel. Returns
 * its length, or -1 if it does not fit len. */
int vg_gate_describe(const struct vg_config *cfg, const struct vg_gate_kernel *k, char *buf,
		     size_t len);

/* The event of a boot that loaded no gate: mode is "off", "audit" (no bpf
 * LSM), "enforcing" (that failed), or "failed" (a bad command line). */
int vg_gate_describe_unloaded(const char *mode, char *buf, size_t len);

#endif
