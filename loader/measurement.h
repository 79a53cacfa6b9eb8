/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the loader measures into the TPM before switch_root, and where: the
 * gate as it came up (or that it did not: off, audit without the bpf LSM,
 * failed), then a separator that closes verigate's part of the PCR, each
 * recorded in systemd's userspace TPM event log.
 */
#ifndef VERIGATE_MEASUREMENT_H
#define VERIGATE_MEASUREMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "gate_event.h"
#include "tpm.h"

#define VG_MEASURE_LOG "/run/log/systemd/tpm2-measure.log"
/* The longest event log record: the event escaped, and 8 banks' digests. */
#define VG_MEASURE_RECORD_MAX (2 * VG_MEASURE_EVENT_MAX + 2048)

struct vg_measured {
	bool measured;
	char event_sha256[65];  /* the event's sha256, hex */
	char pcr_sha256[65];    /* the PCR's sha256 bank after the separator */
};

/*
 * Extend VG_MEASURE_PCR with event, then with the separator, in every bank
 * of the TPM, and append both to the event log at log_path. Returns 0, or
 * -1 with a message in err.
 */
int vg_measure(struct vg_tpm *tpm, const char *log_path, const char *event,
	       struct vg_measured *out, char *err, size_t errlen);

/* The event log record (JSON-SEQ, systemd's format) for one extend. */
int vg_measure_record(unsigned int pcr, const struct vg_tpm_event *ev, const char *text,
		      char *buf, size_t len);

#endif
