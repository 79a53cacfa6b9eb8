/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Extending a TPM 2.0 PCR through tpm2-tss's ESYS, the stack systemd uses:
 * every allocated bank of the PCR, each with the event's digest in that
 * bank's hash (a bank left out could be extended by anyone to any value).
 */
#ifndef VERIGATE_TPM_H
#define VERIGATE_TPM_H

#include <stdbool.h>
#include <stddef.h>
#include <tss2/tss2_esys.h>

/* The kernel's resource manager: what systemd and tpm2-tools open. */
#define VG_TPM_DEVICE "/dev/tpmrm0"

#define VG_TPM_BANKS_MAX 8

struct vg_tpm {
	TSS2_TCTI_CONTEXT *tcti;
	ESYS_CONTEXT *esys;
	bool own_tcti; /* opened by vg_tpm_open, so closed by vg_tpm_close */
};

/* One bank's digest of an event, as extended. */
struct vg_tpm_digest {
	TPMI_ALG_HASH alg;
	const char *name; /* "sha256", as systemd's event log names it */
	unsigned char digest[64];
	size_t len;
};

struct vg_tpm_event {
	int count;
	struct vg_tpm_digest banks[VG_TPM_BANKS_MAX];
};

/*
 * Open the TPM at device. Returns 0; 1 when there is no such device (no
 * TPM: not an error for the caller to report); -1 with a message in err.
 */
int vg_tpm_open(struct vg_tpm *tpm, const char *device, char *err, size_t errlen);

/* Use a TCTI the caller made (tests: a software TPM's socket). */
int vg_tpm_open_tcti(struct vg_tpm *tpm, TSS2_TCTI_CONTEXT *tcti, char *err, size_t errlen);

void vg_tpm_close(struct vg_tpm *tpm);

/*
 * Extend PCR pcr in every bank the TPM allocated for it, each with the
 * digest of the len bytes at data in that bank's hash; the digests in ev.
 * Returns 0, or -1 with a message in err (a bank whose hash is unknown
 * here is an error: it would stay as anyone sets it).
 */
int vg_tpm_extend(struct vg_tpm *tpm, unsigned int pcr, const void *data, size_t len,
		  struct vg_tpm_event *ev, char *err, size_t errlen);

/* Read PCR pcr's value in the bank of alg into out (64 bytes); its length,
 * or -1 with a message in err. */
int vg_tpm_read(struct vg_tpm *tpm, unsigned int pcr, TPMI_ALG_HASH alg, unsigned char *out,
		char *err, size_t errlen);

#endif
