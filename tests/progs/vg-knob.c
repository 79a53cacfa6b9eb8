// SPDX-License-Identifier: GPL-2.0
/*
 * vg-knob: read and write kernel knobs (sysctl, sysfs, tracefs, securityfs
 * files) for tests/guest/knob-sweep.sh, the way a shell cannot: a sysctl
 * file gives its value only to a read at offset 0 (the shell's read
 * builtin reads a byte at a time and gets the first digit), and some files
 * block a reader (tomoyo's query).
 *
 *   vg-knob read [FILE...]   each FILE, or each path on stdin, one line at
 *                            a time (answered at once: it can serve a shell
 *                            through a pair of fifos): PATH|STATE|VALUE,
 *                            STATE the number of lines (0: empty) or
 *                            E:ERRNO when the open or read failed (EAGAIN:
 *                            it would block; EINTR: it blocked for a
 *                            second), VALUE the first line (a tab as a
 *                            space, other control characters as '?', at
 *                            most 200 characters)
 *   vg-knob restore          lines PATH|VALUE on stdin: write VALUE to PATH
 *                            (one write at offset 0, as echo VALUE >), read
 *                            it again; each one that then differs, or whose
 *                            write failed, as PATH|VALUE NOW|WRITE RESULT;
 *                            last "restored N of M"
 *   vg-knob write-list VALUE paths on stdin: write VALUE to each; each
 *                            refusal as PATH|ERRNO; last "written N of M"
 * Exit 0; 2 on misuse.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VALUE_MAX 200

static char buf[65536];

static const char *errname(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* The first line of FILE into value (at most VALUE_MAX characters), the
 * number of lines into *lines; 0, or an errno. */
static int read_knob(const char *path, char *value, int *lines)
{
	size_t len = 0, i, n;
	ssize_t r;
	int fd, err = 0;

	*value = 0;
	*lines = 0;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno;
	/* A reader that waits anyway (O_NONBLOCK is only a hint to a
	 * driver) is interrupted after a second. */
	alarm(1);
	while (len < sizeof(buf) - 1) {
		r = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (r < 0) {
			err = errno;
			break;
		}
		if (!r)
			break;
		len += (size_t)r;
	}
	alarm(0);
	close(fd);
	if (err)
		return err;
	buf[len] = 0;
	for (i = 0; i < len; i++)
		if (buf[i] == '\n' && i + 1 < len)
			(*lines)++;
	if (len)
		(*lines)++;
	n = strcspn(buf, "\n");
	if (n > VALUE_MAX)
		n = VALUE_MAX;
	for (i = 0; i < n; i++)
		value[i] = buf[i] == '\t' ? ' ' : (buf[i] < 32 || buf[i] == 127) ? '?' : buf[i];
	value[n] = 0;
	return 0;
}

static void print_read(const char *path)
{
	char value[VALUE_MAX + 1];
	int lines, err;

	err = read_knob(path, value, &lines);
	if (err)
		printf("%s|E:%s|\n", path, errname(err));
	else
		printf("%s|%d|%s\n", path, lines, value);
	/* Answers one line at a time to a shell on the other end of a pipe. */
	fflush(stdout);
}

/* Write value and a newline in one write at offset 0: 0 or an errno. */
static int write_knob(const char *path, const char *value)
{
	size_t len = strlen(value);
	char *line = malloc(len + 2);
	int fd, err = 0;
	ssize_t w;

	if (!line)
		return ENOMEM;
	memcpy(line, value, len);
	line[len] = '\n';
	line[len + 1] = 0;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
	} else {
		w = write(fd, line, len + 1);
		if (w < 0)
			err = errno;
		if (close(fd) && !err)
			err = errno;
	}
	free(line);
	return err;
}

/* One line of stdin without its newline, or NULL at the end. */
static char *next_line(char **line, size_t *cap)
{
	ssize_t n = getline(line, cap, stdin);

	if (n < 0)
		return NULL;
	if (n && (*line)[n - 1] == '\n')
		(*line)[n - 1] = 0;
	return *line;
}

static int cmd_restore(void)
{
	char *line = NULL, *value, now[VALUE_MAX + 1];
	size_t cap = 0;
	int lines, err, total = 0, good = 0;

	while (next_line(&line, &cap)) {
		value = strchr(line, '|');
		if (!value)
			continue;
		*value++ = 0;
		total++;
		err = write_knob(line, value);
		if (!read_knob(line, now, &lines) && !strcmp(now, value)) {
			good++;
			continue;
		}
		printf("%s|%s|%s\n", line, now, err ? errname(err) : "written");
	}
	printf("restored %d of %d\n", good, total);
	free(line);
	return 0;
}

static int cmd_write_list(const char *value)
{
	char *line = NULL;
	size_t cap = 0;
	int err, total = 0, good = 0;

	while (next_line(&line, &cap)) {
		if (!*line)
			continue;
		total++;
		err = write_knob(line, value);
		if (err)
			printf("%s|%s\n", line, errname(err));
		else
			good++;
	}
	printf("written %d of %d\n", good, total);
	free(line);
	return 0;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	char *line = NULL;
	size_t cap = 0;
	int i;

	/* No SA_RESTART: a blocked read returns EINTR at the alarm. */
	sigaction(SIGALRM, &sa, NULL);
	if (argc >= 2 && !strcmp(argv[1], "read")) {
		for (i = 2; i < argc; i++)
			print_read(argv[i]);
		if (argc == 2)
			while (next_line(&line, &cap))
				if (*line)
					print_read(line);
		free(line);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "restore"))
		return cmd_restore();
	if (argc == 3 && !strcmp(argv[1], "write-list"))
		return cmd_write_list(argv[2]);
	fprintf(stderr, "usage: vg-knob read [FILE...] | restore | write-list VALUE\n");
	return 2;
}
