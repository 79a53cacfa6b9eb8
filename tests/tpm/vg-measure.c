// SPDX-License-Identifier: GPL-2.0
/*
 * vg-measure TCTI LOG EVENT: what the loader does before switch_root, on a
 * software TPM: EVENT and the separator extended into PCR 9 and recorded in
 * the event log LOG (vg_measure). Prints PCR 9's sha256 after. For tests
 * that hand the result to another reader of the log (systemd-pcrlock).
 */
#include <stdio.h>
#include <tss2/tss2_tctildr.h>

#include "measurement.h"
#include "tpm.h"

int main(int argc, char **argv)
{
	TSS2_TCTI_CONTEXT *tcti = NULL;
	struct vg_measured m;
	struct vg_tpm tpm;
	char err[256];

	if (argc != 4) {
		fprintf(stderr, "usage: vg-measure TCTI LOG EVENT\n");
		return 2;
	}
	if (Tss2_TctiLdr_Initialize(argv[1], &tcti) != TSS2_RC_SUCCESS ||
	    vg_tpm_open_tcti(&tpm, tcti, err, sizeof(err))) {
		fprintf(stderr, "vg-measure: cannot reach the TPM at %s\n", argv[1]);
		return 1;
	}
	if (vg_measure(&tpm, argv[2], argv[3], &m, err, sizeof(err))) {
		fprintf(stderr, "vg-measure: %s\n", err);
		vg_tpm_close(&tpm);
		return 1;
	}
	printf("%s\n", m.pcr_sha256);
	vg_tpm_close(&tpm);
	return 0;
}
