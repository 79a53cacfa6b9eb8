// SPDX-License-Identifier: GPL-2.0
/*
 * mount-attack: try to hide, move or unmount the bpffs that holds the pins,
 * or a mount above it, from the initial mount namespace or from a new one,
 * or remove the name it sits on.
 *   mount-attack [--ns KIND] over TARGET   mount a tmpfs on TARGET (then unmount it)
 *   mount-attack [--ns KIND] move FROM TO  mount(2) MS_MOVE FROM to TO (then back)
 *   mount-attack [--ns KIND] move-mount FROM TO
 *                                   move_mount(2) the mount at FROM to TO
 *   mount-attack [--ns KIND] umount TARGET      umount2(TARGET, 0)
 *   mount-attack [--ns KIND] umount-lazy TARGET umount2(TARGET, MNT_DETACH)
 *   mount-attack [--ns KIND] propagation TYPE TARGET
 *                                   make TARGET and the mounts under it
 *                                   shared, slave, private or unbindable
 *   mount-attack enslave-umount TARGET HOW VICTIM
 *                                   a new namespace is made (its copies peers
 *                                   of the originals); the initial TARGET and
 *                                   the mounts under it are made its slaves
 *                                   by mount_setattr(2), which asks no LSM;
 *                                   then the new namespace unmounts VICTIM
 *                                   (HOW: umount or umount-lazy), which the
 *                                   kernel propagates to the slaves. Prints
 *                                   the unmount's outcome; TARGET is made
 *                                   shared again after.
 *   mount-attack [--ns KIND] remove-mountpoint HOW PATH
 *                                   unmount PATH's copy here (lazily, if
 *                                   there is one), then
 *                                   remove the name a mount sits on
 *                                   elsewhere (HOW: rmdir, unlink,
 *                                   rename-away: to PATH.away, or
 *                                   rename-over: an empty PATH.new onto it)
 *   mount-attack [--ns KIND] pivot-umount DIR
 *                                   what a container runtime does: bind the
 *                                   root (recursively) onto DIR, pivot_root
 *                                   into it and lazily unmount the old root
 * KIND: the operation runs in a new mount namespace, whose mounts are
 *   shared   as unshare(CLONE_NEWNS) leaves them: peers of the originals
 *   slave    made slaves (mount --make-rslave /), as container runtimes do
 *   private  made private (mount --make-rprivate /)
 *   sandbox  made slaves, then shared among themselves (systemd's services)
 *   userns   in a new user namespace too (its copies are slaves, and locked)
 * Prints "allowed" (exit 0) or "denied errno=NAME (...)" (exit 1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outcome.h"

#ifndef OPEN_TREE_CLOEXEC
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

/* include/uapi/linux/mount.h's struct mount_attr (5.12+). */
struct vg_mount_attr {
	__u64 attr_set, attr_clr, propagation, userns_fd;
};

static int setup_error(const char *what)
{
	fprintf(stderr, "mount-attack: %s: %s\n", what, strerror(errno));
	return 2;
}

/* 0, or -1 with errno; a user namespace maps root to root. */
static int enter_namespace(const char *kind)
{
	unsigned long propagation = 0;
	int flags = CLONE_NEWNS;

	if (!strcmp(kind, "slave") || !strcmp(kind, "sandbox"))
		propagation = MS_SLAVE;
	else if (!strcmp(kind, "private"))
		propagation = MS_PRIVATE;
	else if (!strcmp(kind, "userns"))
		flags |= CLONE_NEWUSER;
	else if (strcmp(kind, "shared"))
		return errno = EINVAL, -1;
	if (unshare(flags))
		return -1;
	if (flags & CLONE_NEWUSER) {
		int fd = open("/proc/self/uid_map", O_WRONLY);

		if (fd < 0 || write(fd, "0 0 1", 5) != 5)
			return -1;
		close(fd);
	}
	if (propagation && mount(NULL, "/", NULL, MS_REC | propagation, NULL))
		return -1;
	/* systemd's service namespaces: slaves, shared again among their copies. */
	if (!strcmp(kind, "sandbox") && mount(NULL, "/", NULL, MS_REC | MS_SHARED, NULL))
		return -1;
	return 0;
}

static int move_mount_attack(const char *from, const char *to)
{
	int fd = syscall(SYS_open_tree, AT_FDCWD, from, OPEN_TREE_CLOEXEC);

	if (fd < 0)
		return setup_error("open_tree");
	return result(syscall(SYS_move_mount, fd, "", AT_FDCWD, to, MOVE_MOUNT_F_EMPTY_PATH),
		      "move_mount");
}

static int change_propagation(const char *type, const char *target)
{
	static const struct {
		const char *name;
		unsigned long flag;
	} types[] = { { "shared", MS_SHARED }, { "slave", MS_SLAVE },
		      { "private", MS_PRIVATE }, { "unbindable", MS_UNBINDABLE } };
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(*types); i++)
		if (!strcmp(type, types[i].name))
			return result(mount(NULL, target, NULL, MS_REC | types[i].flag, NULL),
				      "mount propagation change");
	fprintf(stderr, "mount-attack: unknown propagation %s\n", type);
	return 2;
}

static int set_propagation(const char *target, __u64 propagation)
{
	struct vg_mount_attr attr = { .propagation = propagation };

	return syscall(SYS_mount_setattr, AT_FDCWD, target, AT_RECURSIVE, &attr, sizeof(attr));
}

/* The new namespace's side: ready, then the unmount when told. */
static void enslave_umount_child(int ready, int go, const char *how, const char *victim)
{
	char c;
	int rc;

	if (unshare(CLONE_NEWNS) || write(ready, "r", 1) != 1 || read(go, &c, 1) != 1)
		_exit(setup_error("unshare(CLONE_NEWNS)"));
	rc = result(umount2(victim, strcmp(how, "umount-lazy") ? 0 : MNT_DETACH),
		    "umount in the new namespace");
	fflush(stdout);
	_exit(rc);
}

static int enslave_umount(const char *target, const char *how, const char *victim)
{
	int ready[2], go[2], status = 0, rc;
	pid_t pid;
	char c;

	if (pipe(ready) || pipe(go))
		return setup_error("pipe");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return setup_error("fork");
	if (!pid)
		enslave_umount_child(ready[1], go[0], how, victim);
	close(ready[1]);
	close(go[0]);
	if (read(ready[0], &c, 1) != 1) {
		waitpid(pid, &status, 0);
		return 2;
	}
	rc = set_propagation(target, MS_SLAVE);
	if (rc)
		rc = setup_error("mount_setattr MS_SLAVE");
	else if (write(go[1], "g", 1) != 1)
		rc = setup_error("telling the new namespace");
	close(go[1]);
	waitpid(pid, &status, 0);
	set_propagation(target, MS_SHARED);
	if (rc)
		return rc;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

static int remove_mountpoint(const char *how, const char *path)
{
	char other[4096];

	if (umount2(path, MNT_DETACH) && errno != EINVAL) /* EINVAL: no mount here */
		return setup_error("unmount the copy here");
	if (!strcmp(how, "rmdir"))
		return result(rmdir(path), "rmdir");
	if (!strcmp(how, "unlink"))
		return result(unlink(path), "unlink");
	if (!strcmp(how, "rename-away")) {
		snprintf(other, sizeof(other), "%s.away", path);
		return result(rename(path, other), "rename away");
	}
	if (!strcmp(how, "rename-over")) {
		snprintf(other, sizeof(other), "%s.new", path);
		if (mkdir(other, 0700))
			return setup_error("mkdir");
		return result(rename(other, path), "rename onto it");
	}
	fprintf(stderr, "mount-attack: unknown removal %s\n", how);
	return 2;
}

static int pivot_umount(const char *dir)
{
	if (mount("/", dir, NULL, MS_BIND | MS_REC, NULL))
		return denied("mount --rbind /");
	if (chdir(dir))
		return setup_error("chdir");
	if (syscall(SYS_pivot_root, ".", "."))
		return denied("pivot_root");
	return result(umount2(".", MNT_DETACH), "umount MNT_DETACH of the old root");
}

int main(int argc, char **argv)
{
	int rc;

	if (argc > 3 && !strcmp(argv[1], "--ns")) {
		if (enter_namespace(argv[2]))
			return setup_error("enter the namespace");
		argc -= 2;
		argv += 2;
	}
	if (argc == 3 && !strcmp(argv[1], "over")) {
		rc = mount("none", argv[2], "tmpfs", 0, NULL);
		if (!rc)
			umount2(argv[2], 0);
		return result(rc, "mount tmpfs");
	}
	if (argc == 4 && !strcmp(argv[1], "move")) {
		rc = mount(argv[2], argv[3], NULL, MS_MOVE, NULL);
		if (!rc)
			mount(argv[3], argv[2], NULL, MS_MOVE, NULL);
		return result(rc, "mount MS_MOVE");
	}
	if (argc == 4 && !strcmp(argv[1], "move-mount"))
		return move_mount_attack(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "umount"))
		return result(umount2(argv[2], 0), "umount");
	if (argc == 3 && !strcmp(argv[1], "umount-lazy"))
		return result(umount2(argv[2], MNT_DETACH), "umount MNT_DETACH");
	if (argc == 4 && !strcmp(argv[1], "propagation"))
		return change_propagation(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "enslave-umount"))
		return enslave_umount(argv[2], argv[3], argv[4]);
	if (argc == 4 && !strcmp(argv[1], "remove-mountpoint"))
		return remove_mountpoint(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "pivot-umount"))
		return pivot_umount(argv[2]);
	fprintf(stderr, "usage: see the comment at the top of mount-attack.c\n");
	return 2;
}
