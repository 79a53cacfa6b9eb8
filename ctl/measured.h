/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the loader measured into the TPM, read back for verigatectl status:
 * its records in systemd's userspace event log (content type "verigate"),
 * and the PCR's value now.
 */
#ifndef VG_MEASURED_H
#define VG_MEASURED_H

#include <stdbool.h>
#include <stddef.h>

#define VG_MEASURED_LOG "/run/log/systemd/tpm2-measure.log"
#define VG_MEASURED_PCR_DIR "/sys/class/tpm/tpm0/pcr-sha256"
#define VG_MEASURED_MAX 4

struct vg_measured_event {
	unsigned int pcr;
	char sha256[65];
	char text[4096]; /* the loader's longest event (VG_MEASURE_EVENT_MAX) */
};

struct vg_measured_log {
	int count;
	struct vg_measured_event events[VG_MEASURED_MAX];
};

/*
 * The records of content type "verigate" in the event log text (records
 * of other producers are skipped). Returns how many, or -1 when one of
 * them is malformed (message in err).
 */
int vg_measured_parse(const char *log, struct vg_measured_log *out, char *err, size_t errlen);

/* PCR 9's value after replaying events (each sha256, hex) over start (hex,
 * 64 digits): what a policy expects. Returns 0, or -1 on bad hex. */
int vg_measured_replay(const char *start, const char *const *sha256, int count, char out[65]);

/* The sha256 of text (no NUL), hex, as the loader extends it. */
void vg_measured_digest(const char *text, char out[65]);

#endif
