/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loader's measurements as a systemd-pcrlock component: a .pcrlock
 * file (systemd.pcrlock(5)) whose records are the extends of PCR 9 the
 * loader makes, each with its digest in every bank a TPM may allocate, so
 * that systemd-pcrlock matches the loader's event log records to it and
 * predicts PCR 9 with it.
 */
#ifndef VG_PCRLOCK_H
#define VG_PCRLOCK_H

#include <stddef.h>

/* The component for the extends of texts (count of them) into pcr, as one
 * line of JSON into buf. Returns its length, or -1 if it does not fit. */
int vg_pcrlock_component(unsigned int pcr, const char *const *texts, int count, char *buf,
			 size_t len);

#endif
