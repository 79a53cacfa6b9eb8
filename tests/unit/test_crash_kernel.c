// SPDX-License-Identifier: GPL-2.0
/* Unit tests for vg_crash_cmdline (loader/crash_kernel.c). */
#include "crash_kernel.h"
#include "unit.h"

static char out[512];

static const char *crash(const char *cmdline)
{
	memset(out, 0xa5, sizeof(out));
	return vg_crash_cmdline(cmdline, out, sizeof(out)) ? NULL : out;
}

TEST(keeps_the_gate_and_drops_this_boots_options)
{
	CHECK_STR_EQ(crash("BOOT_IMAGE=/vmlinuz root=/dev/mapper/root rd.verigate=1 roothash=ab "
			   "crashkernel=128M rd.verigate.kdump=/boot/vmlinuz "
			   "rd.verigate.kdump_initrd=/boot/initrd.img initrd=\\\\initrd quiet\n"),
		     "root=/dev/mapper/root rd.verigate=1 roothash=ab quiet " VG_CRASH_ARGS);
}

TEST(quotes_group_and_are_kept)
{
	CHECK_STR_EQ(crash("a \"crashkernel\"=1G b=\"x y\" \"rd.verigate.kdump=/a b\" c"),
		     "a b=\"x y\" c " VG_CRASH_ARGS);
}

TEST(only_whole_keys_are_dropped)
{
	CHECK_STR_EQ(crash("crashkernel_x=1 xcrashkernel=1 rd.verigate.kdumpx=1 crashkernel"),
		     "crashkernel_x=1 xcrashkernel=1 rd.verigate.kdumpx=1 " VG_CRASH_ARGS);
}

TEST(empty_and_blank)
{
	CHECK_STR_EQ(crash(""), VG_CRASH_ARGS);
	CHECK_STR_EQ(crash(" \t\n "), VG_CRASH_ARGS);
}

TEST(too_long_is_refused)
{
	char line[600];

	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	CHECK(crash(line) == NULL);
	/* Exactly what fits, and one byte more. */
	memset(line, 'b', sizeof(line));
	line[sizeof(out) - sizeof(VG_CRASH_ARGS) - 1] = '\0';
	CHECK(crash(line) != NULL);
	CHECK_INT_EQ((int)strlen(out), (int)sizeof(out) - 1);
	line[sizeof(out) - sizeof(VG_CRASH_ARGS) - 1] = 'b';
	line[sizeof(out) - sizeof(VG_CRASH_ARGS)] = '\0';
	CHECK(crash(line) == NULL);
	CHECK_INT_EQ(vg_crash_cmdline("a", out, 0), -1);
}

int main(int argc, char **argv)
{
	unit_init(argc, argv);
	RUN(keeps_the_gate_and_drops_this_boots_options);
	RUN(quotes_group_and_are_kept);
	RUN(only_whole_keys_are_dropped);
	RUN(empty_and_blank);
	RUN(too_long_is_refused);
	return unit_done();
}
