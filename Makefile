# SPDX-License-Identifier: GPL-2.0
# verigate: build the BPF object, its skeleton and the loader.

CC       ?= gcc
CLANG    ?= clang
BPFTOOL  ?= bpftool
LLVM_STRIP ?= llvm-strip
PREFIX   ?= /usr
DESTDIR  ?=
ARCH_TRIPLET := $(shell $(CC) -dumpmachine)

DRACUT_MODULES_DIR ?= $(or $(shell pkg-config --variable=dracutmodulesdir dracut 2>/dev/null),$(PREFIX)/lib/dracut/modules.d)
MODULE_DIR := $(DRACUT_MODULES_DIR)/50verigate
LOADER_DIR := $(PREFIX)/lib/verigate
MAN_DIR    := $(PREFIX)/share/man

BUILD    := build
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Werror -D_FORTIFY_SOURCE=2 -fstack-protector-strong
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 -Wall -Werror \
	      -I/usr/include/$(ARCH_TRIPLET) -Ibpf

LOADER_SRCS := $(wildcard loader/*.c)
LOADER_OBJS := $(LOADER_SRCS:loader/%.c=$(BUILD)/loader/%.o)
PARSER_SRCS := loader/cmdline.c loader/base64.c loader/dm_query.c loader/hex.c loader/verity_table.c \
	       loader/kernel_features.c ctl/view.c
# What the unit tests link: the parsers and the root hash signature check.
UNIT_SRCS   := $(PARSER_SRCS) loader/roothash_sig.c ctl/check_verdict.c loader/partition_name.c \
	       loader/crash_kernel.c ctl/measured.c
UNIT_OBJS   := $(patsubst ctl/%.c,$(BUILD)/ctl/%.o,$(UNIT_SRCS:loader/%.c=$(BUILD)/loader/%.o))
UNIT_TESTS  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))
# The same unit tests under AddressSanitizer and UndefinedBehaviorSanitizer,
# and the libFuzzer targets (tests/fuzz), built with the parsers' sources.
SAN_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_TESTS   := $(patsubst tests/unit/%.c,$(BUILD)/san/%.san,$(wildcard tests/unit/test_*.c))
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 300
TEST_PROGS  := $(patsubst tests/progs/%.c,$(BUILD)/progs/%,$(wildcard tests/progs/*.c)) \
	       $(patsubst tests/attacks/%.c,$(BUILD)/attacks/%,$(wildcard tests/attacks/*.c))
HOOKS       := $(wildcard hooks/*.sh)
# What the loader links: libbpf, OpenSSL (root hash signatures, PCR bank
# hashes) and tpm2-tss's ESYS with the kernel device TCTI (measurement).
LOADER_LIBS := -lbpf -lelf -lz -lcrypto -ltss2-esys -ltss2-tcti-device -ltss2-rc

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

.PHONY: all install uninstall deps check check-matrix compare bench unit san fuzz test-progs demo deb clean
all: $(BUILD)/verigate-loader $(BUILD)/verigatectl

BPF_SRCS := $(wildcard bpf/*.bpf.c)
# The object that defines the maps goes first: bpftool's linker (libbpf 1.1)
# gets the map offsets wrong when an extern map is met before its definition.
BPF_OBJS := $(BUILD)/bpf/state.o $(filter-out $(BUILD)/bpf/state.o,$(BPF_SRCS:bpf/%.bpf.c=$(BUILD)/bpf/%.o))

$(BUILD)/bpf/%.o: bpf/%.bpf.c $(wildcard bpf/*.h) | $(BUILD)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@
	$(Q)$(LLVM_STRIP) -g $@

$(BUILD)/verigate.bpf.o: $(BPF_OBJS)
	$(call msg,BPF-LINK,$@)
	$(Q)$(BPFTOOL) gen object $@ $^

$(BUILD)/verigate.skel.h: $(BUILD)/verigate.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name verigate_bpf > $@.tmp && mv $@.tmp $@

$(BUILD)/loader/policy.o: $(BUILD)/verigate.skel.h
$(BUILD)/loader/%.o: loader/%.c $(wildcard loader/*.h) | $(BUILD)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -I$(BUILD) -Ibpf -c $< -o $@

# verigatectl: installed into the real root, reads the views in bpffs.
CTL_SRCS := $(wildcard ctl/*.c)
$(BUILD)/ctl/%.o: ctl/%.c $(wildcard ctl/*.h) $(wildcard loader/*.h) | $(BUILD)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -I$(BUILD) -Iloader -Ibpf -c $< -o $@

# expect predicts the loader's event with the loader's own code and
# programs: its command line parser, its choice of programs, its event.
CTL_LOADER_OBJS := $(addprefix $(BUILD)/loader/,append.o hex.o base64.o cmdline.o kernel_features.o \
		   kernel_switches.o program_choice.o gate_event.o)
$(BUILD)/ctl/expect.o: $(BUILD)/verigate.skel.h
$(BUILD)/verigatectl: $(CTL_SRCS:ctl/%.c=$(BUILD)/ctl/%.o) $(CTL_LOADER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ -lbpf -lelf -lz -lcrypto -o $@

$(BUILD)/verigate-loader: $(LOADER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LOADER_LIBS) -o $@

# Test builds only: the loader without its guards, for the control boots of
# the guard attack tests (tests/run-in-guest --guards off).
$(BUILD)/test/verigate-loader-noguards: $(LOADER_SRCS) $(BUILD)/verigate.skel.h $(wildcard loader/*.h)
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -DVG_TEST_WITHOUT_GUARDS -I$(BUILD) -Ibpf $(LOADER_SRCS) $(LOADER_LIBS) -o $@

# Test builds only: the whole loader with faults injected at its mount,
# load, attach and pin calls (tests/faults, tests/run-in-guest --fault).
$(BUILD)/test/verigate-loader-faults: $(LOADER_OBJS) tests/faults/loader-faults.c
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Iloader $^ -Wl,--wrap=mount,--wrap=bpf_object__load_skeleton,--wrap=bpf_program__attach_lsm,--wrap=bpf_link__pin,--wrap=vg_tpm_extend \
		$(LOADER_LIBS) -o $@

$(BUILD)/tests/%: tests/unit/%.c tests/unit/unit.h $(UNIT_OBJS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Iloader -Ictl -Ibpf -Itests/unit $< $(UNIT_OBJS) -lcrypto -o $@

$(BUILD)/san/%.san: tests/unit/%.c tests/unit/unit.h $(UNIT_SRCS) $(wildcard loader/*.h ctl/*.h)
	$(call msg,CC-SAN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -g -O1 -std=gnu11 -Wall -Wextra -Werror $(SAN_FLAGS) -Iloader -Ictl -Ibpf -Itests/unit \
		$< $(UNIT_SRCS) -lcrypto -o $@

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(PARSER_SRCS) $(wildcard loader/*.h ctl/*.h)
	$(call msg,FUZZER,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O1 -std=gnu11 -Wall -Wextra -Werror -fsanitize=fuzzer $(SAN_FLAGS) \
		-Iloader -Ictl -Ibpf -Itests/fuzz $< $(PARSER_SRCS) -o $@

# vg-rollback drives the loader's own install code with injected failures.
$(BUILD)/progs/vg-rollback: tests/progs/vg-rollback.c $(BUILD)/loader/policy.o \
		$(BUILD)/loader/kernel_features.o $(BUILD)/loader/attach_targets.o \
		$(BUILD)/loader/liveness.o $(BUILD)/loader/kernel_switches.o $(BUILD)/loader/program_choice.o \
		$(BUILD)/loader/append.o
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Iloader -Ibpf $^ -Wl,--wrap=bpf_link__pin,--wrap=bpf_program__attach_lsm,--wrap=bpf_program__attach_iter,--wrap=bpf_object__load_skeleton -lbpf -lelf -lz -o $@

$(BUILD)/attacks/%: tests/attacks/%.c tests/attacks/outcome.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Itests/attacks $< -lbpf -o $@

# The benchmark's workloads and its IMA key enrolment, run in the guest by
# make bench.
$(BUILD)/bench/%: tests/bench/%.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $< -ldl -o $@

# vg-bench names each program's hook from the kernel's BTF, with the
# loader's reader (no libbpf: it would bring libz, which a workload loads).
$(BUILD)/bench/vg-bench: tests/bench/vg-bench.c $(BUILD)/loader/kernel_features.o
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Iloader $^ -ldl -o $@

# The loader's feature probe alone, for a callgrind count on the host.
$(BUILD)/bench/vg-probe-cost: tests/bench/vg-probe-cost.c $(BUILD)/loader/kernel_features.o \
		$(BUILD)/loader/attach_targets.o
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Iloader $^ -lbpf -o $@

$(BUILD)/progs/%: tests/progs/%.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Itests/attacks $< -o $@

# The feature probe against the BTF of each kernel (run by tests/check),
# its attach targets against libbpf's own search of the same BTF.
$(BUILD)/features/test_kernel_features: tests/features/test_kernel_features.c \
		$(BUILD)/loader/kernel_features.o tests/unit/unit.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Iloader -Itests/unit $< $(BUILD)/loader/kernel_features.o -lbpf -o $@

# The programs' attach targets: verigate's object opened on the host (not
# loaded), its targets found in the BTF of each kernel (run by tests/check).
$(BUILD)/features/test_attach_targets: tests/features/test_attach_targets.c \
		$(BUILD)/loader/attach_targets.o $(BUILD)/loader/kernel_features.o \
		$(BUILD)/verigate.bpf.o tests/unit/unit.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Iloader -Itests/unit $< $(BUILD)/loader/attach_targets.o \
		$(BUILD)/loader/kernel_features.o -lbpf -o $@

# The loader's PCR extend against a software TPM (run by tests/check).
TPM_TEST_OBJS := $(addprefix $(BUILD)/loader/,tpm.o measurement.o gate_event.o cmdline.o base64.o hex.o)
TPM_LIBS := -ltss2-esys -ltss2-tcti-device -ltss2-tctildr -ltss2-rc -lcrypto
# The loader's measurement on a software TPM, for systemd-pcrlock to read.
$(BUILD)/tpm/vg-measure: tests/tpm/vg-measure.c $(TPM_TEST_OBJS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Iloader -Ibpf $^ $(TPM_LIBS) -o $@

$(BUILD)/tpm/test_tpm: tests/tpm/test_tpm.c $(TPM_TEST_OBJS) tests/unit/unit.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Iloader -Ibpf -Itests/unit $< $(TPM_TEST_OBJS) $(TPM_LIBS) -o $@

$(BUILD):
	$(Q)mkdir -p $@

MODULE_FILES := modules.d/50verigate/module-setup.sh \
		modules.d/50verigate/initrd-switch-root-verigate.conf $(HOOKS)

install: all
	install -D -m 0755 $(BUILD)/verigate-loader $(DESTDIR)$(LOADER_DIR)/verigate-loader
	install -D -m 0755 $(BUILD)/verigatectl $(DESTDIR)$(PREFIX)/bin/verigatectl
	install -D -m 0644 docs/man/verigate.7 $(DESTDIR)$(MAN_DIR)/man7/verigate.7
	install -D -m 0644 docs/man/verigatectl.8 $(DESTDIR)$(MAN_DIR)/man8/verigatectl.8
	install -d $(DESTDIR)$(MODULE_DIR)
	for f in $(MODULE_FILES); do \
		dst=$(DESTDIR)$(MODULE_DIR)/$${f##*/}; \
		sed 's|@LOADER@|$(LOADER_DIR)/verigate-loader|g' $$f > $$dst || exit 1; \
		case $$f in *.sh) chmod 0755 $$dst ;; *) chmod 0644 $$dst ;; esac; \
	done

uninstall:
	rm -f $(DESTDIR)$(LOADER_DIR)/verigate-loader $(DESTDIR)$(PREFIX)/bin/verigatectl \
		$(DESTDIR)$(MAN_DIR)/man7/verigate.7 $(DESTDIR)$(MAN_DIR)/man8/verigatectl.8 \
		$(addprefix $(DESTDIR)$(MODULE_DIR)/,$(notdir $(MODULE_FILES)))
	-rmdir $(DESTDIR)$(LOADER_DIR) $(DESTDIR)$(MODULE_DIR)

unit: $(UNIT_TESTS)
	$(Q)tests/run-unit $(UNIT_TESTS)

san: $(SAN_TESTS)
	$(Q)tests/run-unit $(SAN_TESTS)

# Each libFuzzer target for FUZZ_SECONDS (make check runs a short smoke).
fuzz: deps $(FUZZ_TARGETS)
	$(Q)tests/run-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

test-progs: $(TEST_PROGS) $(BUILD)/test/verigate-loader-noguards $(BUILD)/test/verigate-loader-faults $(BUILD)/features/test_kernel_features \
	$(BUILD)/features/test_attach_targets $(BUILD)/tpm/test_tpm $(BUILD)/tpm/vg-measure

# check and demo install what they need first, so they work on a fresh machine.
deps:
	$(Q)tests/lib/install-deps

check: deps
	$(Q)$(MAKE) -s --no-print-directory all test-progs $(UNIT_TESTS) $(SAN_TESTS) $(FUZZ_TARGETS)
	$(Q)tests/check

# The same suite on every kernel verigate supports (check: 6.1 and 6.12).
check-matrix: deps
	$(Q)$(MAKE) -s --no-print-directory all test-progs $(UNIT_TESTS) $(SAN_TESTS) $(FUZZ_TARGETS)
	$(Q)VERIGATE_KERNELS="6.1 6.12 7.2" tests/check

# verigate and IPE side by side: rewrites the table in docs/comparison.md.
compare: deps
	$(Q)$(MAKE) -s --no-print-directory all test-progs
	$(Q)tests/compare

# Cost per exec, mmap, stat, open, ioctl, rename, a tarball unpacked and
# boot, as ratios to no gate and to IPE, and per hook; rewrites
# docs/performance.md and docs/performance.png. Not part of check.
bench: deps
	$(Q)tests/lib/install-deps python3-matplotlib ima-evm-utils valgrind
	$(Q)tests/bench/run

demo: deps
	$(Q)$(MAKE) -s --no-print-directory all $(TEST_PROGS)
	$(Q)tests/demo

# The Debian package, built from a copy of the tree (dpkg-buildpackage
# cleans the tree it builds in), then checked with lintian.
DEB_VERSION := $(shell dpkg-parsechangelog -l debian/changelog -S Version 2>/dev/null)
deb: deps
	$(Q)rm -rf $(BUILD)/deb && mkdir -p $(BUILD)/deb/verigate-$(DEB_VERSION)
	$(Q)tar -c --exclude=./$(BUILD) --exclude=./.git . | tar -x -C $(BUILD)/deb/verigate-$(DEB_VERSION)
	$(Q)cd $(BUILD)/deb/verigate-$(DEB_VERSION) && dpkg-buildpackage -us -uc -b > ../build.log 2>&1 \
		|| { tail -n 30 ../build.log; exit 1; }
	$(Q)lintian --fail-on warning $(BUILD)/deb/verigate_$(DEB_VERSION)_amd64.deb
	$(call msg,DEB,$(BUILD)/deb/verigate_$(DEB_VERSION)_amd64.deb)

clean:
	rm -rf $(BUILD)
