// SPDX-License-Identifier: GPL-2.0
/*
 * dm-attack: try to reconfigure a device-mapper device (raw ioctls on
 * /dev/mapper/control).
 *   dm-attack reload-verity NAME HEXHASH  load NAME's verity table with
 *                                         root digest HEXHASH into its
 *                                         inactive slot, then clear that
 *                                         slot (never resume)
 *   dm-attack suspend NAME                suspend NAME, then resume it
 *   dm-attack remove NAME                 remove NAME (EBUSY while mounted)
 *   dm-attack rename NAME NEWNAME         rename NAME, then rename it back
 *   dm-attack create-verity NAME LINE [SIGFILE]
 *                                         create NAME with one verity target
 *                                         of table line LINE (removed again
 *                                         if that is refused); with SIGFILE,
 *                                         the PKCS#7 signature of its root
 *                                         hash, handed to dm-verity as a
 *                                         user key (root_hash_sig_key_desc)
 *   dm-attack retable NAME HEX|same [OPT]...
 *                                         make live a verity table for NAME
 *                                         with digest HEX and the extra
 *                                         optional arguments OPT
 *   dm-attack retable-restore NAME [--hash HEX] [OPT]...
 *                                         the same with NAME's own digest
 *                                         (or HEX), then put the old table
 *                                         back live
 * Prints "allowed" (exit 0) or "denied errno=NAME (...)" (exit 1); 2 on
 * misuse or setup error. remove, create-verity and retable leave their
 * change behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <linux/keyctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "outcome.h"

#define DM_BUFFER 16384

struct dm_buf {
	struct dm_ioctl io;
	char data[DM_BUFFER];
};

static int control = -1;

static int setup_error(const char *what)
{
	fprintf(stderr, "dm-attack: %s\n", what);
	return 2;
}

/* A request for device NAME with no payload yet. */
static void dm_init(struct dm_buf *b, const char *name, __u32 flags)
{
	memset(b, 0, sizeof(*b));
	b->io.version[0] = DM_VERSION_MAJOR;
	b->io.data_size = sizeof(*b);
	b->io.data_start = sizeof(b->io);
	b->io.flags = flags;
	snprintf(b->io.name, sizeof(b->io.name), "%s", name);
}

static int dm(unsigned long cmd, struct dm_buf *b)
{
	if (control < 0 && (control = open("/dev/mapper/control", O_RDWR | O_CLOEXEC)) < 0) {
		perror("dm-attack: /dev/mapper/control");
		exit(2);
	}
	return ioctl(control, cmd, b);
}

/* NAME's single verity target: its spec, and its table line in params. */
static int verity_table_of(const char *name, struct dm_target_spec *target, char *params,
			   size_t len)
{
	static struct dm_buf b;
	struct dm_target_spec *spec;
	char *line;

	dm_init(&b, name, DM_STATUS_TABLE_FLAG);
	if (dm(DM_TABLE_STATUS, &b))
		return denied("DM_TABLE_STATUS");
	spec = (struct dm_target_spec *)((char *)&b + b.io.data_start);
	line = (char *)(spec + 1);
	if (b.io.target_count != 1 || (b.io.flags & DM_BUFFER_FULL_FLAG) ||
	    strcmp(spec->target_type, "verity") ||
	    !memchr(line, '\0', (char *)&b + b.io.data_size - line))
		return setup_error("not a single verity target");
	if (snprintf(params, len, "%s", line) >= (int)len)
		return setup_error("table too long");
	*target = *spec;
	return 0;
}

/*
 * A verity table line with the root digest replaced (unless hash is NULL)
 * and the optional arguments opts[0..nopts) added:
 *   version data hash dbs hbs blocks start algorithm DIGEST salt [N opt...]
 */
static int edit_verity_line(const char *line, const char *hash, char **opts, int nopts,
			    char *out, size_t len)
{
	char copy[DM_BUFFER / 2], *field[64], *save = NULL;
	int n = 0, i, nold = 0, used;

	snprintf(copy, sizeof(copy), "%s", line);
	for (char *t = strtok_r(copy, " ", &save); t && n < 64; t = strtok_r(NULL, " ", &save))
		field[n++] = t;
	if (n < 10)
		return setup_error("verity table line too short");
	if (n > 10)
		nold = atoi(field[10]);
	if (hash)
		field[8] = (char *)hash;
	used = 0;
	for (i = 0; i < 10; i++)
		used += snprintf(out + used, len - used, "%s%s", i ? " " : "", field[i]);
	if (nold + nopts)
		used += snprintf(out + used, len - used, " %d", nold + nopts);
	for (i = 0; i < nold && 11 + i < n; i++)
		used += snprintf(out + used, len - used, " %s", field[11 + i]);
	for (i = 0; i < nopts; i++)
		used += snprintf(out + used, len - used, " %s", opts[i]);
	return used < (int)len ? 0 : setup_error("table too long");
}

/* Load one read-only verity target with this line into NAME's inactive slot. */
static int load_verity(const char *name, const struct dm_target_spec *target, const char *line)
{
	static struct dm_buf b;
	struct dm_target_spec *spec;

	dm_init(&b, name, DM_READONLY_FLAG);
	b.io.target_count = 1;
	spec = (struct dm_target_spec *)b.data;
	*spec = *target;
	spec->status = 0;
	spec->next = 0;
	snprintf(spec->target_type, sizeof(spec->target_type), "verity");
	snprintf((char *)(spec + 1), DM_BUFFER / 2, "%s", line);
	return dm(DM_TABLE_LOAD, &b);
}

static int resume(const char *name)
{
	static struct dm_buf b;

	dm_init(&b, name, 0);
	return dm(DM_DEV_SUSPEND, &b);
}

static int reload_verity(const char *name, const char *hash)
{
	static struct dm_buf b;
	struct dm_target_spec target;
	char line[DM_BUFFER / 2], edited[DM_BUFFER / 2];
	int rc;

	if ((rc = verity_table_of(name, &target, line, sizeof(line))) ||
	    (rc = edit_verity_line(line, hash, NULL, 0, edited, sizeof(edited))))
		return rc;
	if (load_verity(name, &target, edited))
		return denied("DM_TABLE_LOAD");
	dm_init(&b, name, 0);
	if (dm(DM_TABLE_CLEAR, &b))
		return setup_error("loaded, but DM_TABLE_CLEAR failed");
	return allowed();
}

/*
 * The table line with root_hash_sig_key_desc naming a user key that holds
 * the signature in sigfile. The key goes into this thread's keyring, which
 * dm-verity searches when the table is loaded from this thread.
 */
static int add_signature(const char *name, const char *line, const char *sigfile, char *out,
			 size_t len)
{
	static char sig[32767];
	char desc[DM_NAME_LEN + 16], *opts[] = { "root_hash_sig_key_desc", desc };
	size_t n;
	FILE *f = fopen(sigfile, "rb");

	if (!f)
		return setup_error("cannot open the signature file");
	n = fread(sig, 1, sizeof(sig), f);
	fclose(f);
	if (n == 0 || n == sizeof(sig))
		return setup_error("signature file empty or too large for a user key");
	snprintf(desc, sizeof(desc), "verigate-test:%s", name);
	if (syscall(SYS_add_key, "user", desc, sig, n, KEY_SPEC_THREAD_KEYRING) < 0)
		return setup_error("add_key of the signature failed");
	return edit_verity_line(line, NULL, opts, 2, out, len);
}

/* A new read-only device NAME with one verity target of this table line
 * (its length follows from the line's data blocks and block size), its
 * root hash signed by sigfile unless that is NULL. */
static int create_verity(const char *name, const char *line, const char *sigfile)
{
	static struct dm_buf b;
	static char signed_line[DM_BUFFER / 2];
	struct dm_target_spec target = { 0 };
	unsigned long long dbs, blocks;
	const char *what;
	int rc;

	if (sscanf(line, "%*s %*s %*s %llu %*s %llu", &dbs, &blocks) != 2)
		return setup_error("not a verity table line");
	if (sigfile) {
		if ((rc = add_signature(name, line, sigfile, signed_line, sizeof(signed_line))))
			return rc;
		line = signed_line;
	}
	target.length = blocks * dbs / 512;
	dm_init(&b, name, 0);
	if (dm(DM_DEV_CREATE, &b))
		return denied("DM_DEV_CREATE");
	what = load_verity(name, &target, line) ? "DM_TABLE_LOAD" : resume(name) ? "resume" : NULL;
	if (what) {
		int e = errno;

		dm_init(&b, name, 0);
		dm(DM_DEV_REMOVE, &b);
		errno = e;
		return denied(what);
	}
	return allowed();
}

/* Give NAME its own verity table with digest hash ("same": unchanged) and
 * the optional arguments opts, and make it live. */
static int retable(const char *name, const char *hash, char **opts, int nopts)
{
	struct dm_target_spec target;
	char line[DM_BUFFER / 2], edited[DM_BUFFER / 2];
	int rc;

	if ((rc = verity_table_of(name, &target, line, sizeof(line))) ||
	    (rc = edit_verity_line(line, strcmp(hash, "same") ? hash : NULL, opts, nopts, edited,
				   sizeof(edited))))
		return rc;
	if (load_verity(name, &target, edited))
		return denied("DM_TABLE_LOAD");
	if (resume(name))
		return denied("resume with the new table");
	return allowed();
}

/*
 * retable for a device the root lives on: everything is built first and
 * all memory locked, and the original table is put back live whatever the
 * outcome (a refused resume leaves the new table in and NAME suspended).
 */
static int retable_and_restore(const char *name, const char *hash, char **opts, int nopts)
{
	struct dm_target_spec target;
	static char line[DM_BUFFER / 2], edited[DM_BUFFER / 2];
	int rc, refused_load = 0, refused_resume = 0, e = 0;

	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		return setup_error("mlockall failed");
	if ((rc = verity_table_of(name, &target, line, sizeof(line))) ||
	    (rc = edit_verity_line(line, hash, opts, nopts, edited, sizeof(edited))))
		return rc;
	if (load_verity(name, &target, edited)) {
		refused_load = 1;
		e = errno;
	} else if (resume(name)) {
		refused_resume = 1;
		e = errno;
	}
	if (!refused_load && (load_verity(name, &target, line) || resume(name))) {
		fprintf(stderr, "dm-attack: putting back the table of %s failed: %s\n", name,
			strerror(errno));
		return 2;
	}
	errno = e;
	if (refused_load)
		return denied("DM_TABLE_LOAD");
	if (refused_resume)
		return denied("resume with the new table");
	return allowed();
}

/* Nothing may touch a filesystem between suspend and resume: the root may
 * live on NAME. Both requests are built first and all memory is locked. */
static int suspend(const char *name)
{
	static struct dm_buf sus, res;

	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		return setup_error("mlockall failed");
	dm_init(&sus, name, DM_SUSPEND_FLAG);
	dm_init(&res, name, 0);
	if (dm(DM_DEV_SUSPEND, &sus))
		return denied("DM_DEV_SUSPEND");
	if (dm(DM_DEV_SUSPEND, &res)) {
		fprintf(stderr, "dm-attack: resume of %s failed: %s\n", name, strerror(errno));
		return 2;
	}
	return allowed();
}

static int rename_dev(const char *name, const char *new_name)
{
	static struct dm_buf b;

	dm_init(&b, name, 0);
	snprintf(b.data, DM_NAME_LEN, "%s", new_name);
	if (dm(DM_DEV_RENAME, &b))
		return denied("DM_DEV_RENAME");
	dm_init(&b, new_name, 0);
	snprintf(b.data, DM_NAME_LEN, "%s", name);
	if (dm(DM_DEV_RENAME, &b))
		return setup_error("renamed, but renaming back failed");
	return allowed();
}

int main(int argc, char **argv)
{
	static struct dm_buf b;

	if ((argc > 2 && strlen(argv[2]) >= DM_NAME_LEN) ||
	    (argc == 4 && !strcmp(argv[1], "rename") && strlen(argv[3]) >= DM_NAME_LEN))
		return setup_error("device name too long");
	if (argc == 4 && !strcmp(argv[1], "reload-verity"))
		return reload_verity(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "suspend"))
		return suspend(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "remove")) {
		dm_init(&b, argv[2], 0);
		if (dm(DM_DEV_REMOVE, &b))
			return denied("DM_DEV_REMOVE");
		return allowed();
	}
	if (argc == 4 && !strcmp(argv[1], "rename"))
		return rename_dev(argv[2], argv[3]);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "create-verity"))
		return create_verity(argv[2], argv[3], argc == 5 ? argv[4] : NULL);
	if (argc >= 4 && !strcmp(argv[1], "retable"))
		return retable(argv[2], argv[3], argv + 4, argc - 4);
	if (argc >= 5 && !strcmp(argv[1], "retable-restore") && !strcmp(argv[3], "--hash"))
		return retable_and_restore(argv[2], argv[4], argv + 5, argc - 5);
	if (argc >= 3 && !strcmp(argv[1], "retable-restore"))
		return retable_and_restore(argv[2], NULL, argv + 3, argc - 3);
	fprintf(stderr, "usage: see the comment at the top of dm-attack.c\n");
	return 2;
}
