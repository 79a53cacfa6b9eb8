// SPDX-License-Identifier: GPL-2.0
#include "tpm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/evp.h>
#include <tss2/tss2_rc.h>
#include <tss2/tss2_tcti_device.h>

/* The hashes a PCR bank may use that OpenSSL computes, by TPM algorithm. */
static const struct {
	TPMI_ALG_HASH alg;
	const char *name;
} hashes[] = {
	{ TPM2_ALG_SHA1, "sha1" },     { TPM2_ALG_SHA256, "sha256" },
	{ TPM2_ALG_SHA384, "sha384" }, { TPM2_ALG_SHA512, "sha512" },
	{ TPM2_ALG_SM3_256, "sm3" },
};

static const char *hash_name(TPMI_ALG_HASH alg)
{
	size_t i;

	for (i = 0; i < sizeof(hashes) / sizeof(hashes[0]); i++)
		if (hashes[i].alg == alg)
			return hashes[i].name;
	return NULL;
}

static int tss_error(char *err, size_t errlen, const char *what, TSS2_RC rc)
{
	snprintf(err, errlen, "%s: %s", what, Tss2_RC_Decode(rc));
	return -1;
}

int vg_tpm_open_tcti(struct vg_tpm *tpm, TSS2_TCTI_CONTEXT *tcti, char *err, size_t errlen)
{
	TSS2_RC rc;

	tpm->tcti = tcti;
	tpm->esys = NULL;
	rc = Esys_Initialize(&tpm->esys, tcti, NULL);
	if (rc != TSS2_RC_SUCCESS)
		return tss_error(err, errlen, "Esys_Initialize", rc);
	return 0;
}

int vg_tpm_open(struct vg_tpm *tpm, const char *device, char *err, size_t errlen)
{
	TSS2_TCTI_CONTEXT *tcti;
	size_t size = 0;
	TSS2_RC rc;

	memset(tpm, 0, sizeof(*tpm));
	if (access(device, F_OK))
		return errno == ENOENT ? 1 : (snprintf(err, errlen, "%s: %s", device, strerror(errno)), -1);
	rc = Tss2_Tcti_Device_Init(NULL, &size, NULL);
	if (rc != TSS2_RC_SUCCESS)
		return tss_error(err, errlen, "Tss2_Tcti_Device_Init", rc);
	tcti = calloc(1, size);
	if (!tcti) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = Tss2_Tcti_Device_Init(tcti, &size, device);
	if (rc != TSS2_RC_SUCCESS) {
		free(tcti);
		return tss_error(err, errlen, device, rc);
	}
	tpm->own_tcti = true;
	if (vg_tpm_open_tcti(tpm, tcti, err, errlen)) {
		vg_tpm_close(tpm);
		return -1;
	}
	return 0;
}

void vg_tpm_close(struct vg_tpm *tpm)
{
	if (tpm->esys)
		Esys_Finalize(&tpm->esys);
	if (tpm->own_tcti && tpm->tcti) {
		Tss2_Tcti_Finalize(tpm->tcti);
		free(tpm->tcti);
	}
	memset(tpm, 0, sizeof(*tpm));
}

/* The hash algorithms of the banks that hold PCR pcr. */
static int allocated_banks(struct vg_tpm *tpm, unsigned int pcr, TPMI_ALG_HASH *algs, int max,
			   char *err, size_t errlen)
{
	TPMS_CAPABILITY_DATA *cap = NULL;
	TPML_PCR_SELECTION *sel;
	TPMI_YES_NO more;
	TSS2_RC rc;
	UINT32 i;
	int n = 0;

	rc = Esys_GetCapability(tpm->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, TPM2_CAP_PCRS,
				0, 1, &more, &cap);
	if (rc != TSS2_RC_SUCCESS)
		return tss_error(err, errlen, "Esys_GetCapability(TPM2_CAP_PCRS)", rc);
	sel = &cap->data.assignedPCR;
	for (i = 0; i < sel->count && n < max; i++)
		if (pcr / 8 < sel->pcrSelections[i].sizeofSelect &&
		    sel->pcrSelections[i].pcrSelect[pcr / 8] & (1u << (pcr % 8)))
			algs[n++] = sel->pcrSelections[i].hash;
	Esys_Free(cap);
	if (!n) {
		snprintf(err, errlen, "the TPM allocates PCR %u in no bank", pcr);
		return -1;
	}
	return n;
}

static int digest(const char *name, const void *data, size_t len, struct vg_tpm_digest *out)
{
	const EVP_MD *md = EVP_get_digestbyname(name);
	unsigned int n = 0;

	if (!md || EVP_MD_get_size(md) > (int)sizeof(out->digest) ||
	    !EVP_Digest(data, len, out->digest, &n, md, NULL))
		return -1;
	out->len = n;
	return 0;
}

int vg_tpm_extend(struct vg_tpm *tpm, unsigned int pcr, const void *data, size_t len,
		  struct vg_tpm_event *ev, char *err, size_t errlen)
{
	TPMI_ALG_HASH algs[VG_TPM_BANKS_MAX];
	TPML_DIGEST_VALUES values = { 0 };
	int i, n;
	TSS2_RC rc;

	memset(ev, 0, sizeof(*ev));
	if (pcr > 23) {
		snprintf(err, errlen, "no PCR %u", pcr);
		return -1;
	}
	n = allocated_banks(tpm, pcr, algs, VG_TPM_BANKS_MAX, err, errlen);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		struct vg_tpm_digest *d = &ev->banks[i];

		d->alg = algs[i];
		d->name = hash_name(algs[i]);
		if (!d->name || digest(d->name, data, len, d)) {
			snprintf(err, errlen, "PCR %u has a bank of hash algorithm 0x%04x, which verigate cannot compute",
				 pcr, algs[i]);
			return -1;
		}
		values.digests[i].hashAlg = d->alg;
		memcpy(&values.digests[i].digest, d->digest, d->len);
	}
	values.count = n;
	ev->count = n;
	rc = Esys_PCR_Extend(tpm->esys, ESYS_TR_PCR0 + pcr, ESYS_TR_PASSWORD, ESYS_TR_NONE,
			     ESYS_TR_NONE, &values);
	if (rc != TSS2_RC_SUCCESS)
		return tss_error(err, errlen, "Esys_PCR_Extend", rc);
	return 0;
}

int vg_tpm_read(struct vg_tpm *tpm, unsigned int pcr, TPMI_ALG_HASH alg, unsigned char *out,
		char *err, size_t errlen)
{
	TPML_PCR_SELECTION sel = { .count = 1 };
	TPML_PCR_SELECTION *got = NULL;
	TPML_DIGEST *values = NULL;
	UINT32 counter;
	TSS2_RC rc;
	int len = -1;

	sel.pcrSelections[0].hash = alg;
	sel.pcrSelections[0].sizeofSelect = 3;
	sel.pcrSelections[0].pcrSelect[pcr / 8] = 1u << (pcr % 8);
	rc = Esys_PCR_Read(tpm->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &sel, &counter, &got,
			   &values);
	if (rc != TSS2_RC_SUCCESS)
		return tss_error(err, errlen, "Esys_PCR_Read", rc);
	if (values->count == 1 && values->digests[0].size <= 64) {
		len = values->digests[0].size;
		memcpy(out, values->digests[0].buffer, len);
	} else {
		snprintf(err, errlen, "PCR %u has no value in bank 0x%04x", pcr, alg);
	}
	Esys_Free(got);
	Esys_Free(values);
	return len;
}
