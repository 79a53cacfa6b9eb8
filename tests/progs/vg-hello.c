// SPDX-License-Identifier: GPL-2.0
/* A dynamically linked program: the payload the exec tests try to run. */
#include <stdio.h>

int main(void)
{
	puts("vg-hello: running");
	return 0;
}
