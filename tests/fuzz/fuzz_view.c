// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the parsers of verigate's views (ctl/view.c), which
 * verigatectl runs on text read from bpffs. The input is tried as a status
 * view and, line by line, as denial records. Checked: an accepted status has
 * a mode and only [a-z_] keys with printable values; an accepted record has
 * a consistent verdict and errno and a comm without spaces or '='.
 */
#include "fuzz.h"
#include "view.h"

static struct vg_status st;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), *line, *save, err[256];
	struct vg_denial_record rec;
	int i;

	if (!vg_status_parse(text, &st, err, sizeof(err))) {
		MUST(vg_status_get(&st, "mode"));
		MUST(st.count > 0 && st.count <= VG_STATUS_FIELDS_MAX);
		for (i = 0; i < st.count; i++) {
			MUST(st.fields[i].key[0] && strspn(st.fields[i].key, "abcdefghijklmnopqrstuvwxyz_") ==
							    strlen(st.fields[i].key));
			MUST(fuzz_is_printable_line(st.fields[i].value));
		}
	} else {
		MUST(fuzz_is_printable_line(err));
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (vg_denial_parse(line, &rec, err, sizeof(err))) {
			MUST(fuzz_is_printable_line(err) || strlen(line) > 0);
			continue;
		}
		MUST(rec.seq > 0);
		MUST(!strcmp(rec.verdict, "deny") ? rec.err_no == 1 : (!strcmp(rec.verdict, "audit") && !rec.err_no));
		MUST(rec.comm[0] && !strchr(rec.comm, '=') && !strchr(rec.comm, ' ') &&
		     fuzz_is_printable_line(rec.comm));
	}
	free(text);
	return 0;
}
