// SPDX-License-Identifier: GPL-2.0
/* Unit tests for vg_dm_reply_parse (loader/dm_query.c), with replies built
 * here the way the kernel lays out DM_TABLE_STATUS. */
#include <linux/dm-ioctl.h>

#include "dm_query.h"
#include "unit.h"

static _Alignas(struct dm_ioctl) char buf[16384];
static struct vg_dm_reply reply;
static char err[512];

/* A reply for device NAME with one target of TYPE and LINE, its spec at
 * OFFSET after the header; returns the reply's size. */
static size_t build(const char *name, const char *type, const char *line, size_t offset)
{
	struct dm_ioctl dmi = { 0 };
	struct dm_target_spec spec = { 0 };
	size_t start = sizeof(dmi) + offset;

	memset(buf, 0, sizeof(buf));
	snprintf(dmi.name, sizeof(dmi.name), "%s", name);
	snprintf(dmi.uuid, sizeof(dmi.uuid), "CRYPT-VERITY-%s", name);
	dmi.flags = DM_ACTIVE_PRESENT_FLAG;
	dmi.target_count = 1;
	dmi.data_start = start;
	dmi.data_size = start + sizeof(spec) + strlen(line) + 1;
	snprintf(spec.target_type, sizeof(spec.target_type), "%s", type);
	memcpy(buf, &dmi, sizeof(dmi));
	memcpy(buf + start, &spec, sizeof(spec));
	memcpy(buf + start + sizeof(spec), line, strlen(line) + 1);
	return dmi.data_size;
}

static int parse(size_t len)
{
	memset(err, 0, sizeof(err));
	return vg_dm_reply_parse(buf, len, &reply, err, sizeof(err));
}

/* Change the header's field F of the reply in buf. */
#define SET_HEADER(f, v)                                    \
	do {                                                \
		struct dm_ioctl h;                          \
		memcpy(&h, buf, sizeof(h));                 \
		h.f = (v);                                  \
		memcpy(buf, &h, sizeof(h));                 \
	} while (0)

TEST(verity_reply)
{
	size_t n = build("root", "verity", "1 254:0 254:16 4096 4096 5888 1 sha256 ab -", 0);

	CHECK_INT_EQ(parse(n), 0);
	CHECK_STR_EQ(reply.name, "root");
	CHECK_STR_EQ(reply.uuid, "CRYPT-VERITY-root");
	CHECK_STR_EQ(reply.target_type, "verity");
	CHECK_STR_EQ(reply.params, "1 254:0 254:16 4096 4096 5888 1 sha256 ab -");
	CHECK_INT_EQ((int)reply.target_count, 1);
	CHECK(reply.live_table && !reply.suspended);
	/* The same at an odd offset: nothing is read through a misaligned cast. */
	n = build("root", "verity", "V", 3);
	CHECK_INT_EQ(parse(n), 0);
	CHECK_STR_EQ(reply.params, "V");
}

TEST(no_targets)
{
	build("empty", "verity", "x", 0);
	SET_HEADER(target_count, 0);
	CHECK_INT_EQ(parse(sizeof(buf)), 0);
	CHECK_INT_EQ((int)reply.target_count, 0);
	CHECK_STR_EQ(reply.params, "");
}

TEST(sizes_outside_the_buffer_refused)
{
	size_t n = build("root", "verity", "V", 0);

	CHECK_INT_EQ(parse(sizeof(struct dm_ioctl) - 1), -1);
	CHECK_STR_HAS(err, "too short");
	CHECK_INT_EQ(parse(n - 1), -1);
	CHECK_STR_HAS(err, "outside the");
	SET_HEADER(data_size, 0xffffffffu);
	CHECK_INT_EQ(parse(sizeof(buf)), -1);
	CHECK_STR_HAS(err, "outside the");
	n = build("root", "verity", "V", 0);
	SET_HEADER(data_start, 0xfffffff0u);
	CHECK_INT_EQ(parse(n), -1);
	CHECK_STR_HAS(err, "too short");
	SET_HEADER(data_start, 8);
	CHECK_INT_EQ(parse(n), -1);
	CHECK_STR_HAS(err, "too short");
}

TEST(unterminated_and_long_lines_refused)
{
	char line[5000];
	size_t n = build("root", "verity", "V", 0);

	buf[n - 1] = 'x';
	CHECK_INT_EQ(parse(n), -1);
	CHECK_STR_HAS(err, "not terminated");
	memset(line, '1', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	n = build("root", "verity", line, 0);
	CHECK_INT_EQ(parse(n), -1);
	CHECK_STR_HAS(err, "too long");
}

TEST(unterminated_names_bounded)
{
	struct dm_ioctl h;
	size_t n = build("root", "verity", "V", 0);

	memcpy(&h, buf, sizeof(h));
	memset(h.name, 'n', sizeof(h.name));
	memset(h.uuid, 'u', sizeof(h.uuid));
	memcpy(buf, &h, sizeof(h));
	CHECK_INT_EQ(parse(n), 0);
	CHECK_INT_EQ((int)strlen(reply.name), DM_NAME_LEN < 127 ? DM_NAME_LEN : 127);
	CHECK_INT_EQ((int)strlen(reply.uuid), DM_UUID_LEN < 128 ? DM_UUID_LEN : 128);
}

int main(int argc, char **argv)
{
	unit_init(argc, argv);
	RUN(verity_reply);
	RUN(no_targets);
	RUN(sizes_outside_the_buffer_refused);
	RUN(unterminated_and_long_lines_refused);
	RUN(unterminated_names_bounded);
	return unit_done();
}
