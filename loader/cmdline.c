// SPDX-License-Identifier: GPL-2.0
#include "cmdline.h"

#include <stdio.h>
#include <string.h>

#define ARG_MAX_LEN VG_CMDLINE_ARG_MAX
#define SHOWN_MAX 64

enum raw_slot {
	SLOT_MODE, SLOT_ANON_EXEC, SLOT_ROOTHASH, SLOT_USRHASH, SLOT_ALLOW, SLOT_SIGNED,
	SLOT_PUBKEY, SLOT_ROOTHASH_SIG, SLOT_KDUMP, SLOT_KDUMP_INITRD, SLOT_TPM, SLOT_UNKNOWN, SLOTS
};

struct raw_options {
	const char *mode;   /* NULL: absent; "": given without "=" */
	const char *anon_exec;
	const char *roothash;
	const char *usrhash;
	const char *allow;
	const char *signed_;
	const char *pubkey;
	const char *roothash_sig;
	const char *kdump;
	const char *kdump_initrd;
	const char *tpm;
	const char *unknown; /* first unknown rd.verigate.* key */
	char store[SLOTS][ARG_MAX_LEN];
};

/* Copy for a message: bounded, and without control characters. */
static const char *shown(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len && i < SHOWN_MAX; i++)
		buf[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	buf[i] = '\0';
	return buf;
}

static int fail(char *err, size_t errlen, const char *option, const char *value,
		const char *why)
{
	char buf[SHOWN_MAX + 1];

	if (value)
		snprintf(err, errlen, "%s=%s: %s", option,
			 shown(value, buf, sizeof(buf)), why);
	else
		snprintf(err, errlen, "%s: %s", option, why);
	return -1;
}

static void keep(struct raw_options *raw, int slot, const char **field,
		 const char *value)
{
	snprintf(raw->store[slot], sizeof(raw->store[slot]), "%s", value);
	*field = raw->store[slot];
}

const char *vg_cmdline_next(const char *p, const char **start, char *key, char *value,
			    bool *has_value)
{
	bool quoted = false;
	size_t k = 0, v = 0;

	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (!*p)
		return NULL;
	*start = p;
	*has_value = false;
	for (; *p && (quoted || (*p != ' ' && *p != '\t' && *p != '\n')); p++) {
		if (*p == '"') {
			quoted = !quoted;
		} else if (!*has_value && *p == '=') {
			*has_value = true;
		} else if (*has_value) {
			if (v + 1 < ARG_MAX_LEN)
				value[v++] = *p;
		} else if (k + 1 < ARG_MAX_LEN) {
			key[k++] = *p;
		}
	}
	key[k] = '\0';
	value[v] = '\0';
	return p;
}

static void scan(const char *p, struct raw_options *raw)
{
	char key[ARG_MAX_LEN], value[ARG_MAX_LEN];
	const char *start;
	bool has_value;

	while ((p = vg_cmdline_next(p, &start, key, value, &has_value))) {
		if (!strcmp(key, "rd.verigate"))
			keep(raw, SLOT_MODE, &raw->mode, has_value ? value : "");
		else if (!strcmp(key, "rd.verigate.anon_exec"))
			keep(raw, SLOT_ANON_EXEC, &raw->anon_exec, has_value ? value : "");
		else if (!strcmp(key, "roothash"))
			keep(raw, SLOT_ROOTHASH, &raw->roothash, has_value ? value : "");
		else if (!strcmp(key, "usrhash"))
			keep(raw, SLOT_USRHASH, &raw->usrhash, has_value ? value : "");
		else if (!strcmp(key, "rd.verigate.allow"))
			keep(raw, SLOT_ALLOW, &raw->allow, has_value ? value : "");
		else if (!strcmp(key, "rd.verigate.signed"))
			keep(raw, SLOT_SIGNED, &raw->signed_, has_value ? value : "");
		else if (!strcmp(key, "rd.verigate.pubkey"))
			keep(raw, SLOT_PUBKEY, &raw->pubkey, has_value ? value : "");
		else if (!strcmp(key, "rd.verigate.roothash_sig"))
			keep(raw, SLOT_ROOTHASH_SIG, &raw->roothash_sig, has_value ? value : "");
		else if (!strcmp(key, "rd.verigate.kdump"))
			keep(raw, SLOT_KDUMP, &raw->kdump, has_value ? value : "");
		else if (!strcmp(key, "rd.verigate.kdump_initrd"))
			keep(raw, SLOT_KDUMP_INITRD, &raw->kdump_initrd, has_value ? value : "");
		else if (!strcmp(key, "rd.verigate.tpm"))
			keep(raw, SLOT_TPM, &raw->tpm, has_value ? value : "");
		else if (!strncmp(key, "rd.verigate.", 12) && !raw->unknown)
			keep(raw, SLOT_UNKNOWN, &raw->unknown, key);
	}
}

/* An option of two values: absent or no gives false, yes true; anything
 * else -1. */
static int choose(const char *value, const char *no, const char *yes, bool *out)
{
	if (!value || !strcmp(value, no))
		*out = false;
	else if (!strcmp(value, yes))
		*out = true;
	else
		return -1;
	return 0;
}

_Static_assert(VG_ALLOW_MAX == 16, "the message below names the limit");

/* rd.verigate.allow=HASH[,HASH...]: each a hex digest, at most VG_ALLOW_MAX. */
static int parse_allow(const char *value, struct vg_config *cfg, char *err, size_t errlen)
{
	const char *p = value;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (cfg->allow_count == VG_ALLOW_MAX)
			return fail(err, errlen, "rd.verigate.allow", value,
				    "more than 16 root hashes");
		if (vg_hex_normalize(p, len, cfg->allow[cfg->allow_count],
				     sizeof(cfg->allow[0])))
			return fail(err, errlen, "rd.verigate.allow", value,
				    "not a comma-separated list of hex digests of 32 to 128 hex digits");
		cfg->allow_count++;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static bool printable_path(const char *s)
{
	for (; *s; s++)
		if (*s < 0x21 || *s > 0x7e)
			return false;
	return true;
}

/* An absolute path of at most 255 printable characters, into path. */
static int parse_path(const char *option, const char *value, char *path, size_t len,
		      char *err, size_t errlen)
{
	if (value[0] != '/' || strlen(value) >= len || !printable_path(value))
		return fail(err, errlen, option, value,
			    "not an absolute path of at most 255 printable characters");
	strcpy(path, value);
	return 0;
}

_Static_assert(VG_SIG_MAX == 512, "the message below names the limit");

/* rd.verigate.pubkey=PATH (a key file in the initramfs) and
 * rd.verigate.roothash_sig=BASE64: one without the other is refused. */
static int parse_signature(const struct raw_options *raw, struct vg_config *cfg,
			   char *err, size_t errlen)
{
	int n;

	if (!raw->pubkey && !raw->roothash_sig)
		return 0;
	if (!raw->pubkey)
		return fail(err, errlen, "rd.verigate.roothash_sig", NULL,
			    "given without rd.verigate.pubkey=, the key to check it with");
	if (parse_path("rd.verigate.pubkey", raw->pubkey, cfg->pubkey, sizeof(cfg->pubkey), err,
		       errlen))
		return -1;
	if (!raw->roothash_sig)
		return fail(err, errlen, "rd.verigate.roothash_sig", NULL,
			    "missing; rd.verigate.pubkey= needs the root hash's signature");
	n = vg_base64_decode(raw->roothash_sig, strlen(raw->roothash_sig), cfg->roothash_sig,
			     sizeof(cfg->roothash_sig));
	if (n < 0)
		return fail(err, errlen, "rd.verigate.roothash_sig", raw->roothash_sig,
			    "not base64 (with padding) of at most 512 bytes");
	cfg->roothash_sig_len = (size_t)n;
	return 0;
}

/* rd.verigate.kdump=PATH [rd.verigate.kdump_initrd=PATH]: the crash kernel
 * the loader loads; an initramfs alone is refused. */
static int parse_kdump(const struct raw_options *raw, struct vg_config *cfg, char *err,
		       size_t errlen)
{
	if (raw->kdump_initrd && !raw->kdump)
		return fail(err, errlen, "rd.verigate.kdump_initrd", raw->kdump_initrd,
			    "given without rd.verigate.kdump=, the crash kernel it belongs to");
	if (raw->kdump && parse_path("rd.verigate.kdump", raw->kdump, cfg->kdump_kernel,
				     sizeof(cfg->kdump_kernel), err, errlen))
		return -1;
	if (raw->kdump_initrd &&
	    parse_path("rd.verigate.kdump_initrd", raw->kdump_initrd, cfg->kdump_initrd,
		       sizeof(cfg->kdump_initrd), err, errlen))
		return -1;
	return 0;
}

/* roothash= (a verity root) or usrhash= (a verity /usr on a writable
 * root): exactly one names the device that is trusted. */
static int parse_tree(const struct raw_options *raw, struct vg_config *cfg, char *err,
		      size_t errlen)
{
	const char *value = raw->usrhash ? raw->usrhash : raw->roothash;

	if (raw->roothash && raw->usrhash)
		return fail(err, errlen, "usrhash", raw->usrhash,
			    "given with roothash=; verigate trusts one verity tree, the root or /usr");
	if (!value)
		return fail(err, errlen, "roothash", NULL,
			    "missing; rd.verigate needs the dm-verity root hash (roothash=, or usrhash= for a verity /usr)");
	cfg->tree = raw->usrhash ? VG_TREE_USR : VG_TREE_ROOT;
	if (vg_hex_normalize(value, strlen(value), cfg->roothash, sizeof(cfg->roothash)))
		return fail(err, errlen, vg_tree_option(cfg->tree), value, "not a hex digest of 32 to 128 hex digits");
	return 0;
}

int vg_cmdline_parse(const char *cmdline, struct vg_config *cfg, char *err,
		     size_t errlen)
{
	struct raw_options raw = { 0 };

	memset(cfg, 0, sizeof(*cfg));
	if (!cmdline)
		return fail(err, errlen, "cmdline", NULL, "missing");
	scan(cmdline, &raw);

	if (!raw.mode || !strcmp(raw.mode, "0"))
		cfg->mode = VG_MODE_OFF;
	else if (!strcmp(raw.mode, "1"))
		cfg->mode = VG_MODE_ENFORCE;
	else if (!strcmp(raw.mode, "audit"))
		cfg->mode = VG_MODE_AUDIT;
	else
		return fail(err, errlen, "rd.verigate", raw.mode,
			    "unknown value; use 1 (enforce), audit or 0 (off)");
	/* Read when off too: an off boot is measured as such. */
	if (choose(raw.tpm, "auto", "required", &cfg->tpm_required))
		return fail(err, errlen, "rd.verigate.tpm", raw.tpm,
			    "unknown value; use auto (measure into the TPM if there is one) or required (stop the boot without a TPM or when the measurement fails)");
	if (cfg->mode == VG_MODE_OFF)
		return 0;

	if (raw.unknown) {
		char buf[SHOWN_MAX + 1];

		return fail(err, errlen, shown(raw.unknown, buf, sizeof(buf)), NULL,
			    "unknown option; known: rd.verigate.anon_exec, rd.verigate.allow, rd.verigate.signed, rd.verigate.pubkey, rd.verigate.roothash_sig, rd.verigate.kdump, rd.verigate.kdump_initrd, rd.verigate.tpm");
	}
	if (choose(raw.anon_exec, "allow", "deny", &cfg->deny_anon_exec))
		return fail(err, errlen, "rd.verigate.anon_exec", raw.anon_exec,
			    "unknown value; use allow or deny");

	if (raw.allow && parse_allow(raw.allow, cfg, err, errlen))
		return -1;
	if (choose(raw.signed_, "0", "1", &cfg->allow_signed))
		return fail(err, errlen, "rd.verigate.signed", raw.signed_,
			    "unknown value; use 1 (trust verity devices whose root hash signature the kernel checked) or 0");

	if (parse_signature(&raw, cfg, err, errlen) || parse_kdump(&raw, cfg, err, errlen))
		return -1;

	return parse_tree(&raw, cfg, err, errlen);
}

int vg_cmdline_require(const struct vg_config *cfg, const char *baked_pubkey, char *err,
		       size_t errlen)
{
	char why[320];

	if (cfg->mode != VG_MODE_ENFORCE)
		return fail(err, errlen, "rd.verigate", cfg->mode == VG_MODE_AUDIT ? "audit" : NULL,
			    "this initramfs requires rd.verigate=1 (built with verigate_required=yes); off and audit are refused");
	if (baked_pubkey && strcmp(cfg->pubkey, baked_pubkey)) {
		snprintf(why, sizeof(why),
			 "this initramfs requires the root hash signed by its key: rd.verigate.pubkey=%s with rd.verigate.roothash_sig=",
			 baked_pubkey);
		return fail(err, errlen, "rd.verigate.pubkey", cfg->pubkey[0] ? cfg->pubkey : NULL, why);
	}
	return 0;
}

const char *vg_mode_name(enum vg_mode mode)
{
	switch (mode) {
	case VG_MODE_ENFORCE:
		return "enforcing";
	case VG_MODE_AUDIT:
		return "audit";
	default:
		return "off";
	}
}

const char *vg_tree_option(enum vg_tree tree)
{
	return tree == VG_TREE_USR ? "usrhash" : "roothash";
}

const char *vg_tree_dir(enum vg_tree tree)
{
	return tree == VG_TREE_USR ? "/usr" : "";
}
