// SPDX-License-Identifier: GPL-2.0
/*
 * vg-jit: do what a JIT compiler does, generate x86-64 code at run time
 * and call it, in one of the ways real JITs do.
 *   vg-jit mprotect     map anonymous memory read-write, write the code,
 *                       mprotect it read-execute (W^X JITs)
 *   vg-jit rwx          map anonymous memory read-write-execute at once,
 *                       write the code into it (PCRE2's, libffi's closures)
 *   vg-jit double-map   libffi-style double mapping: one view of the same
 *                       pages writable, the other executable, never both
 *   vg-jit double-map-late  the same, the other way round: both views
 *                       writable, then one mprotected read-execute (refused,
 *                       see below)
 *   vg-jit libffi       a libffi closure (ffi_closure_alloc), the library
 *                       dlopened from the image
 * The generated code returns a value that differs from run to run (it is
 * checked, so stale or unwritten memory cannot pass).
 * Prints "allowed" (exit 0) or "denied errno=NAME (...)" (exit 1), as
 * tests/attacks/outcome.h; 2 on misuse or a missing library, 3 when the code
 * ran but returned the wrong value.
 *
 * The double mapping is made of shared anonymous memory, not of a file: a
 * memfd (libffi's first choice for a double mapping) or a file in /tmp or
 * /dev/shm is a file on a tmpfs, whose PROT_EXEC mapping verigate refuses
 * by design, in every mode. The kernel does back MAP_SHARED|MAP_ANONYMOUS
 * with an internal shmem file (/dev/zero (deleted) in /proc/PID/maps), but
 * only after the mmap_file hook has seen the request as anonymous memory.
 * So the executable view is mapped PROT_READ|PROT_EXEC at once, mremap with
 * old size 0 makes the second view, and mprotect only takes PROT_EXEC away
 * from that one (PROT_READ|PROT_WRITE): no call ever adds PROT_EXEC to a
 * mapping that has a file.
 * Mapping it writable first and mprotecting a view executable later (the
 * double-map-late mode) is refused while verigate enforces, whatever
 * rd.verigate.anon_exec says: file_mprotect sees the shmem file, which is not
 * on the verified root.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "outcome.h"

#define CODE_SIZE 4096

typedef int (*jit_fn)(void);

static int setup_error(const char *what)
{
	fprintf(stderr, "vg-jit: %s: %s\n", what, strerror(errno));
	return 2;
}

/* A value for this run, neither 0 nor the same twice in a row. */
static int expected_value(void)
{
	return 0x1000 + (getpid() & 0xffff);
}

/* mov eax, imm32; ret */
static void emit(unsigned char *code, int value)
{
	uint32_t imm = (uint32_t)value;

	code[0] = 0xb8;
	memcpy(code + 1, &imm, sizeof(imm));
	code[5] = 0xc3;
}

/* Call the code at EXEC (written through another view, or the same). */
static int run(void *exec, int want)
{
	jit_fn fn;
	int got;

	__builtin___clear_cache((char *)exec, (char *)exec + 6);
	fn = (jit_fn)exec;
	got = fn();
	if (got != want) {
		printf("vg-jit: the generated code returned %d, not %d\n", got, want);
		return 3;
	}
	return allowed();
}

static int jit_mprotect(void)
{
	int want = expected_value();
	void *p = mmap(NULL, CODE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return setup_error("mmap PROT_READ|PROT_WRITE");
	emit(p, want);
	if (mprotect(p, CODE_SIZE, PROT_READ | PROT_EXEC))
		return denied("mprotect PROT_READ|PROT_EXEC of anonymous memory");
	return run(p, want);
}

static int jit_rwx(void)
{
	int want = expected_value();
	void *p = mmap(NULL, CODE_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return denied("mmap PROT_READ|PROT_WRITE|PROT_EXEC of anonymous memory");
	emit(p, want);
	return run(p, want);
}

static int jit_double_map(void)
{
	int want = expected_value();
	void *exec, *write;

	exec = mmap(NULL, CODE_SIZE, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (exec == MAP_FAILED)
		return denied("mmap PROT_READ|PROT_EXEC of shared anonymous memory");
	write = mremap(exec, 0, CODE_SIZE, MREMAP_MAYMOVE);
	if (write == MAP_FAILED)
		return denied("mremap of the executable view to a second one");
	if (mprotect(write, CODE_SIZE, PROT_READ | PROT_WRITE))
		return denied("mprotect PROT_READ|PROT_WRITE of the second view");
	emit(write, want);
	return run(exec, want);
}

/* The order verigate refuses: writable shared memory made executable later. */
static int jit_double_map_late(void)
{
	int want = expected_value();
	void *exec, *write;

	write = mmap(NULL, CODE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (write == MAP_FAILED)
		return setup_error("mmap PROT_READ|PROT_WRITE of shared anonymous memory");
	exec = mremap(write, 0, CODE_SIZE, MREMAP_MAYMOVE);
	if (exec == MAP_FAILED)
		return denied("mremap of the writable view to a second one");
	if (mprotect(exec, CODE_SIZE, PROT_READ | PROT_EXEC))
		return denied("mprotect PROT_READ|PROT_EXEC of the second view");
	emit(write, want);
	return run(exec, want);
}

/*
 * libffi 3.4 (libffi.so.8), declared here rather than from <ffi.h>: the
 * build host needs no libffi-dev, and the image may have no libffi at all.
 * The layouts are those of x86-64 (FFI_DEFAULT_ABI is FFI_UNIX64, 2; the cif
 * has no extra fields); the cif and the closure get generous room anyway.
 */
struct ffi_type_s {
	size_t size;
	unsigned short alignment;
	unsigned short type;
	struct ffi_type_s **elements;
};
#define FFI_UNIX64 2
#define FFI_OK 0

struct ffi_api {
	int (*prep_cif)(void *cif, int abi, unsigned nargs, struct ffi_type_s *rtype,
			struct ffi_type_s **atypes);
	void *(*closure_alloc)(size_t size, void **code);
	int (*prep_closure_loc)(void *closure, void *cif,
				void (*fun)(void *cif, void *ret, void **args, void *data),
				void *data, void *codeloc);
	void (*closure_free)(void *closure);
	struct ffi_type_s *sint32;
};

/* The closure's body: return its one int argument plus the user data. */
static void add_data(void *cif, void *ret, void **args, void *data)
{
	(void)cif;
	/* Integral results smaller than a register are widened (ffi_arg). */
	*(unsigned long *)ret = (unsigned long)(long)(*(int *)args[0] + *(int *)data);
}

static int jit_libffi(void)
{
	union {
		char bytes[256];
		long align;
	} cif;
	struct ffi_type_s *args[1];
	struct ffi_api ffi;
	void *lib, *closure, *code = NULL;
	int (*fn)(int);
	int want = expected_value(), add = 7, got;

	lib = dlopen("libffi.so.8", RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "vg-jit: no libffi: %s\n", dlerror());
		return 2;
	}
	ffi.prep_cif = dlsym(lib, "ffi_prep_cif");
	ffi.closure_alloc = dlsym(lib, "ffi_closure_alloc");
	ffi.prep_closure_loc = dlsym(lib, "ffi_prep_closure_loc");
	ffi.closure_free = dlsym(lib, "ffi_closure_free");
	ffi.sint32 = dlsym(lib, "ffi_type_sint32");
	if (!ffi.prep_cif || !ffi.closure_alloc || !ffi.prep_closure_loc || !ffi.closure_free ||
	    !ffi.sint32) {
		fprintf(stderr, "vg-jit: libffi.so.8 lacks a symbol: %s\n", dlerror());
		return 2;
	}
	args[0] = ffi.sint32;
	if (ffi.prep_cif(cif.bytes, FFI_UNIX64, 1, ffi.sint32, args) != FFI_OK) {
		fprintf(stderr, "vg-jit: ffi_prep_cif failed\n");
		return 2;
	}
	/* libffi leaves errno as its last failed attempt (mmap, open) left it. */
	errno = 0;
	closure = ffi.closure_alloc(256, &code);
	if (!closure || !code)
		return denied("ffi_closure_alloc");
	if (ffi.prep_closure_loc(closure, cif.bytes, add_data, &add, code) != FFI_OK)
		return denied("ffi_prep_closure_loc");
	fn = (int (*)(int))code;
	got = fn(want - add);
	ffi.closure_free(closure);
	if (got != want) {
		printf("vg-jit: the libffi closure returned %d, not %d\n", got, want);
		return 3;
	}
	return allowed();
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(void);
	} modes[] = {
		{ "mprotect", jit_mprotect },
		{ "rwx", jit_rwx },
		{ "double-map", jit_double_map },
		{ "double-map-late", jit_double_map_late },
		{ "libffi", jit_libffi },
	};
	size_t i;

	if (argc == 2)
		for (i = 0; i < sizeof(modes) / sizeof(*modes); i++)
			if (!strcmp(argv[1], modes[i].name)) {
				setvbuf(stdout, NULL, _IONBF, 0);
				return modes[i].fn();
			}
	fprintf(stderr, "usage: vg-jit mprotect|rwx|double-map|double-map-late|libffi\n");
	return 2;
}
