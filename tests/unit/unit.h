/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny header-only unit test framework.
 *
 *   TEST(name) { CHECK(x > 0); CHECK_STR_EQ(s, "a"); }
 *   int main(int argc, char **argv)
 *   {
 *           unit_init(argc, argv);
 *           RUN(name);
 *           return unit_done();
 *   }
 *
 * Each case prints "ok <program>/<case>" or "FAIL <program>/<case>: <why>",
 * where <why> is the first failed check (file:line, expression, values) and
 * how many more failed. A case that makes no check at all fails too. The
 * program exits 1 if any case failed.
 */
#ifndef VG_UNIT_H
#define VG_UNIT_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct unit_state {
	const char *prog;
	int failed_cases;
	long checks;	/* checks made in the current case */
	long failed;	/* failed checks in the current case */
	char why[1024];	/* the first failure of the current case */
};

static struct unit_state unit __attribute__((unused));

static inline void unit_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void unit_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (unit.failed++)
		return;
	n = snprintf(unit.why, sizeof(unit.why), "%s:%d: ", file, line);
	if (n < 0 || (size_t)n >= sizeof(unit.why))
		return;
	va_start(ap, fmt);
	vsnprintf(unit.why + n, sizeof(unit.why) - n, fmt, ap);
	va_end(ap);
}

#define CHECK(cond)                                                        \
	do {                                                               \
		unit.checks++;                                             \
		if (!(cond))                                               \
			unit_fail(__FILE__, __LINE__, "CHECK(%s)", #cond); \
	} while (0)

#define CHECK_INT_EQ(a, b)                                                   \
	do {                                                                 \
		long long unit_a_ = (a), unit_b_ = (b);                      \
		unit.checks++;                                               \
		if (unit_a_ != unit_b_)                                      \
			unit_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", \
				  #a, #b, unit_a_, unit_b_);                 \
	} while (0)

#define CHECK_STR_EQ(a, b)                                                    \
	do {                                                                  \
		const char *unit_a_ = (a), *unit_b_ = (b);                    \
		unit.checks++;                                                \
		if (!unit_a_ || !unit_b_ || strcmp(unit_a_, unit_b_))         \
			unit_fail(__FILE__, __LINE__,                         \
				  "%s == %s: \"%.300s\" != \"%.300s\"", #a, #b, \
				  unit_a_ ? unit_a_ : "(null)",               \
				  unit_b_ ? unit_b_ : "(null)");              \
	} while (0)

/* haystack contains needle */
#define CHECK_STR_HAS(hay, needle)                                            \
	do {                                                                  \
		const char *unit_a_ = (hay), *unit_b_ = (needle);             \
		unit.checks++;                                                \
		if (!unit_a_ || !unit_b_ || !strstr(unit_a_, unit_b_))        \
			unit_fail(__FILE__, __LINE__,                         \
				  "%s contains %s: \"%.300s\" lacks \"%.300s\"", \
				  #hay, #needle, unit_a_ ? unit_a_ : "(null)", \
				  unit_b_ ? unit_b_ : "(null)");              \
	} while (0)

#define TEST(name) static void test_##name(void)
#define RUN(name) unit_run(#name, test_##name)

/* Print s with control characters and non-ASCII bytes escaped. */
static inline void unit_print_escaped(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c >= 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
}

static inline void unit_init(int argc, char **argv)
{
	const char *p = argc > 0 && argv[0] ? argv[0] : "unit";
	const char *slash = strrchr(p, '/');

	if (slash)
		p = slash + 1;
	if (!strncmp(p, "test_", 5) && p[5])
		p += 5;
	unit.prog = p;
}

static inline void unit_run(const char *name, void (*fn)(void))
{
	unit.checks = 0;
	unit.failed = 0;
	unit.why[0] = '\0';
	fn();
	if (!unit.failed && !unit.checks)
		unit_fail(__FILE__, __LINE__, "the case made no checks");
	if (unit.failed) {
		unit.failed_cases++;
		printf("FAIL %s/%s: ", unit.prog, name);
		unit_print_escaped(unit.why);
		if (unit.failed > 1)
			printf(" (and %ld more failed checks)", unit.failed - 1);
		putchar('\n');
	} else {
		printf("ok %s/%s\n", unit.prog, name);
	}
	fflush(stdout);
}

static inline int unit_done(void)
{
	return unit.failed_cases ? 1 : 0;
}

/* A string of len (< 16384) copies of c, in a static buffer. */
static inline const char *unit_repeat(char c, size_t len)
{
	static char buf[16384];

	memset(buf, c, len);
	buf[len] = '\0';
	return buf;
}

/* A deterministic xorshift64 generator for fuzz loops. */
static inline uint64_t unit_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

/* A number in [0, n). */
static inline size_t unit_below(uint64_t *state, size_t n)
{
	return n ? (size_t)(unit_rand(state) % n) : 0;
}

#endif
