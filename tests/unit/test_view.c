// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the parsers of verigate's views (ctl/view.c). */
#include <stdlib.h>

#include "unit.h"
#include "view.h"

static struct vg_status st;
static struct vg_denial_record rec;
static char err[256];

#define STATUS                                                                 \
	"mode enforce\n"                                                       \
	"roothash 0123456789abcdef0123456789abcdef\n"                          \
	"programs verigate_exec,guard_bpf\n"                                   \
	"count exec deny 3\n"

#define DENIAL                                                                 \
	"seq=7 boot_ns=123456789 verdict=deny hook=exec dev=0:23 ino=12 pid=99 " \
	"comm=vg-try errno=1 what=-"

TEST(status_fields)
{
	CHECK_INT_EQ(vg_status_parse(STATUS, &st, err, sizeof(err)), 0);
	CHECK_INT_EQ(st.count, 4);
	CHECK_STR_EQ(vg_status_get(&st, "mode"), "enforce");
	CHECK_STR_EQ(vg_status_get(&st, "programs"), "verigate_exec,guard_bpf");
	CHECK_STR_EQ(vg_status_get(&st, "count"), "exec deny 3");
	CHECK(vg_status_get(&st, "absent") == NULL);
}

TEST(status_refused)
{
	static const char *const bad[] = {
		"",                              /* no mode */
		"roothash 00\n",                 /* no mode */
		"mode enforce",                  /* no newline */
		"mode\n",                        /* no value */
		"Mode enforce\n",                /* key charset */
		"mode  enforce\nx\n",            /* second line has no value */
		"mode enf\x01orce\n",            /* unprintable */
		"mode enforce\n\n",              /* empty line */
		"a_very_long_key_of_more_than_31_chars x\nmode enforce\n",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT_EQ(vg_status_parse(bad[i], &st, err, sizeof(err)), -1);
		CHECK_STR_HAS(err, "status");
	}
}

TEST(status_limits)
{
	char *text = malloc(80 * 12 + 16), *p = text;
	int i;

	for (i = 0; i < VG_STATUS_FIELDS_MAX; i++)
		p += sprintf(p, "k %d\n", i);
	strcpy(p, "mode audit\n");
	CHECK_INT_EQ(vg_status_parse(text, &st, err, sizeof(err)), -1);
	CHECK_STR_HAS(err, "more than 64 lines");
	free(text);

	text = malloc(sizeof(st.fields[0].value) + 16);
	memset(text, 'v', sizeof(st.fields[0].value) + 5);
	memcpy(text, "mode ", 5);
	strcpy(text + sizeof(st.fields[0].value) + 5, "\n");
	CHECK_INT_EQ(vg_status_parse(text, &st, err, sizeof(err)), -1);
	CHECK_STR_HAS(err, "value too long");
	free(text);
}

TEST(denial_fields)
{
	CHECK_INT_EQ(vg_denial_parse(DENIAL, &rec, err, sizeof(err)), 0);
	CHECK_INT_EQ(rec.seq, 7);
	CHECK_INT_EQ(rec.boot_ns, 123456789);
	CHECK_STR_EQ(rec.verdict, "deny");
	CHECK_STR_EQ(rec.hook, "exec");
	CHECK_INT_EQ(rec.dev_major, 0);
	CHECK_INT_EQ(rec.dev_minor, 23);
	CHECK_INT_EQ(rec.ino, 12);
	CHECK_INT_EQ(rec.pid, 99);
	CHECK_STR_EQ(rec.comm, "vg-try");
	CHECK_INT_EQ(rec.err_no, 1);
	CHECK_STR_EQ(rec.what, "");
	CHECK_INT_EQ(vg_denial_parse("seq=8 boot_ns=1 verdict=audit hook=guard dev=0:0 ino=0 pid=1 "
				     "comm=init errno=0 what=umount-lazy-above-bpffs",
				     &rec, err, sizeof(err)), 0);
	CHECK_STR_EQ(rec.what, "umount-lazy-above-bpffs");
	CHECK_STR_EQ(rec.verdict, "audit");
}

TEST(denial_refused)
{
	static const char *const bad[] = {
		"",
		DENIAL " ",                                   /* trailing text */
		"seq=0 boot_ns=1 verdict=deny hook=exec dev=0:1 ino=1 pid=1 comm=a errno=1 what=-",
		"seq=1 boot_ns=1 verdict=allow hook=exec dev=0:1 ino=1 pid=1 comm=a errno=1 what=-",
		"seq=1 boot_ns=1 verdict=deny hook=exec dev=0:1 ino=1 pid=1 comm=a errno=0 what=-",
		"seq=1 boot_ns=1 verdict=audit hook=exec dev=0:1 ino=1 pid=1 comm=a errno=1 what=-",
		"seq=1 boot_ns=1 verdict=deny hook=exec dev=0:1 ino=1 pid=1 comm=a=b errno=1 what=-",
		"seq=1 boot_ns=1 verdict=deny hook=exec dev=0:1 ino=1 pid=1 comm=a b errno=1 what=-",
		"seq=1 boot_ns=1 verdict=deny hook=exec dev=0:1 ino=1 pid=1 comm=0123456789abcdefX errno=1 what=-",
		"seq=1 boot_ns=1 verdict=deny hook=Exec dev=0:1 ino=1 pid=1 comm=a errno=1 what=-",
		"seq=1 boot_ns=x verdict=deny hook=exec dev=0:1 ino=1 pid=1 comm=a errno=1 what=-",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (vg_denial_parse(bad[i], &rec, err, sizeof(err)) != -1)
			unit_fail(__FILE__, __LINE__, "accepted: %s", bad[i]);
		CHECK_STR_HAS(err, "denials");
	}
}

int main(int argc, char **argv)
{
	unit_init(argc, argv);
	RUN(status_fields);
	RUN(status_refused);
	RUN(status_limits);
	RUN(denial_fields);
	RUN(denial_refused);
	return unit_done();
}
