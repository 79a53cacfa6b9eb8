// SPDX-License-Identifier: GPL-2.0
#include "cmdline.h"

#include <stdio.h>
#include <string.h>

#define ARG_MAX_LEN 512
#define SHOWN_MAX 64

struct raw_options {
	const char *mode;   /* NULL: absent; "": given without "=" */
	const char *anon_exec;
	const char *roothash;
	const char *unknown; /* first unknown rd.verigate.* key */
	char store[4][ARG_MAX_LEN];
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

/* Split one argument into key and value the way the kernel does: double
 * quotes group, and are not part of the value. */
static const char *next_arg(const char *p, char *key, char *value, bool *has_value)
{
	bool quoted = false;
	size_t k = 0, v = 0;

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
	bool has_value;

	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		p = next_arg(p, key, value, &has_value);
		if (!strcmp(key, "rd.verigate"))
			keep(raw, 0, &raw->mode, has_value ? value : "");
		else if (!strcmp(key, "rd.verigate.anon_exec"))
			keep(raw, 1, &raw->anon_exec, has_value ? value : "");
		else if (!strcmp(key, "roothash"))
			keep(raw, 2, &raw->roothash, has_value ? value : "");
		else if (!strncmp(key, "rd.verigate.", 12) && !raw->unknown)
			keep(raw, 3, &raw->unknown, key);
	}
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
	if (cfg->mode == VG_MODE_OFF)
		return 0;

	if (raw.unknown) {
		char buf[SHOWN_MAX + 1];

		return fail(err, errlen, shown(raw.unknown, buf, sizeof(buf)), NULL,
			    "unknown option; known: rd.verigate.anon_exec");
	}
	if (!raw.anon_exec || !strcmp(raw.anon_exec, "allow"))
		cfg->deny_anon_exec = false;
	else if (!strcmp(raw.anon_exec, "deny"))
		cfg->deny_anon_exec = true;
	else
		return fail(err, errlen, "rd.verigate.anon_exec", raw.anon_exec,
			    "unknown value; use allow or deny");

	if (!raw.roothash)
		return fail(err, errlen, "roothash", NULL,
			    "missing; rd.verigate needs the dm-verity root hash");
	if (vg_hex_normalize(raw.roothash, strlen(raw.roothash), cfg->roothash,
			     sizeof(cfg->roothash)))
		return fail(err, errlen, "roothash", raw.roothash,
			    "not a hex digest of 32 to 128 hex digits");
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
