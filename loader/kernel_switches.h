/* SPDX-License-Identifier: GPL-2.0 */
/* What the running kernel says about the switches the gate depends on. */
#ifndef VERIGATE_KERNEL_SWITCHES_H
#define VERIGATE_KERNEL_SWITCHES_H

#include <stdbool.h>
#include <stddef.h>

#define VG_LSM_LIST "/sys/kernel/security/lsm"
#define VG_FTRACE_ENABLED "/proc/sys/kernel/ftrace_enabled"

/* Whether name is one of the comma-separated LSMs of list (as the kernel
 * lists them, as lsm= and CONFIG_LSM name them). */
bool vg_lsm_list_has(const char *list, const char *name);

/* Whether LSM name is in the kernel's list of active ones (securityfs must
 * be mounted). The list as read goes into list (len bytes, without its
 * newline; empty if it cannot be read). */
bool vg_lsm_active(const char *name, char *list, size_t len);

/* Whether ftrace patches its call sites, and with them the trampolines of
 * BPF LSM programs: false only when kernel.ftrace_enabled reads 0 (true on
 * a kernel without the switch). */
bool vg_ftrace_patching_on(void);

/*
 * Whether a write through /proc/self/mem may go where the writer itself
 * could not write, as a tracer's does (FOLL_FORCE): tried on a read-only
 * page of the caller's own. Not with proc_mem.force_override=never, nor
 * with =ptrace (Debian's 7.2 default), where only a tracer forces, and no
 * process is its own tracer. True when the try cannot be made.
 */
bool vg_proc_mem_writes_forced(void);

#endif
