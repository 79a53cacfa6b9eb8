/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VG_CMDLINE_H
#define VG_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "base64.h"
#include "hex.h"
#include "verigate_abi.h"

/* Longest root hash signature rd.verigate.roothash_sig= takes (RSA-4096). */
#define VG_SIG_MAX 512

enum vg_mode {
	VG_MODE_OFF,
	VG_MODE_ENFORCE,
	VG_MODE_AUDIT,
};

struct vg_config {
	enum vg_mode mode;
	bool deny_anon_exec;
	char roothash[VG_HASH_HEX_MAX + 1]; /* lower-case hex */
	/* Extra verity devices to trust (6.12+): rd.verigate.allow=HASH[,HASH...]
	 * and rd.verigate.signed=1 (any root hash whose signature the kernel
	 * checked). */
	int allow_count;
	char allow[VG_ALLOW_MAX][VG_HASH_HEX_MAX + 1];
	bool allow_signed;
	/* rd.verigate.pubkey=PATH and rd.verigate.roothash_sig=BASE64: the root
	 * hash must carry a signature by that key (pubkey "" when not asked). */
	char pubkey[256];
	unsigned char roothash_sig[VG_SIG_MAX];
	size_t roothash_sig_len;
};

/*
 * Parse a kernel command line (the text of /proc/cmdline). The last
 * occurrence of an option wins, as with dracut's getarg. The value of
 * rd.verigate= is always checked; the other options only when verigate is
 * on. Returns 0, or -1 with a message naming the option and value in err.
 */
int vg_cmdline_parse(const char *cmdline, struct vg_config *cfg, char *err,
		     size_t errlen);

const char *vg_mode_name(enum vg_mode mode);

#endif
