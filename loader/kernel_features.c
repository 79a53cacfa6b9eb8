// SPDX-License-Identifier: GPL-2.0
/*
 * The feature probe walks the kernel's raw BTF itself rather than through
 * libbpf's btf__parse: libbpf indexes every type, which was most of the
 * probe's time, and it indexes the same BTF again when it loads the
 * programs. Here nothing is indexed: one pass finds the functions wanted,
 * by name, and keeps every prototype's parameter count. The functions are
 * the four hooks whose prototypes tell the features, a kfunc, and the caller's (the
 * programs' attach targets, which libbpf would look up with a linear search
 * each: on 7.2 six times the parse itself). The same pass looks for one
 * member of struct linux_binprm.
 */
#define _GNU_SOURCE /* qsort_r */
#include "kernel_features.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/btf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

enum hook {
	HOOK_BPF,
	HOOK_IOCTL_COMPAT,
	HOOK_BDEV_SETINTEGRITY,
	HOOK_BDEV_FREE,
	KFUNC_REAL_DATA_INODE,
	HOOKS
};

/* The functions BPF LSM programs attach to, one per hook, and the kfunc
 * that tells an overlay file's data layer. */
static const char *const hook_funcs[HOOKS] = {
	[HOOK_BPF] = "bpf_lsm_bpf",
	[HOOK_IOCTL_COMPAT] = "bpf_lsm_file_ioctl_compat",
	[HOOK_BDEV_SETINTEGRITY] = "bpf_lsm_bdev_setintegrity",
	[HOOK_BDEV_FREE] = "bpf_lsm_bdev_free_security",
	[KFUNC_REAL_DATA_INODE] = "bpf_real_data_inode",
};

/* The exec's flag for execveat(AT_EXECVE_CHECK), a member of this struct. */
#define BINPRM_STRUCT "linux_binprm"
#define EXECVE_CHECK_MEMBER "is_check"

/* The type section and the string section of a checked BTF blob. */
struct btf_sections {
	const unsigned char *types;
	uint32_t types_len;
	const char *strings;
	uint32_t strings_len;
};

/* The bytes that follow a type's header, by kind; -1 for a kind this
 * loader does not know, which it refuses rather than misread. */
static long type_extra(const struct btf_type *t)
{
	long vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_INT:
		return sizeof(uint32_t);
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_VAR:
		return sizeof(struct btf_var);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG:
		return sizeof(struct btf_decl_tag);
	case BTF_KIND_ENUM64:
		return vlen * sizeof(struct btf_enum64);
	}
	return -1;
}

static int check_sections(const void *data, size_t size, struct btf_sections *s, char *err,
			  size_t errlen)
{
	const struct btf_header *h = data;

	if (size < sizeof(*h) || h->magic != BTF_MAGIC || h->version != BTF_VERSION ||
	    h->hdr_len < sizeof(*h) || h->hdr_len > size) {
		snprintf(err, errlen, "the kernel's BTF has no valid header");
		return -1;
	}
	if ((uint64_t)h->type_off + h->type_len > size - h->hdr_len ||
	    (uint64_t)h->str_off + h->str_len > size - h->hdr_len || (h->hdr_len + h->type_off) % 4 ||
	    !h->str_len) {
		snprintf(err, errlen, "the kernel's BTF has sections out of bounds");
		return -1;
	}
	s->types = (const unsigned char *)data + h->hdr_len + h->type_off;
	s->types_len = h->type_len;
	s->strings = (const char *)data + h->hdr_len + h->str_off;
	s->strings_len = h->str_len;
	if (s->strings[s->strings_len - 1]) {
		snprintf(err, errlen, "the kernel's BTF strings are not terminated");
		return -1;
	}
	return 0;
}

/* The functions wanted, the hooks' first and then the caller's, with what
 * the pass finds of each: its id and its prototype's id (0 if none). The
 * first letters of the names alone turn most of the kernel's functions
 * away; the order by name serves a binary search in the rest. */
struct wanted_funcs {
	size_t count;
	const char **names;
	uint32_t *ids;
	uint32_t *protos;
	size_t *by_name;
	bool first_letters[256];
};

static int compare_names(const void *a, const void *b, void *wanted)
{
	const char **names = ((struct wanted_funcs *)wanted)->names;

	return strcmp(names[*(const size_t *)a], names[*(const size_t *)b]);
}

static void free_wanted(struct wanted_funcs *w)
{
	free(w->names);
	free(w->ids);
	free(w->protos);
	free(w->by_name);
}

static int want_funcs(struct wanted_funcs *w, const struct vg_btf_funcs *funcs)
{
	size_t i;

	memset(w, 0, sizeof(*w));
	w->count = HOOKS + (funcs ? funcs->count : 0);
	w->names = calloc(w->count, sizeof(*w->names));
	w->ids = calloc(w->count, sizeof(*w->ids));
	w->protos = calloc(w->count, sizeof(*w->protos));
	w->by_name = calloc(w->count, sizeof(*w->by_name));
	if (!w->names || !w->ids || !w->protos || !w->by_name) {
		free_wanted(w);
		return -1;
	}
	for (i = 0; i < w->count; i++) {
		w->names[i] = i < HOOKS ? hook_funcs[i] : funcs->names[i - HOOKS];
		w->by_name[i] = i;
		w->first_letters[(unsigned char)w->names[i][0]] = true;
	}
	qsort_r(w->by_name, w->count, sizeof(*w->by_name), compare_names, w);
	return 0;
}

/* The function type t, id id, to every wanted function of its name (a
 * name may be wanted twice). */
static void match_func(struct wanted_funcs *w, const char *name, uint32_t id,
		       const struct btf_type *t)
{
	size_t lo = 0, hi = w->count;

	if (!w->first_letters[(unsigned char)name[0]])
		return;
	while (lo < hi) { /* the first that is not below name */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(w->names[w->by_name[mid]], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < w->count && !strcmp(w->names[w->by_name[lo]], name); lo++) {
		w->ids[w->by_name[lo]] = id;
		w->protos[w->by_name[lo]] = t->type;
	}
}

static const char *btf_name(const struct btf_sections *s, uint32_t off)
{
	return off < s->strings_len ? s->strings + off : "";
}

/* Whether struct type t has a member called name. */
static bool has_member(const struct btf_sections *s, const struct btf_type *t, const char *name)
{
	const struct btf_member *m = (const struct btf_member *)(t + 1);
	uint16_t i;

	for (i = 0; i < BTF_INFO_VLEN(t->info); i++)
		if (!strcmp(btf_name(s, m[i].name_off), name))
			return true;
	return false;
}

/*
 * One pass over the types (ids from 1): the wanted functions get their ids
 * and their prototypes' ids, and each prototype's parameter count is kept
 * by id (plus one: 0 is "not a prototype", and so is one of 65535
 * parameters, which fails closed), since a prototype may come before or
 * after its function; and whether struct linux_binprm has is_check.
 * Returns 0, or -1 with err set if a type runs past the section or has a
 * kind this loader does not know.
 */
static int scan_types(const struct btf_sections *s, struct wanted_funcs *w, uint16_t *proto_args,
		      bool *execve_check, char *err, size_t errlen)
{
	uint32_t off = 0, id = 1;

	while (off < s->types_len) {
		const struct btf_type *t = (const void *)(s->types + off);
		long extra;

		if (s->types_len - off < sizeof(*t))
			break;
		extra = type_extra(t);
		if (extra < 0) {
			snprintf(err, errlen, "the kernel's BTF type %u has an unknown kind %u", id,
				 BTF_INFO_KIND(t->info));
			return -1;
		}
		if (s->types_len - off - sizeof(*t) < (unsigned long)extra)
			break;
		if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC_PROTO)
			proto_args[id] = BTF_INFO_VLEN(t->info) + 1;
		else if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC && t->name_off < s->strings_len)
			match_func(w, s->strings + t->name_off, id, t);
		else if (BTF_INFO_KIND(t->info) == BTF_KIND_STRUCT &&
			 !strcmp(btf_name(s, t->name_off), BINPRM_STRUCT))
			*execve_check = *execve_check || has_member(s, t, EXECVE_CHECK_MEMBER);
		off += sizeof(*t) + extra;
		id++;
	}
	if (off == s->types_len)
		return 0;
	snprintf(err, errlen, "the kernel's BTF type %u is truncated", id);
	return -1;
}

int vg_kernel_features_from_btf(const void *btf, size_t size, struct vg_btf_funcs *funcs,
				struct vg_kernel_features *f, char *err, size_t errlen)
{
	uint16_t *proto_args = NULL;
	struct wanted_funcs wanted;
	struct btf_sections s;
	int args[HOOKS];
	uint32_t max_id;
	size_t i;

	memset(f, 0, sizeof(*f));
	if (check_sections(btf, size, &s, err, errlen))
		return -1;
	/* Every type takes at least a header, which bounds the ids. */
	max_id = s.types_len / sizeof(struct btf_type);
	proto_args = calloc(max_id + 1, sizeof(*proto_args));
	if (!proto_args || want_funcs(&wanted, funcs)) {
		snprintf(err, errlen, "cannot read the kernel's BTF: %s", strerror(errno));
		free(proto_args);
		return -1;
	}
	if (scan_types(&s, &wanted, proto_args, &f->execve_check, err, errlen)) {
		free_wanted(&wanted);
		free(proto_args);
		return -1;
	}
	for (i = 0; i < HOOKS; i++)
		args[i] = wanted.protos[i] && wanted.protos[i] <= max_id ?
				  proto_args[wanted.protos[i]] - 1 : -1;
	for (i = HOOKS; i < wanted.count; i++)
		funcs->ids[i - HOOKS] = wanted.ids[i];
	free_wanted(&wanted);
	free(proto_args);
	f->bpf_hook_args = args[HOOK_BPF];
	if (f->bpf_hook_args != 3 && f->bpf_hook_args != 4) {
		snprintf(err, errlen, "unknown shape of the bpf LSM hook (%d parameters)",
			 f->bpf_hook_args);
		return -1;
	}
	f->ioctl_compat_hook = args[HOOK_IOCTL_COMPAT] == 3;
	f->bdev_integrity_hooks = args[HOOK_BDEV_SETINTEGRITY] == 4 && args[HOOK_BDEV_FREE] == 1;
	f->real_data_inode = args[KFUNC_REAL_DATA_INODE] == 1;
	return 0;
}

void *vg_btf_read(const char *path, size_t *size, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	const char *why = NULL;
	void *data = NULL;
	struct stat st;
	size_t got = 0;
	ssize_t n = 0;

	if (fd < 0 || fstat(fd, &st) || !(data = malloc(st.st_size > 0 ? st.st_size : 1)))
		goto fail;
	while (got < (size_t)st.st_size && (n = read(fd, (char *)data + got, st.st_size - got)) > 0)
		got += n;
	if (n < 0)
		goto fail;
	if (!got || got != (size_t)st.st_size) {
		why = got ? "short read" : "empty";
		goto fail;
	}
	close(fd);
	*size = got;
	return data;
fail:
	snprintf(err, errlen, "cannot read the kernel's BTF (%s): %s", path,
		 why ? why : strerror(errno));
	free(data);
	if (fd >= 0)
		close(fd);
	return NULL;
}

int vg_kernel_features_from_file(const char *path, struct vg_btf_funcs *funcs,
				 struct vg_kernel_features *f, char *err, size_t errlen)
{
	size_t size;
	void *data = vg_btf_read(path, &size, err, errlen);
	int rc;

	if (!data)
		return -1;
	rc = vg_kernel_features_from_btf(data, size, funcs, f, err, errlen);
	free(data);
	return rc;
}

int vg_kernel_features_probe(struct vg_btf_funcs *funcs, struct vg_kernel_features *f,
			     char *err, size_t errlen)
{
	return vg_kernel_features_from_file(VMLINUX_BTF, funcs, f, err, errlen);
}

const char *vg_btf_type_name(const void *btf, size_t size, uint32_t id)
{
	struct btf_sections s;
	const struct btf_type *t;
	char ignored[128];
	size_t off = 0;
	uint32_t at;
	long extra;

	if (!id || check_sections(btf, size, &s, ignored, sizeof(ignored)))
		return NULL;
	for (at = 1; off + sizeof(*t) <= s.types_len; at++) {
		t = (const struct btf_type *)(s.types + off);
		if (at == id)
			return t->name_off < s.strings_len ? s.strings + t->name_off : NULL;
		extra = type_extra(t);
		if (extra < 0)
			return NULL;
		off += sizeof(*t) + extra;
	}
	return NULL;
}
