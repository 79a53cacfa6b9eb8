// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-attack: try to reach BPF objects or load programs that could change
 * an LSM verdict (and, as a check, programs that must keep working).
 *   bpf-attack get-fd prog|map|link ID  BPF_{PROG,MAP,LINK}_GET_FD_BY_ID
 *   bpf-attack obj-get PATH             BPF_OBJ_GET of a bpffs pin
 *   bpf-attack link-detach LINK         get an fd for LINK (an ID, or the
 *                                       path of its pin), BPF_LINK_DETACH
 *   bpf-attack link-update LINK         get an fd for LINK, load a program
 *                                       that does nothing (for an iterator
 *                                       link: an iterator over BPF maps,
 *                                       the views' target; else a socket
 *                                       filter), BPF_LINK_UPDATE to it
 *   bpf-attack map-write ID             get an fd for map ID, update the
 *                                       element of key 0 to a zero value
 *   bpf-attack load-lsm                 load (never attach) an LSM program
 *                                       for bprm_check_security
 *   bpf-attack load-fmod-ret            load an fmod_ret program for
 *                                       security_bprm_check
 *   bpf-attack load-socket-filter       load a socket filter, attach it to
 *                                       a UDP socket (SO_ATTACH_BPF)
 *   bpf-attack cgroup-sysctl-ids        the IDs of the sysctl programs on the
 *                                       root cgroup (BPF_PROG_QUERY: no fd
 *                                       needed), one a line
 *   bpf-attack cgroup-sysctl-detach ID  get an fd for program ID, detach it
 *                                       from the root cgroup's sysctl hook
 *   bpf-attack load-sysctl              load a sysctl program, attach it to
 *                                       the root cgroup (/sys/fs/cgroup) with
 *                                       BPF_F_ALLOW_MULTI, detach it
 *   bpf-attack load-ext ID PATH         get an fd for program ID, replace its
 *                                       global function vg_note_refusal by
 *                                       one that returns 0 (freplace), run
 *                                       PATH while it is attached; the
 *                                       output names the step that failed
 * Prints "allowed" (exit 0) or "denied errno=NAME (...)" (exit 1); 2 on
 * misuse. A verifier log, if any, goes to stderr.
 */
#define _GNU_SOURCE
#include <bpf/btf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/magic.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/vfs.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outcome.h"

#define ptr(p) ((__u64)(unsigned long)(p))

static char verifier_log[65536];

static int usage(void)
{
	fprintf(stderr, "usage: see the comment at the top of bpf-attack.c\n");
	return 2;
}

static int sys_bpf(enum bpf_cmd cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static int parse_id(const char *s, __u32 *id)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || !*s || *end || !v || v > 0xffffffffUL) {
		fprintf(stderr, "bpf-attack: bad ID '%s'\n", s);
		return -1;
	}
	*id = v;
	return 0;
}

static int get_fd(const char *kind, const char *id_arg)
{
	union bpf_attr attr;
	enum bpf_cmd cmd;
	const char *what;

	if (!strcmp(kind, "prog"))
		cmd = BPF_PROG_GET_FD_BY_ID, what = "BPF_PROG_GET_FD_BY_ID";
	else if (!strcmp(kind, "map"))
		cmd = BPF_MAP_GET_FD_BY_ID, what = "BPF_MAP_GET_FD_BY_ID";
	else if (!strcmp(kind, "link"))
		cmd = BPF_LINK_GET_FD_BY_ID, what = "BPF_LINK_GET_FD_BY_ID";
	else
		return usage();
	memset(&attr, 0, sizeof(attr));
	/* prog_id, map_id and link_id share one field. */
	if (parse_id(id_arg, &attr.prog_id))
		return 2;
	if (sys_bpf(cmd, &attr) < 0)
		return denied(what);
	return allowed();
}

static int obj_get(const char *path)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.pathname = ptr(path);
	if (sys_bpf(BPF_OBJ_GET, &attr) < 0)
		return denied("BPF_OBJ_GET");
	return allowed();
}

static int fd_by_id(enum bpf_cmd cmd, __u32 id)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.link_id = id;
	return sys_bpf(cmd, &attr);
}

/* BPF_OBJ_GET_INFO_BY_FD into info, of len bytes. */
static int obj_info(int fd, void *info, __u32 len)
{
	union bpf_attr attr;

	memset(info, 0, len);
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = len;
	attr.info.info = ptr(info);
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr);
}

/* Zeroes for a key and a value of any map but per-CPU ones. */
static char zeroes[65536];

static int map_write(const char *id_arg)
{
	struct bpf_map_info info;
	union bpf_attr attr;
	__u32 id;
	int fd;

	if (parse_id(id_arg, &id))
		return 2;
	fd = fd_by_id(BPF_MAP_GET_FD_BY_ID, id);
	if (fd < 0)
		return denied("BPF_MAP_GET_FD_BY_ID");
	if (obj_info(fd, &info, sizeof(info)) < 0)
		return denied("BPF_OBJ_GET_INFO_BY_FD");
	if (info.type == BPF_MAP_TYPE_PERCPU_ARRAY || info.type == BPF_MAP_TYPE_PERCPU_HASH ||
	    info.key_size > sizeof(zeroes) || info.value_size > sizeof(zeroes)) {
		fprintf(stderr, "bpf-attack: map %u: per-CPU or too large\n", id);
		return 2;
	}
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = ptr(zeroes);
	attr.value = ptr(zeroes);
	attr.flags = BPF_ANY;
	return result(sys_bpf(BPF_MAP_UPDATE_ELEM, &attr), "BPF_MAP_UPDATE_ELEM");
}

/* Load "r0 = ret; exit" with what attr already says of its type and
 * target; returns the fd, or -1 with errno set. */
static int load_returning(union bpf_attr *attr, int ret)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = ret },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd, e;

	attr->insns = ptr(insns);
	attr->insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr->license = ptr("GPL");
	attr->log_buf = ptr(verifier_log);
	attr->log_size = sizeof(verifier_log);
	attr->log_level = 1;
	fd = sys_bpf(BPF_PROG_LOAD, attr);
	if (fd < 0 && verifier_log[0]) {
		e = errno;
		fprintf(stderr, "verifier log:\n%s", verifier_log);
		errno = e;
	}
	return fd;
}

static int load_attr(union bpf_attr *attr)
{
	return load_returning(attr, 0);
}

static int load(enum bpf_prog_type type, enum bpf_attach_type attach_type, __u32 btf_id,
		int target_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.expected_attach_type = attach_type;
	attr.attach_btf_id = btf_id;
	attr.attach_prog_fd = target_fd;
	return load_attr(&attr);
}

/* Load a program of TYPE for the kernel function FUNC: its fd, -1 with
 * errno set, or -2 if there is no such function. */
static int load_for_func(enum bpf_prog_type type, enum bpf_attach_type attach_type,
			 const char *func)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	int id;

	if (!vmlinux) {
		fprintf(stderr, "bpf-attack: vmlinux BTF: %s\n", strerror(errno));
		return -2;
	}
	id = btf__find_by_name_kind(vmlinux, func, BTF_KIND_FUNC);
	btf__free(vmlinux);
	if (id < 0) {
		fprintf(stderr, "bpf-attack: no FUNC %s in vmlinux BTF\n", func);
		return -2;
	}
	return load(type, attach_type, id, 0);
}

/* Load a program of TYPE for the kernel function FUNC; never attach it. */
static int try_load_for_func(enum bpf_prog_type type, enum bpf_attach_type attach_type,
			     const char *func, const char *what)
{
	int fd = load_for_func(type, attach_type, func);

	if (fd == -2)
		return 2;
	if (fd < 0)
		return denied(what);
	close(fd);
	return allowed();
}

/* An fd for link (an ID, or a pin's path), or -1 after saying why. */
static int link_fd(const char *link)
{
	union bpf_attr attr;
	__u32 id;
	int fd;

	if (link[0] == '/') {
		memset(&attr, 0, sizeof(attr));
		attr.pathname = ptr(link);
		fd = sys_bpf(BPF_OBJ_GET, &attr);
		if (fd < 0)
			denied("BPF_OBJ_GET");
		return fd;
	}
	if (parse_id(link, &id))
		exit(2);
	fd = fd_by_id(BPF_LINK_GET_FD_BY_ID, id);
	if (fd < 0)
		denied("BPF_LINK_GET_FD_BY_ID");
	return fd;
}

/* LSM links support neither detach nor update (EOPNOTSUPP; EINVAL for an
 * update); an iterator link's program can be replaced by another iterator
 * over the same target. */
static int link_change(const char *link, bool update)
{
	struct bpf_link_info info;
	union bpf_attr attr;
	int fd, prog;

	fd = link_fd(link);
	if (fd < 0)
		return 1;
	memset(&attr, 0, sizeof(attr));
	if (!update) {
		attr.link_detach.link_fd = fd;
		if (sys_bpf(BPF_LINK_DETACH, &attr) < 0)
			return denied("BPF_LINK_DETACH");
		return allowed();
	}
	if (obj_info(fd, &info, sizeof(info)) < 0)
		return denied("BPF_OBJ_GET_INFO_BY_FD");
	if (info.type == BPF_LINK_TYPE_ITER) {
		prog = load_for_func(BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, "bpf_iter_bpf_map");
		if (prog < 0)
			return prog == -2 ? 2 : denied("BPF_PROG_LOAD iter/bpf_map");
	} else {
		prog = load(BPF_PROG_TYPE_SOCKET_FILTER, 0, 0, 0);
		if (prog < 0)
			return denied("BPF_PROG_LOAD socket filter");
	}
	memset(&attr, 0, sizeof(attr));
	attr.link_update.link_fd = fd;
	attr.link_update.new_prog_fd = prog;
	if (sys_bpf(BPF_LINK_UPDATE, &attr) < 0)
		return denied("BPF_LINK_UPDATE");
	return allowed();
}

static int load_socket_filter(void)
{
	int fd, sock;

	fd = load(BPF_PROG_TYPE_SOCKET_FILTER, 0, 0, 0);
	if (fd < 0)
		return denied("BPF_PROG_LOAD socket filter");
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0) {
		fprintf(stderr, "bpf-attack: socket: %s\n", strerror(errno));
		return 2;
	}
	if (setsockopt(sock, SOL_SOCKET, SO_ATTACH_BPF, &fd, sizeof(fd)))
		return denied("setsockopt SO_ATTACH_BPF");
	return allowed();
}

/* The root cgroup: /sys/fs/cgroup where systemd mounted cgroup2, else a
 * mount of its own (busybox init mounts none); -1 after saying why not. */
static int open_root_cgroup(void)
{
	char dir[] = "/tmp/bpf-attack-cgroup.XXXXXX";
	struct statfs fs;
	int fd = open("/sys/fs/cgroup", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0 && !fstatfs(fd, &fs) && fs.f_type == CGROUP2_SUPER_MAGIC)
		return fd;
	if (fd >= 0)
		close(fd);
	fd = -1;
	if (!mkdtemp(dir) || mount("cgroup2", dir, "cgroup2", 0, NULL) ||
	    (fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		fprintf(stderr, "bpf-attack: no cgroup2 at /sys/fs/cgroup, nor at %s: %s\n", dir,
			strerror(errno));
	umount2(dir, MNT_DETACH);
	rmdir(dir);
	return fd;
}

static int cgroup_sysctl_ids(void)
{
	__u32 ids[64], i;
	union bpf_attr attr;
	int cgroup = open_root_cgroup();

	if (cgroup < 0)
		return 2;
	memset(&attr, 0, sizeof(attr));
	attr.query.target_fd = cgroup;
	attr.query.attach_type = BPF_CGROUP_SYSCTL;
	attr.query.prog_ids = ptr(ids);
	attr.query.prog_cnt = sizeof(ids) / sizeof(ids[0]);
	if (sys_bpf(BPF_PROG_QUERY, &attr) < 0)
		return denied("BPF_PROG_QUERY");
	for (i = 0; i < attr.query.prog_cnt; i++)
		printf("%u\n", ids[i]);
	return 0;
}

/* BPF_PROG_ATTACH (flags, BPF_F_ALLOW_MULTI) or BPF_PROG_DETACH (flags 0:
 * 6.6+ refuses any) of program fd on the root cgroup's sysctl hook; -1
 * with errno set, or -2 if there is no root cgroup to open. */
static int root_cgroup_sysctl(enum bpf_cmd cmd, int fd, __u32 flags)
{
	union bpf_attr attr;
	int cgroup = open_root_cgroup();

	if (cgroup < 0)
		return -2;
	memset(&attr, 0, sizeof(attr));
	attr.target_fd = cgroup;
	attr.attach_bpf_fd = fd;
	attr.attach_type = BPF_CGROUP_SYSCTL;
	attr.attach_flags = flags;
	return sys_bpf(cmd, &attr) < 0 ? -1 : 0;
}

static int cgroup_sysctl_detach(const char *id_arg)
{
	__u32 id;
	int fd, rc;

	if (parse_id(id_arg, &id))
		return 2;
	fd = fd_by_id(BPF_PROG_GET_FD_BY_ID, id);
	if (fd < 0)
		return denied("BPF_PROG_GET_FD_BY_ID");
	rc = root_cgroup_sysctl(BPF_PROG_DETACH, fd, 0);
	return rc == -2 ? 2 : result(rc, "BPF_PROG_DETACH");
}

static int load_sysctl(void)
{
	union bpf_attr attr;
	int fd, rc;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_CGROUP_SYSCTL;
	attr.expected_attach_type = BPF_CGROUP_SYSCTL;
	fd = load_returning(&attr, 1); /* 1: lets every sysctl through */
	if (fd < 0)
		return denied("BPF_PROG_LOAD sysctl");
	rc = root_cgroup_sysctl(BPF_PROG_ATTACH, fd, BPF_F_ALLOW_MULTI);
	if (rc)
		return rc == -2 ? 2 : denied("BPF_PROG_ATTACH to the root cgroup");
	rc = root_cgroup_sysctl(BPF_PROG_DETACH, fd, 0);
	return rc == -2 ? 2 : result(rc, "BPF_PROG_DETACH");
}

/*
 * The BTF an extension program needs: one FUNC, "vg_ext", of the prototype
 * of verigate's global function int vg_note_refusal(__u32, __u32, __u32,
 * __u64). Returns the BTF fd and the FUNC's id, or -1.
 */
static int ext_btf(__u32 *func_id)
{
	struct btf *btf = btf__new_empty();
	int s32, u32, u64, proto, func, fd;

	if (!btf)
		return -1;
	s32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	u32 = btf__add_int(btf, "unsigned int", 4, 0);
	u64 = btf__add_int(btf, "long long unsigned int", 8, 0);
	proto = btf__add_func_proto(btf, s32);
	if (s32 < 0 || u32 < 0 || u64 < 0 || proto < 0 || btf__add_func_param(btf, "hook", u32) ||
	    btf__add_func_param(btf, "op", u32) || btf__add_func_param(btf, "dev", u32) ||
	    btf__add_func_param(btf, "ino", u64))
		return -1;
	func = btf__add_func(btf, "vg_ext", BTF_FUNC_GLOBAL, proto);
	if (func < 0 || btf__load_into_kernel(btf))
		return -1;
	*func_id = func;
	fd = dup(btf__fd(btf));
	btf__free(btf);
	return fd;
}

/* The id of FUNC name in the BTF of the program behind fd, or -1. */
static int prog_func_id(int fd, const char *name)
{
	struct bpf_prog_info info;
	struct btf *btf;
	int id;

	memset(&info, 0, sizeof(info));
	if (obj_info(fd, &info, sizeof(info)) || !info.btf_id)
		return -1;
	btf = btf__load_from_kernel_by_id(info.btf_id);
	if (!btf)
		return -1;
	id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	btf__free(btf);
	return id;
}

/*
 * Replace verigate's global function vg_note_refusal, in program ID, by
 * one that returns 0 (refusals then go unlogged and unrecorded), attach
 * it, run PATH in a child while it is attached, and detach.
 */
static int load_ext(const char *id_arg, const char *path)
{
	struct bpf_func_info func_info = { .insn_off = 0 };
	union bpf_attr attr;
	int target, target_func, btf, fd, link;
	pid_t child;

	memset(&attr, 0, sizeof(attr));
	if (parse_id(id_arg, &attr.prog_id))
		return 2;
	target = sys_bpf(BPF_PROG_GET_FD_BY_ID, &attr);
	if (target < 0)
		return denied("BPF_PROG_GET_FD_BY_ID of the target");
	target_func = prog_func_id(target, "vg_note_refusal");
	btf = ext_btf(&func_info.type_id);
	if (target_func < 0 || btf < 0) {
		fprintf(stderr, "bpf-attack: no vg_note_refusal in program %s, or no BTF for the extension\n",
			id_arg);
		return 2;
	}
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_EXT;
	attr.attach_btf_id = target_func;
	attr.attach_prog_fd = target;
	attr.prog_btf_fd = btf;
	attr.func_info = ptr(&func_info);
	attr.func_info_rec_size = sizeof(func_info);
	attr.func_info_cnt = 1;
	fd = load_attr(&attr);
	if (fd < 0)
		return denied("BPF_PROG_LOAD ext");
	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.prog_fd = fd;
	link = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
	if (link < 0)
		return denied("attach the extension");
	fflush(stdout);
	child = fork();
	if (child == 0) {
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	waitpid(child, NULL, 0);
	close(link);
	return allowed();
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "get-fd"))
		return get_fd(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "obj-get"))
		return obj_get(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "link-detach"))
		return link_change(argv[2], false);
	if (argc == 3 && !strcmp(argv[1], "map-write"))
		return map_write(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "link-update"))
		return link_change(argv[2], true);
	if (argc == 2 && !strcmp(argv[1], "load-lsm"))
		return try_load_for_func(BPF_PROG_TYPE_LSM, BPF_LSM_MAC,
					 "bpf_lsm_bprm_check_security", "BPF_PROG_LOAD lsm");
	if (argc == 2 && !strcmp(argv[1], "load-fmod-ret"))
		return try_load_for_func(BPF_PROG_TYPE_TRACING, BPF_MODIFY_RETURN,
					 "security_bprm_check", "BPF_PROG_LOAD fmod_ret");
	if (argc == 2 && !strcmp(argv[1], "load-socket-filter"))
		return load_socket_filter();
	if (argc == 2 && !strcmp(argv[1], "cgroup-sysctl-ids"))
		return cgroup_sysctl_ids();
	if (argc == 3 && !strcmp(argv[1], "cgroup-sysctl-detach"))
		return cgroup_sysctl_detach(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "load-sysctl"))
		return load_sysctl();
	if (argc == 4 && !strcmp(argv[1], "load-ext"))
		return load_ext(argv[2], argv[3]);
	return usage();
}
