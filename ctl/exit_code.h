/* SPDX-License-Identifier: GPL-2.0 */
/* verigatectl's exit codes, as verigatectl(8) documents them. */
#ifndef VG_EXIT_CODE_H
#define VG_EXIT_CODE_H

enum exit_code {
	EXIT_OK,	   /* enforcing (status), every probe refused (check), or done */
	EXIT_ERROR,	   /* a view could not be read or parsed, or a probe not made */
	EXIT_USAGE,
	EXIT_AUDIT,	   /* loaded in audit mode (status, check) */
	EXIT_NOT_LOADED,
	EXIT_CHECK_FAILED, /* check: the gate let a probe through, or did not count it */
};

#endif
