/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VG_ROOTHASH_SIG_H
#define VG_ROOTHASH_SIG_H

#include <stddef.h>

/*
 * Check sig, a detached signature of roothash (the lower-case hex text, no
 * newline: what dm-verity signatures sign too), against the PEM public key
 * in the file keypath: RSA or ECDSA over SHA-256, or Ed25519. Returns 0, or
 * -1 with the reason in err.
 */
int vg_roothash_sig_verify(const char *keypath, const char *roothash,
			   const unsigned char *sig, size_t siglen, char *err, size_t errlen);

#endif
