// SPDX-License-Identifier: GPL-2.0
/*
 * verigatectl: what the gate is doing, read from its read-only views in
 * bpffs. It needs no BPF fd and can change nothing.
 *   verigatectl [--dir DIR] status [--json]
 *   verigatectl [--dir DIR] denials [--json] [--follow]
 * Exit codes (verigatectl(8)): 0 enforcing (status) or done, 1 a view could
 * not be read or parsed, 2 usage, 3 loaded in audit mode (status), 4 not
 * loaded.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "view.h"

#define DEFAULT_DIR "/sys/fs/bpf/verigate"
#define VIEW_MAX (64 * 1024)

enum exit_code { EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_AUDIT, EXIT_NOT_LOADED };

static const char *dir = DEFAULT_DIR;

/* The whole text of view NAME, or NULL with *code set. */
static char *read_view(const char *name, int *code)
{
	char path[4096], *buf;
	size_t len = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*code = errno == ENOENT ? EXIT_NOT_LOADED : EXIT_ERROR;
		if (errno == ENOENT)
			fprintf(stderr, "verigatectl: verigate is not loaded (no %s)\n", path);
		else
			fprintf(stderr, "verigatectl: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	buf = malloc(VIEW_MAX);
	if (!buf) {
		close(fd);
		*code = EXIT_ERROR;
		return NULL;
	}
	while (len < VIEW_MAX - 1 && (n = read(fd, buf + len, VIEW_MAX - 1 - len)) > 0)
		len += n;
	if (n < 0 || len == VIEW_MAX - 1) {
		fprintf(stderr, "verigatectl: %s: %s\n", path, n < 0 ? strerror(errno) : "too long");
		close(fd);
		free(buf);
		*code = EXIT_ERROR;
		return NULL;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

static bool is_number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* The values are printable ASCII; JSON needs only '"' and '\' escaped. */
static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

static void json_value(const char *v)
{
	if (!strcmp(v, "yes") || !strcmp(v, "no"))
		fputs(!strcmp(v, "yes") ? "true" : "false", stdout);
	else if (is_number(v))
		fputs(v, stdout);
	else
		json_string(v);
}

static void json_list(const char *csv)
{
	char copy[sizeof(((struct vg_status_field *)0)->value)], *tok, *save;
	bool first = true;

	snprintf(copy, sizeof(copy), "%s", csv);
	putchar('[');
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		fputs(first ? "" : ",", stdout);
		json_string(tok);
		first = false;
	}
	putchar(']');
}

/* The "count HOOK VERDICT N" lines as {"HOOK":{"VERDICT":N,...},...}. */
static int json_counts(const struct vg_status *st)
{
	char hook[32], verdict[32], prev[32] = "";
	uint64_t n;
	int i;

	fputs("{", stdout);
	for (i = 0; i < st->count; i++) {
		if (strcmp(st->fields[i].key, "count"))
			continue;
		if (sscanf(st->fields[i].value, "%31[a-z_] %31[a-z] %" SCNu64, hook, verdict, &n) != 3)
			return -1;
		if (strcmp(hook, prev))
			printf("%s\"%s\":{", prev[0] ? "}," : "", hook);
		else
			putchar(',');
		printf("\"%s\":%" PRIu64, verdict, n);
		snprintf(prev, sizeof(prev), "%s", hook);
	}
	fputs(prev[0] ? "}}" : "}", stdout);
	return 0;
}

static int print_status_json(const struct vg_status *st)
{
	int i;

	putchar('{');
	for (i = 0; i < st->count; i++) {
		const struct vg_status_field *f = &st->fields[i];

		if (!strcmp(f->key, "count"))
			continue;
		printf("\"%s\":", f->key);
		if (!strcmp(f->key, "programs"))
			json_list(f->value);
		else
			json_value(f->value);
		putchar(',');
	}
	fputs("\"counts\":", stdout);
	if (json_counts(st)) {
		fprintf(stderr, "verigatectl: status: a count line is malformed\n");
		return -1;
	}
	puts("}");
	return 0;
}

static void print_status_text(const struct vg_status *st)
{
	const char *mode = vg_status_get(st, "mode");
	char hook[32], verdict[32];
	uint64_t n;
	int i;

	printf("verigate: %s\n", !strcmp(mode, "enforce") ? "enforcing" : "audit (logs, denies nothing)");
	for (i = 0; i < st->count; i++) {
		const struct vg_status_field *f = &st->fields[i];

		if (!strcmp(f->key, "mode") || !strcmp(f->key, "count"))
			continue;
		printf("  %-17s %s\n", f->key, f->value);
	}
	printf("  %-17s %10s %10s %10s\n", "decisions", "allow", "deny", "audit");
	for (i = 0; i < st->count; i++) {
		if (strcmp(st->fields[i].key, "count") ||
		    sscanf(st->fields[i].value, "%31[a-z_] %31[a-z] %" SCNu64, hook, verdict, &n) != 3)
			continue;
		if (!strcmp(verdict, "allow"))
			printf("    %-15s", hook);
		printf(" %10" PRIu64, n);
		if (!strcmp(verdict, "audit"))
			putchar('\n');
	}
}

static int cmd_status(bool json)
{
	struct vg_status *st;
	char err[256], *text;
	int code = EXIT_OK;

	text = read_view("status", &code);
	if (!text)
		return code;
	st = malloc(sizeof(*st));
	if (!st || vg_status_parse(text, st, err, sizeof(err))) {
		fprintf(stderr, "verigatectl: %s\n", st ? err : strerror(ENOMEM));
		code = EXIT_ERROR;
	} else if (json ? print_status_json(st) : (print_status_text(st), 0)) {
		code = EXIT_ERROR;
	} else {
		code = strcmp(vg_status_get(st, "mode"), "enforce") ? EXIT_AUDIT : EXIT_OK;
	}
	free(st);
	free(text);
	return code;
}

/* Wall-clock time of a CLOCK_BOOTTIME stamp, as ISO 8601 UTC. */
static void wall_time(uint64_t boot_ns, char *buf, size_t len)
{
	struct timespec real, boot;
	time_t secs;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_BOOTTIME, &boot);
	secs = real.tv_sec - boot.tv_sec + (time_t)(boot_ns / 1000000000ULL);
	gmtime_r(&secs, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void print_denial(const struct vg_denial_record *r, bool json)
{
	char when[32];

	wall_time(r->boot_ns, when, sizeof(when));
	if (json) {
		printf("{\"seq\":%" PRIu64 ",\"time\":\"%s\",\"boot_ns\":%" PRIu64
		       ",\"verdict\":\"%s\",\"hook\":\"%s\",\"dev\":\"%u:%u\",\"ino\":%" PRIu64
		       ",\"pid\":%u,\"comm\":",
		       r->seq, when, r->boot_ns, r->verdict, r->hook, r->dev_major, r->dev_minor,
		       r->ino, r->pid);
		json_string(r->comm);
		printf(",\"errno\":%s,\"what\":", r->err_no ? "\"EPERM\"" : "null");
		if (r->what[0])
			json_string(r->what);
		else
			fputs("null", stdout);
		puts("}");
		return;
	}
	printf("%s %-5s %-10s", when, r->verdict, r->hook);
	if (r->what[0])
		printf(" %s", r->what);
	else
		printf(" dev=%u:%u ino=%" PRIu64, r->dev_major, r->dev_minor, r->ino);
	printf(" pid=%u comm=%s%s\n", r->pid, r->comm, r->err_no ? " EPERM" : "");
}

/* Print the records of the denials view newer than *last; *last becomes
 * the newest seen. */
static int show_denials(bool json, uint64_t *last)
{
	char err[256], *text, *line, *save;
	struct vg_denial_record rec;
	uint64_t first = 0;
	int code = EXIT_OK;

	text = read_view("denials", &code);
	if (!text)
		return code;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (vg_denial_parse(line, &rec, err, sizeof(err))) {
			fprintf(stderr, "verigatectl: %s\n", err);
			code = EXIT_ERROR;
			break;
		}
		if (rec.seq <= *last)
			continue;
		if (!first && *last && rec.seq > *last + 1)
			fprintf(stderr, "verigatectl: %" PRIu64 " refusals were overwritten before they were read\n",
				rec.seq - *last - 1);
		first = rec.seq;
		print_denial(&rec, json);
		*last = rec.seq;
	}
	fflush(stdout);
	free(text);
	return code;
}

static int cmd_denials(bool json, bool follow)
{
	uint64_t last = 0;
	int code;

	do {
		code = show_denials(json, &last);
		if (code || !follow)
			return code;
		sleep(1);
	} while (true);
}

static int usage(void)
{
	fprintf(stderr, "usage: verigatectl [--dir DIR] status [--json]\n"
			"       verigatectl [--dir DIR] denials [--json] [--follow]\n");
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	bool json = false, follow = false;
	const char *cmd;
	int i = 1;

	if (argc > 2 && !strcmp(argv[1], "--dir")) {
		dir = argv[2];
		i = 3;
	}
	if (i >= argc)
		return usage();
	cmd = argv[i++];
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--follow") && !strcmp(cmd, "denials"))
			follow = true;
		else
			return usage();
	}
	if (!strcmp(cmd, "status"))
		return cmd_status(json);
	if (!strcmp(cmd, "denials"))
		return cmd_denials(json, follow);
	return usage();
}
