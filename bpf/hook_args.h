/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VERIGATE_HOOK_ARGS_H
#define VERIGATE_HOOK_ARGS_H

#include <stdbool.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

/*
 * Whether argument n of the hook is NULL, tested on its plain value: 6.12's
 * verifier takes mmap_file's file for never NULL and drops a NULL test on
 * the typed pointer, but anonymous mappings pass NULL (later kernels mark
 * the argument __nullable and want the typed test too, so both are made).
 * It also refuses any access to a void * argument, such as
 * bdev_setintegrity's value.
 */
static __always_inline bool arg_is_null(unsigned long long *ctx, int n)
{
	__u64 value = 0;

	bpf_probe_read_kernel(&value, sizeof(value), &ctx[n]);
	return !value;
}

/*
 * Argument n as a plain number, for arithmetic the verifier refuses on a
 * typed pointer (container_of, which steps before the pointer).
 */
static __always_inline unsigned long arg_value(unsigned long long *ctx, int n)
{
	__u64 value = 0;

	bpf_probe_read_kernel(&value, sizeof(value), &ctx[n]);
	return value;
}

#endif
