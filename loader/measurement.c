// SPDX-License-Identifier: GPL-2.0
#include "measurement.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hex.h"

/* text as a JSON string's contents: quotes, backslashes and control
 * characters escaped. */
static int json_escape(const char *text, char *buf, size_t len)
{
	size_t n = 0;

	for (; *text; text++) {
		unsigned char c = *text;
		int w;

		if (c == '"' || c == '\\')
			w = snprintf(buf + n, len - n, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			w = snprintf(buf + n, len - n, "\\u%04x", c);
		else
			w = snprintf(buf + n, len - n, "%c", c);
		if (w < 0 || (size_t)w >= len - n)
			return -1;
		n += w;
	}
	return n;
}

int vg_measure_record(unsigned int pcr, const struct vg_tpm_event *ev, const char *text,
		      char *buf, size_t len)
{
	char hex[129], escaped[2 * VG_MEASURE_EVENT_MAX]; /* the kdump path may hold " and \\ */
	size_t n;
	int i, w;

	if (json_escape(text, escaped, sizeof(escaped)) < 0)
		return -1;
	w = snprintf(buf, len, "\x1e{\"pcr\":%u,\"digests\":[", pcr);
	if (w < 0 || (size_t)w >= len)
		return -1;
	n = w;
	for (i = 0; i < ev->count; i++) {
		vg_bytes_to_hex(ev->banks[i].digest, ev->banks[i].len, hex, sizeof(hex));
		w = snprintf(buf + n, len - n, "%s{\"hashAlg\":\"%s\",\"digest\":\"%s\"}", i ? "," : "",
			     ev->banks[i].name, hex);
		if (w < 0 || (size_t)w >= len - n)
			return -1;
		n += w;
	}
	w = snprintf(buf + n, len - n,
		     "],\"content_type\":\"verigate\",\"content\":{\"string\":\"%s\"}}\n", escaped);
	if (w < 0 || (size_t)w >= len - n)
		return -1;
	return n + w;
}

/*
 * The event log, opened and locked as systemd's writers do: created with
 * its directories, exclusively locked for the extend and the write, and
 * marked (S_ISVTX) while a record may be half written.
 */
static int open_log(const char *path, char *err, size_t errlen)
{
	char dir[256], *slash;
	struct stat st;
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST) {
			snprintf(err, errlen, "create %s: %s", dir, strerror(errno));
			return -1;
		}
		*slash = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW, 0600);
	if (fd < 0 || flock(fd, LOCK_EX) || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    fchmod(fd, 0600 | S_ISVTX)) {
		snprintf(err, errlen, "open %s: %s", path, fd < 0 || errno ? strerror(errno) : "not a file");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Extend the PCR with text, then log it: the record follows the extend
 * and is written only if the extend took. */
static int extend_and_log(struct vg_tpm *tpm, const char *log_path, const char *text,
			  struct vg_tpm_event *ev, char *err, size_t errlen)
{
	char record[VG_MEASURE_RECORD_MAX];
	int fd, n, rc = -1;

	fd = open_log(log_path, err, errlen);
	if (fd < 0)
		return -1;
	if (vg_tpm_extend(tpm, VG_MEASURE_PCR, text, strlen(text), ev, err, errlen))
		goto out;
	n = vg_measure_record(VG_MEASURE_PCR, ev, text, record, sizeof(record));
	if (n < 0) {
		snprintf(err, errlen, "the event log record is too long");
		goto out;
	}
	if (lseek(fd, 0, SEEK_END) < 0 || write(fd, record, n) != n || fsync(fd) ||
	    fchmod(fd, 0600)) {
		snprintf(err, errlen, "write %s: %s", log_path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	close(fd);
	return rc;
}

int vg_measure(struct vg_tpm *tpm, const char *log_path, const char *event,
	       struct vg_measured *out, char *err, size_t errlen)
{
	unsigned char pcr[64];
	struct vg_tpm_event ev;
	int i;

	memset(out, 0, sizeof(*out));
	if (extend_and_log(tpm, log_path, event, &ev, err, errlen))
		return -1;
	for (i = 0; i < ev.count; i++)
		if (ev.banks[i].alg == TPM2_ALG_SHA256)
			vg_bytes_to_hex(ev.banks[i].digest, 32, out->event_sha256,
					sizeof(out->event_sha256));
	if (extend_and_log(tpm, log_path, VG_MEASURE_SEPARATOR, &ev, err, errlen))
		return -1;
	if (vg_tpm_read(tpm, VG_MEASURE_PCR, TPM2_ALG_SHA256, pcr, err, errlen) == 32)
		vg_bytes_to_hex(pcr, 32, out->pcr_sha256, sizeof(out->pcr_sha256));
	out->measured = true;
	return 0;
}
