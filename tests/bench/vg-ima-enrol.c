// SPDX-License-Identifier: GPL-2.0
/*
 * vg-ima-enrol CERT.der: make make bench's IMA configuration trust the
 * test key. Creates the keyring "_ima" in root's user keyring (where IMA
 * looks for it on kernels built without CONFIG_INTEGRITY_TRUSTED_KEYRING,
 * as Debian's are) and adds the certificate to it. What evmctl import does,
 * without keyutils in the image.
 */
#include <errno.h>
#include <linux/keyctl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long add_key(const char *type, const char *desc, const void *data, size_t len, long ring)
{
	return syscall(SYS_add_key, type, desc, data, len, ring);
}

int main(int argc, char **argv)
{
	static unsigned char der[16384];
	long ring, key;
	size_t len;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: vg-ima-enrol CERT.der\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		fprintf(stderr, "vg-ima-enrol: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	len = fread(der, 1, sizeof(der), f);
	fclose(f);
	if (!len || len == sizeof(der)) {
		fprintf(stderr, "vg-ima-enrol: %s: empty or too large\n", argv[1]);
		return 1;
	}
	ring = add_key("keyring", "_ima", NULL, 0, KEY_SPEC_USER_KEYRING);
	if (ring < 0) {
		fprintf(stderr, "vg-ima-enrol: keyring _ima: %s\n", strerror(errno));
		return 1;
	}
	key = add_key("asymmetric", NULL, der, len, ring);
	if (key < 0) {
		fprintf(stderr, "vg-ima-enrol: %s into _ima: %s\n", argv[1], strerror(errno));
		return 1;
	}
	printf("ima key %ld in keyring %ld\n", key, ring);
	return 0;
}
