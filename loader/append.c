// SPDX-License-Identifier: GPL-2.0
#include "append.h"

#include <stdarg.h>
#include <stdio.h>

void vg_append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*used >= len)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	*used = w < 0 ? len : *used + w;
}
