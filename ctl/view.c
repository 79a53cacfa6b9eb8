// SPDX-License-Identifier: GPL-2.0
#include "view.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || c == '_';
}

static bool printable(char c)
{
	return c >= ' ' && c <= '~';
}

int vg_status_parse(const char *text, struct vg_status *st, char *err, size_t errlen)
{
	const char *line = text;
	int lineno = 0;

	st->count = 0;
	while (*line) {
		const char *end = strchr(line, '\n'), *p = line;
		struct vg_status_field *f;
		size_t klen, vlen;

		lineno++;
		if (!end) {
			snprintf(err, errlen, "status line %d: not terminated", lineno);
			return -1;
		}
		while (p < end && key_char(*p))
			p++;
		klen = p - line;
		if (!klen || klen >= sizeof(f->key) || p == end || *p != ' ') {
			snprintf(err, errlen, "status line %d: not \"key value\"", lineno);
			return -1;
		}
		vlen = end - p - 1;
		if (vlen >= sizeof(f->value)) {
			snprintf(err, errlen, "status line %d: value too long", lineno);
			return -1;
		}
		for (const char *q = p + 1; q < end; q++) {
			if (!printable(*q)) {
				snprintf(err, errlen, "status line %d: unprintable character", lineno);
				return -1;
			}
		}
		if (st->count == VG_STATUS_FIELDS_MAX) {
			snprintf(err, errlen, "status: more than %d lines", VG_STATUS_FIELDS_MAX);
			return -1;
		}
		f = &st->fields[st->count++];
		memcpy(f->key, line, klen);
		f->key[klen] = '\0';
		memcpy(f->value, p + 1, vlen);
		f->value[vlen] = '\0';
		line = end + 1;
	}
	if (!vg_status_get(st, "mode")) {
		snprintf(err, errlen, "status: no mode line");
		return -1;
	}
	return 0;
}

const char *vg_status_get(const struct vg_status *st, const char *key)
{
	int i;

	for (i = 0; i < st->count; i++)
		if (!strcmp(st->fields[i].key, key))
			return st->fields[i].value;
	return NULL;
}

/* A word of at least one and fewer than size characters from set
 * (lower-case letters, '_', and with extra also what extra holds). */
static bool word_ok(const char *s, size_t size, const char *extra)
{
	size_t n = strlen(s);

	if (!n || n >= size)
		return false;
	for (; *s; s++)
		if (!key_char(*s) && !(extra && strchr(extra, *s)))
			return false;
	return true;
}

int vg_denial_parse(const char *line, struct vg_denial_record *rec, char *err, size_t errlen)
{
	char verdict[16], hook[32], comm[32], what[32];
	int consumed = -1;

	memset(rec, 0, sizeof(*rec));
	if (sscanf(line,
		   "seq=%" SCNu64 " boot_ns=%" SCNu64 " verdict=%15[a-z] hook=%31[a-z_] dev=%u:%u ino=%" SCNu64
		   " pid=%u comm=%31[!-~] errno=%d what=%31[a-z0-9-]%n",
		   &rec->seq, &rec->boot_ns, verdict, hook, &rec->dev_major, &rec->dev_minor,
		   &rec->ino, &rec->pid, comm, &rec->err_no, what, &consumed) != 11 ||
	    consumed < 0 || line[consumed] != '\0') {
		snprintf(err, errlen, "denials: not a record: \"%.80s\"", line);
		return -1;
	}
	if (!rec->seq || (strcmp(verdict, "deny") && strcmp(verdict, "audit")) ||
	    !word_ok(hook, sizeof(rec->hook), NULL) || strlen(comm) >= sizeof(rec->comm) ||
	    strchr(comm, '=') || strlen(what) >= sizeof(rec->what) ||
	    (rec->err_no != 0 && rec->err_no != 1) || (rec->err_no == 1) != !strcmp(verdict, "deny")) {
		snprintf(err, errlen, "denials: a field out of range: \"%.80s\"", line);
		return -1;
	}
	strcpy(rec->verdict, verdict);
	strcpy(rec->hook, hook);
	strcpy(rec->comm, comm);
	strcpy(rec->what, strcmp(what, "-") ? what : "");
	return 0;
}
