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

/* The tree whose dm-verity device is trusted: the root (roothash=) or a
 * verity /usr under a writable root (usrhash=). */
enum vg_tree {
	VG_TREE_ROOT,
	VG_TREE_USR,
};

enum vg_mode {
	VG_MODE_OFF,
	VG_MODE_ENFORCE,
	VG_MODE_AUDIT,
};

struct vg_config {
	enum vg_mode mode;
	bool deny_anon_exec;
	enum vg_tree tree;
	/* The trusted device's root hash (dm-verity's name for the top of the
	 * hash tree, whichever tree it is), lower-case hex. */
	char roothash[VG_HASH_HEX_MAX + 1];
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
	/* rd.verigate.kdump=PATH and rd.verigate.kdump_initrd=PATH: a crash
	 * kernel (and its initramfs) on the verified tree, which the loader
	 * loads before the real init starts ("" when not asked). */
	char kdump_kernel[256];
	char kdump_initrd[256];
	/* rd.verigate.tpm=required: no TPM, or a failed measurement, stops the
	 * boot; auto (the default): measure when there is a TPM. */
	bool tpm_required;
};

/* The longest key or value vg_cmdline_next yields (with its NUL): long
 * enough for a full allow-list of sha512 digests; longer ones are cut. */
#define VG_CMDLINE_ARG_MAX (VG_ALLOW_MAX * (VG_HASH_HEX_MAX + 1) + 1)

/*
 * The next argument of a kernel command line at or after p, split the way
 * the kernel splits it: double quotes group, and are part of neither key
 * nor value. Fills in key and value (VG_CMDLINE_ARG_MAX bytes each),
 * whether it has a "=", and where its text starts; returns where its text
 * ends, or NULL when no argument is left.
 */
const char *vg_cmdline_next(const char *p, const char **start, char *key, char *value,
			    bool *has_value);

/*
 * Parse a kernel command line (the text of /proc/cmdline). The last
 * occurrence of an option wins, as with dracut's getarg. The value of
 * rd.verigate= is always checked; the other options only when verigate is
 * on. Returns 0, or -1 with a message naming the option and value in err.
 */
int vg_cmdline_parse(const char *cmdline, struct vg_config *cfg, char *err,
		     size_t errlen);

/*
 * What an initramfs built with verigate_required=yes asks of a parsed
 * command line: enforcement (rd.verigate=1; off and audit are refused), and
 * when it carries a key (baked_pubkey, its path; NULL when none), the root
 * hash signed by that key. The command line alone can then not turn
 * verigate off. Returns 0, or -1 with a message naming the option in err.
 */
int vg_cmdline_require(const struct vg_config *cfg, const char *baked_pubkey, char *err,
		       size_t errlen);

const char *vg_mode_name(enum vg_mode mode);

/* "roothash" or "usrhash": the option that named the trusted tree's hash. */
const char *vg_tree_option(enum vg_tree tree);

/* Where that tree is mounted below the new root: "" or "/usr". */
const char *vg_tree_dir(enum vg_tree tree);

#endif
