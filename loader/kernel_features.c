// SPDX-License-Identifier: GPL-2.0
/*
 * The feature probe walks the kernel's raw BTF itself rather than through
 * libbpf's btf__parse: libbpf indexes every type, which was most of the
 * probe's time, and it indexes the same BTF again when it loads the
 * programs. Here nothing is indexed: one pass finds the hooks' functions
 * and the programs' attach targets (libbpf would look each target up with
 * a linear search of its own: on 7.2 six times the parse itself), a second
 * their prototypes.
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

enum hook { HOOK_BPF, HOOK_IOCTL_COMPAT, HOOK_BDEV_SETINTEGRITY, HOOK_BDEV_FREE, HOOKS };

static const char *const hook_names[HOOKS] = {
	[HOOK_BPF] = "bpf",
	[HOOK_IOCTL_COMPAT] = "file_ioctl_compat",
	[HOOK_BDEV_SETINTEGRITY] = "bdev_setintegrity",
	[HOOK_BDEV_FREE] = "bdev_free_security",
};

#define LSM_FUNC_PREFIX "bpf_lsm_"

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

/* The caller's functions: the first letters of their names, which alone
 * turn most of the kernel's functions away, and their order by name, for
 * a binary search in the rest. */
struct wanted_funcs {
	struct vg_btf_funcs *funcs;
	size_t *by_name;
	bool first_letters[256];
};

static int compare_names(const void *a, const void *b, void *funcs)
{
	const char *const *names = ((struct vg_btf_funcs *)funcs)->names;

	return strcmp(names[*(const size_t *)a], names[*(const size_t *)b]);
}

static int want_funcs(struct wanted_funcs *w, struct vg_btf_funcs *funcs)
{
	size_t i;

	memset(w, 0, sizeof(*w));
	if (!funcs || !funcs->count)
		return 0;
	w->funcs = funcs;
	w->by_name = calloc(funcs->count, sizeof(*w->by_name));
	if (!w->by_name)
		return -1;
	for (i = 0; i < funcs->count; i++) {
		funcs->ids[i] = 0;
		w->by_name[i] = i;
		w->first_letters[(unsigned char)funcs->names[i][0]] = true;
	}
	qsort_r(w->by_name, funcs->count, sizeof(*w->by_name), compare_names, funcs);
	return 0;
}

/* id to every wanted function called name (a name may be wanted twice). */
static void match_func(const struct wanted_funcs *w, const char *name, uint32_t id)
{
	const char *const *names;
	size_t lo = 0, hi;

	if (!w->first_letters[(unsigned char)name[0]])
		return;
	names = w->funcs->names;
	hi = w->funcs->count;
	while (lo < hi) { /* the first that is not below name */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(names[w->by_name[mid]], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < w->funcs->count && !strcmp(names[w->by_name[lo]], name); lo++)
		w->funcs->ids[w->by_name[lo]] = id;
}

/*
 * One pass over the types (ids from 1): the functions named bpf_lsm_HOOK
 * give proto[HOOK], their prototypes' ids; each prototype's parameter
 * count is kept by id (plus one: 0 is "not a prototype", and so is one of
 * 65535 parameters, which fails closed), since a prototype may come before
 * or after its function. The functions w wants get their ids. Returns 0,
 * or -1 with err set if a type runs past the section or has a kind this
 * loader does not know.
 */
static int scan_types(const struct btf_sections *s, const struct wanted_funcs *w,
		      uint32_t proto[HOOKS], uint16_t *proto_args, char *err, size_t errlen)
{
	const size_t prefix = sizeof(LSM_FUNC_PREFIX) - 1;
	uint32_t off = 0, id = 1;
	int h;

	while (off < s->types_len) {
		const struct btf_type *t = (const void *)(s->types + off);
		const char *name;
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
		if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC_PROTO) {
			proto_args[id] = BTF_INFO_VLEN(t->info) + 1;
		} else if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC && t->name_off < s->strings_len) {
			name = s->strings + t->name_off;
			/* The first letter alone turns most names away. */
			if (name[0] == LSM_FUNC_PREFIX[0] && !strncmp(name, LSM_FUNC_PREFIX, prefix))
				for (h = 0; h < HOOKS; h++)
					if (!strcmp(name + prefix, hook_names[h]))
						proto[h] = t->type;
			match_func(w, name, id);
		}
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
	uint32_t proto[HOOKS] = { 0 }, max_id;
	uint16_t *proto_args = NULL;
	struct wanted_funcs wanted;
	struct btf_sections s;
	int h, scanned, args[HOOKS];

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
	scanned = scan_types(&s, &wanted, proto, proto_args, err, errlen);
	free(wanted.by_name);
	if (scanned) {
		free(proto_args);
		return -1;
	}
	for (h = 0; h < HOOKS; h++)
		args[h] = proto[h] && proto[h] <= max_id ? proto_args[proto[h]] - 1 : -1;
	free(proto_args);
	f->bpf_hook_args = args[HOOK_BPF];
	if (f->bpf_hook_args != 3 && f->bpf_hook_args != 4) {
		snprintf(err, errlen, "unknown shape of the bpf LSM hook (%d parameters)",
			 f->bpf_hook_args);
		return -1;
	}
	f->ioctl_compat_hook = args[HOOK_IOCTL_COMPAT] == 3;
	f->bdev_integrity_hooks = args[HOOK_BDEV_SETINTEGRITY] == 4 && args[HOOK_BDEV_FREE] == 1;
	return 0;
}

/* The whole file in memory (a sysfs file reports its size); NULL with
 * err set. */
static void *read_all(const char *path, size_t *size, char *err, size_t errlen)
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
	void *data = read_all(path, &size, err, errlen);
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
