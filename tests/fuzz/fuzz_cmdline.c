// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: vg_cmdline_parse on any /proc/cmdline text. */
#include "cmdline.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	struct vg_config cfg, again;
	char err[256] = "", err2[256] = "";
	int ret, i;

	ret = vg_cmdline_parse(text, &cfg, err, sizeof(err));
	MUST(ret == 0 || ret == -1);
	/* The same text always gives the same answer. */
	MUST(vg_cmdline_parse(text, &again, err2, sizeof(err2)) == ret);
	if (ret) {
		/* A refusal says why, in one printable line. */
		MUST(err[0] != '\0');
		MUST(fuzz_is_printable_line(err));
		MUST(!strcmp(err, err2));
	} else {
		MUST(!memcmp(&cfg, &again, sizeof(cfg)));
		MUST(cfg.mode == VG_MODE_OFF || cfg.mode == VG_MODE_ENFORCE ||
		     cfg.mode == VG_MODE_AUDIT);
		if (cfg.mode != VG_MODE_OFF) {
			/* On means a root hash the loader can compare. */
			MUST(fuzz_is_normal_hex(cfg.roothash));
			MUST(cfg.tree == VG_TREE_ROOT || cfg.tree == VG_TREE_USR);
		}
		/* A key to check with comes with a signature to check. */
		if (cfg.pubkey[0])
			MUST(cfg.pubkey[0] == '/' && cfg.roothash_sig_len > 0 &&
			     cfg.roothash_sig_len <= VG_SIG_MAX);
		else
			MUST(cfg.roothash_sig_len == 0);
		MUST(cfg.allow_count >= 0 && cfg.allow_count <= VG_ALLOW_MAX);
		for (i = 0; i < cfg.allow_count; i++)
			MUST(fuzz_is_normal_hex(cfg.allow[i]));
	}
	free(text);
	return 0;
}
