// SPDX-License-Identifier: GPL-2.0
/*
 * verigatectl: what the gate is doing, read from its read-only views in
 * bpffs, and whether it still refuses. It needs no BPF fd and can change
 * nothing.
 *   verigatectl [--dir DIR] status [--json]
 *   verigatectl [--dir DIR] denials [--json] [--follow]
 *   verigatectl [--dir DIR] check [--json]
 *   verigatectl expect [--from HEX | --event | --pcrlock] EVENT
 *   verigatectl expect [--from HEX | --event | --pcrlock] --cmdline TEXT
 *                      [--btf FILE] [--kernel-config FILE]
 * Exit codes (exit_code.h, verigatectl(8)): 0 enforcing (status), every
 * probe refused (check), or done, 1 a view could not be read or parsed or a
 * probe not made, 2 usage, 3 loaded in audit mode, 4 not loaded, 5 the gate
 * failed a probe (check).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "check.h"
#include "exit_code.h"
#include "expect.h"
#include "file_text.h"
#include "gate_event.h"
#include "measured.h"
#include "pcrlock.h"
#include "view.h"

#define DEFAULT_DIR "/sys/fs/bpf/verigate"
#define VIEW_MAX (64 * 1024)

static const char *dir = DEFAULT_DIR;

static int usage(void);

/* The whole text of view NAME, or NULL with *code set. */
static char *read_view(const char *name, int *code)
{
	char path[4096], *buf;
	bool full;
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
	buf = vg_read_fd(fd, VIEW_MAX, &full);
	if (!buf || full) {
		fprintf(stderr, "verigatectl: %s: %s\n", path, buf ? "too long" : strerror(errno));
		close(fd);
		free(buf);
		*code = EXIT_ERROR;
		return NULL;
	}
	close(fd);
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

/* The views' values are printable ASCII; a path given with --dir may hold
 * control characters too. */
static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if ((unsigned char)*s < ' ') {
			printf("\\u%04x", *s);
			continue;
		}
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

/* The "verity_device ..." lines (one per device) as an array of strings. */
static void json_devices(const struct vg_status *st)
{
	bool first = true;
	int i;

	putchar('[');
	for (i = 0; i < st->count; i++) {
		if (strcmp(st->fields[i].key, "verity_device"))
			continue;
		fputs(first ? "" : ",", stdout);
		json_string(st->fields[i].value);
		first = false;
	}
	putchar(']');
}


/* Where the TPM measurement is read from; the environment may point
 * elsewhere, as systemd's $SYSTEMD_MEASURE_LOG_USERSPACE does (tests). */
static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);

	return v && *v ? v : fallback;
}

/* What the loader measured, and PCR 9 now; count -1 if the log is
 * unreadable or malformed, 0 if it holds no verigate record. */
static void read_measured(struct vg_measured_log *m, char pcr[65])
{
	char path[512], err[256], *text;
	bool full;
	size_t i;

	m->count = 0;
	pcr[0] = '\0';
	text = vg_read_file(env_or("VERIGATE_MEASURE_LOG", VG_MEASURED_LOG), 256 * 1024, &full);
	if (text && vg_measured_parse(text, m, err, sizeof(err)) < 0) {
		fprintf(stderr, "verigatectl: %s\n", err);
		m->count = -1;
	}
	free(text);
	snprintf(path, sizeof(path), "%s/9", env_or("VERIGATE_PCR_DIR", VG_MEASURED_PCR_DIR));
	text = vg_read_file(path, 128, &full);
	if (!text)
		return;
	for (i = 0; i < 64 && isxdigit((unsigned char)text[i]); i++)
		pcr[i] = tolower((unsigned char)text[i]);
	pcr[i] = '\0';
	free(text);
}

static void print_measured_text(void)
{
	struct vg_measured_log m;
	char pcr[65];
	int i;

	read_measured(&m, pcr);
	if (m.count <= 0)
		printf("  %-17s nothing (no verigate record in %s)\n", "measured",
		       env_or("VERIGATE_MEASURE_LOG", VG_MEASURED_LOG));
	for (i = 0; i < m.count; i++)
		printf("  %-17s PCR %u sha256 %s \"%s\"\n", i ? "" : "measured", m.events[i].pcr,
		       m.events[i].sha256, m.events[i].text);
	if (pcr[0])
		printf("  %-17s %s\n", "pcr9_sha256", pcr);
}

static void print_measured_json(void)
{
	struct vg_measured_log m;
	char pcr[65];
	int i;

	read_measured(&m, pcr);
	fputs(",\"measured\":[", stdout);
	for (i = 0; i < m.count; i++) {
		printf("%s{\"pcr\":%u,\"sha256\":\"%s\",\"event\":", i ? "," : "", m.events[i].pcr,
		       m.events[i].sha256);
		json_string(m.events[i].text);
		putchar('}');
	}
	printf("],\"pcr9_sha256\":");
	json_value(pcr[0] ? pcr : "");
}

/*
 * expect: PCR 9 after the loader's event and separator, from start (zero,
 * or --from HEX); the event given, or predicted (--cmdline, on the kernel
 * of --btf and --kernel-config, by default the running one). --event
 * prints the event instead, --pcrlock the two extends as a
 * systemd-pcrlock component.
 */
static int cmd_expect(int argc, char **argv, int i)
{
	const char *start = "0000000000000000000000000000000000000000000000000000000000000000";
	char digests[2][65], value[65], config[300], err[512];
	static char predicted[VG_MEASURE_EVENT_MAX];
	const char *list[2] = { digests[0], digests[1] }, *event = NULL, *cmdline = NULL;
	struct vg_expect_kernel kernel = { .btf_path = "/sys/kernel/btf/vmlinux" };
	const char *texts[2] = { NULL, VG_MEASURE_SEPARATOR };
	static char component[4 * VG_MEASURE_EVENT_MAX];
	bool print_event = false, pcrlock = false, from = false;
	struct utsname un;

	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--event"))
			print_event = true;
		else if (!strcmp(argv[i], "--pcrlock"))
			pcrlock = true;
		else if (i + 1 < argc && !strcmp(argv[i], "--from"))
			start = argv[++i], from = true;
		else if (i + 1 < argc && !strcmp(argv[i], "--cmdline"))
			cmdline = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--btf"))
			kernel.btf_path = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--kernel-config"))
			kernel.config_path = argv[++i];
		else if (!event && argv[i][0] != '-')
			event = argv[i];
		else
			return usage();
	}
	/* A pcrlock component is one link of a chain: what came before
	 * PCR 9's verigate records is other components' business. */
	if (!event == !cmdline || (pcrlock && (print_event || from)))
		return usage();
	if (cmdline) {
		if (!kernel.config_path) {
			if (uname(&un)) {
				fprintf(stderr, "verigatectl: expect: uname: %s\n", strerror(errno));
				return EXIT_ERROR;
			}
			snprintf(config, sizeof(config), "/boot/config-%s", un.release);
			kernel.config_path = config;
		}
		if (vg_expect_event(cmdline, &kernel, predicted, sizeof(predicted), err,
				    sizeof(err))) {
			fprintf(stderr, "verigatectl: expect --cmdline: %s\n", err);
			return EXIT_ERROR;
		}
		event = predicted;
	}
	if (pcrlock) {
		texts[0] = event;
		if (vg_pcrlock_component(VG_MEASURE_PCR, texts, 2, component, sizeof(component)) < 0) {
			fprintf(stderr, "verigatectl: expect --pcrlock: the component does not fit\n");
			return EXIT_ERROR;
		}
		printf("%s\n", component);
		return EXIT_OK;
	}
	vg_measured_digest(event, digests[0]);
	vg_measured_digest(VG_MEASURE_SEPARATOR, digests[1]);
	if (vg_measured_replay(start, list, 2, value)) {
		fprintf(stderr, "verigatectl: expect --from %s: not 64 lower-case hex digits\n", start);
		return EXIT_USAGE;
	}
	printf("%s\n", print_event ? event : value);
	return EXIT_OK;
}

static int print_status_json(const struct vg_status *st)
{
	int i;

	putchar('{');
	for (i = 0; i < st->count; i++) {
		const struct vg_status_field *f = &st->fields[i];

		if (!strcmp(f->key, "count") || !strcmp(f->key, "verity_device"))
			continue;
		printf("\"%s\":", f->key);
		if (!strcmp(f->key, "programs"))
			json_list(f->value);
		else
			json_value(f->value);
		putchar(',');
	}
	fputs("\"verity_devices\":", stdout);
	json_devices(st);
	fputs(",\"counts\":", stdout);
	if (json_counts(st)) {
		fprintf(stderr, "verigatectl: status: a count line is malformed\n");
		return -1;
	}
	print_measured_json();
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
	print_measured_text();
}

/* The status view, parsed, or NULL with *code set. */
static struct vg_status *read_status(int *code)
{
	struct vg_status *st;
	char err[256], *text;

	text = read_view("status", code);
	if (!text)
		return NULL;
	st = malloc(sizeof(*st));
	if (!st || vg_status_parse(text, st, err, sizeof(err))) {
		fprintf(stderr, "verigatectl: %s\n", st ? err : strerror(ENOMEM));
		*code = EXIT_ERROR;
		free(st);
		st = NULL;
	}
	free(text);
	return st;
}

static bool audit_mode(const struct vg_status *st)
{
	return strcmp(vg_status_get(st, "mode"), "enforce") != 0;
}

static int cmd_status(bool json)
{
	struct vg_status *st;
	int code = EXIT_OK;

	st = read_status(&code);
	if (!st)
		return code;
	if (json ? print_status_json(st) : (print_status_text(st), 0))
		code = EXIT_ERROR;
	else
		code = audit_mode(st) ? EXIT_AUDIT : EXIT_OK;
	free(st);
	return code;
}

/* The counter a probe of hook must raise, in st. */
static int find_counter(const struct vg_status *st, const char *hook, bool audit, uint64_t *n)
{
	const char *verdict = vg_check_counter_verdict(audit);

	if (!vg_status_counter(st, hook, verdict, n))
		return EXIT_OK;
	fprintf(stderr, "verigatectl: status: no \"count %s %s N\" line\n", hook, verdict);
	return EXIT_ERROR;
}

/* The probe's counter, from a fresh read of the status view. */
static int read_counter(const struct vg_probe *p, bool audit, uint64_t *n)
{
	struct vg_status *st;
	int code = EXIT_OK;

	st = read_status(&code);
	if (!st)
		return code;
	code = find_counter(st, p->name, audit, n);
	free(st);
	return code;
}

/* Each probe between two reads of its counter, so that what one probe
 * sets off (in audit mode the exec probe's copy maps itself) is not
 * counted for the next. */
static int run_probes(struct vg_probe *probes, bool audit, bool execve_check)
{
	struct vg_check_target t;
	int i, code = EXIT_OK;

	vg_check_target_open(&t, dir, execve_check);
	for (i = 0; i < VG_PROBES && !code; i++) {
		probes[i].name = vg_probe_defs[i].name;
		code = read_counter(&probes[i], audit, &probes[i].before);
		if (code)
			break;
		vg_probe_defs[i].run(&probes[i], &t);
		code = read_counter(&probes[i], audit, &probes[i].after);
	}
	vg_check_target_close(&t);
	return code;
}

static void print_probe_json(const struct vg_probe *p, bool audit)
{
	static const char *const results[] = {
		[VG_PROBE_PASSED] = "passed",
		[VG_PROBE_FAILED] = "failed",
		[VG_PROBE_UNKNOWN] = "error",
		[VG_PROBE_SKIPPED] = "skipped",
	};
	static const char *const outcomes[] = {
		[VG_PROBE_REFUSED] = "refused",
		[VG_PROBE_NOT_REFUSED] = "not_refused",
		[VG_PROBE_ERROR] = "error",
		[VG_PROBE_NOT_APPLICABLE] = "not_applicable",
	};
	char line[512];

	printf("{\"probe\":\"%s\",\"result\":\"%s\",\"outcome\":\"%s\",\"errno\":", p->name,
	       results[vg_probe_judge(p, audit)], outcomes[p->outcome]);
	if (p->outcome == VG_PROBE_REFUSED)
		json_string(vg_check_errno_name(p->err));
	else
		fputs("null", stdout);
	fputs(",\"what\":", stdout);
	if (p->outcome == VG_PROBE_REFUSED)
		fputs("null", stdout);
	else
		json_string(p->what);
	printf(",\"counter\":\"%s %s\",\"before\":%" PRIu64 ",\"after\":%" PRIu64 ",\"line\":",
	       p->name, vg_check_counter_verdict(audit), p->before, p->after);
	vg_probe_line(p, audit, line, sizeof(line));
	json_string(line);
	putchar('}');
}

static void print_check(const struct vg_probe *probes, bool audit,
			const struct vg_check_result *r, bool json)
{
	char line[512];
	int i;

	if (!json) {
		for (i = 0; i < VG_PROBES; i++) {
			vg_probe_line(&probes[i], audit, line, sizeof(line));
			puts(line);
		}
		puts(r->summary);
		return;
	}
	printf("{\"mode\":\"%s\",\"result\":\"%s\",\"exit\":%d,\"summary\":",
	       audit ? "audit" : "enforce", r->word, r->exit_code);
	json_string(r->summary);
	fputs(",\"probes\":[", stdout);
	for (i = 0; i < VG_PROBES; i++) {
		fputs(i ? "," : "", stdout);
		print_probe_json(&probes[i], audit);
	}
	puts("]}");
}

static int cmd_check(bool json)
{
	struct vg_probe probes[VG_PROBES];
	struct vg_check_result r;
	struct vg_status *st;
	int i, code = EXIT_OK;
	bool audit, execve_check;
	const char *value;
	uint64_t n;

	st = read_status(&code);
	if (!st)
		return code;
	audit = audit_mode(st);
	value = vg_status_get(st, "execve_check");
	execve_check = value && !strcmp(value, "yes");
	/* Every counter is there before any probe runs. */
	for (i = 0; i < VG_PROBES && !code; i++)
		code = find_counter(st, vg_probe_defs[i].name, audit, &n);
	free(st);
	if (code)
		return code;
	/* Without root, a refusal by file modes or capabilities looks like
	 * the gate's: the counters would catch it, but say less. */
	if (geteuid() != 0) {
		fprintf(stderr, "verigatectl: check must run as root\n");
		return EXIT_ERROR;
	}
	memset(probes, 0, sizeof(probes));
	code = run_probes(probes, audit, execve_check);
	if (code)
		return code;
	vg_check_judge(probes, VG_PROBES, audit, &r);
	print_check(probes, audit, &r, json);
	return r.exit_code;
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
			"       verigatectl [--dir DIR] denials [--json] [--follow]\n"
			"       verigatectl [--dir DIR] check [--json]\n"
			"       verigatectl expect [--from HEX | --event | --pcrlock] EVENT\n"
			"       verigatectl expect [--from HEX | --event | --pcrlock] --cmdline TEXT\n"
			"                          [--btf FILE] [--kernel-config FILE]\n"
			"exit: 0 enforcing (status), every probe refused (check), or done;\n"
			"      1 error; 2 usage; 3 audit mode; 4 not loaded;\n"
			"      5 check: the gate failed a probe\n");
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	bool json = false, follow = false;
	const char *cmd;
	int i = 1;

	/* The copy that check's exec probe tries to run: it stops here. */
	if (argc == 2 && !strcmp(argv[1], VG_CHECK_RAN_ARG))
		return VG_CHECK_RAN_STATUS;
	if (argc > 2 && !strcmp(argv[1], "--dir")) {
		dir = argv[2];
		i = 3;
	}
	if (i >= argc)
		return usage();
	cmd = argv[i++];
	if (!strcmp(cmd, "expect"))
		return cmd_expect(argc, argv, i);
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
	if (!strcmp(cmd, "check"))
		return cmd_check(json);
	return usage();
}
