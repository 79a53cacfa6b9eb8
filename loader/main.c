// SPDX-License-Identifier: GPL-2.0
/*
 * verigate-loader: run once in the initramfs, before switch_root. Verifies
 * the dm-verity root, loads the exec gate, pins its links in bpffs and exits
 * holding nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "anchor.h"
#include "cmdline.h"
#include "crash_kernel.h"
#include "elapsed.h"
#include "hex.h"
#include "kernel_switches.h"
#include "log.h"
#include "measurement.h"
#include "partition_name.h"
#include "policy.h"
#include "root_verify.h"
#include "roothash_sig.h"
#include "tpm.h"

#define PROC_CMDLINE "/proc/cmdline"
#define SECURITYFS "/sys/kernel/security"
#define BPFFS "/sys/fs/bpf"
#define PIN_DIR BPFFS "/verigate"
#define TRACEPOINT_PRINTK "/proc/sys/kernel/tracepoint_printk"
#define VERITY_REQUIRE_SIGNATURES "/sys/module/dm_verity/parameters/require_signatures"
/* Written into the initramfs by the dracut module (verigate_required=yes,
 * verigate_pubkey=). */
#define REQUIRED_MARK "/etc/verigate/required"
#define BAKED_PUBKEY "/etc/verigate/pubkey.pem"

static int read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* The options, and with check_signature the root hash's signature: the
 * first and the last loader step (--check-cmdline, --root) check it. */
static int load_config(struct vg_config *cfg, bool check_signature)
{
	char cmdline[8192], err[512];

	if (read_file(PROC_CMDLINE, cmdline, sizeof(cmdline))) {
		vg_log(VG_LOG_ERR, "cannot read %s: %s", PROC_CMDLINE, strerror(errno));
		return -1;
	}
	if (vg_cmdline_parse(cmdline, cfg, err, sizeof(err))) {
		vg_log(VG_LOG_ERR, "bad kernel command line: %s", err);
		return -1;
	}
	if (!access(REQUIRED_MARK, F_OK) &&
	    vg_cmdline_require(cfg, access(BAKED_PUBKEY, F_OK) ? NULL : BAKED_PUBKEY, err,
			       sizeof(err))) {
		vg_log(VG_LOG_ERR, "kernel command line refused: %s", err);
		return -1;
	}
	if (check_signature && cfg->pubkey[0] && vg_roothash_sig_verify(cfg->pubkey, cfg->roothash, cfg->roothash_sig,
						     cfg->roothash_sig_len, err, sizeof(err))) {
		vg_log(VG_LOG_ERR, "refusing the root hash: %s", err);
		return -1;
	}
	return 0;
}

static int mount_if_missing(const char *dir, const char *type, long magic,
			    const char *options)
{
	struct statfs fs;

	if (!statfs(dir, &fs) && fs.f_type == magic)
		return 0;
	if (mount(type, dir, type, MS_NOSUID | MS_NODEV | MS_NOEXEC, options)) {
		vg_log(VG_LOG_ERR, "cannot mount %s at %s: %s", type, dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* With report, say so in the log when it is not. */
static bool bpf_lsm_active(bool report)
{
	char list[512];

	if (mount_if_missing(SECURITYFS, "securityfs", SECURITYFS_MAGIC, NULL)) {
		vg_log(VG_LOG_ERR, "cannot read %s", VG_LSM_LIST);
		return false;
	}
	if (vg_lsm_active("bpf", list, sizeof(list)))
		return true;
	if (!list[0])
		vg_log(VG_LOG_ERR, "cannot read %s", VG_LSM_LIST);
	else if (report)
		vg_log(VG_LOG_ERR,
		       "the bpf LSM is not active (active: %s); add bpf to lsm= on the kernel command line",
		       list);
	return false;
}

/* The inode number of the directory entry NAME in DIR, as DIR lists it:
 * the directory itself even where a filesystem is mounted on it. */
static int entry_ino(const char *dir, const char *name, __u64 *ino)
{
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d) {
		vg_log(VG_LOG_ERR, "cannot open %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)))
		if (!strcmp(e->d_name, name))
			break;
	if (e)
		*ino = e->d_ino;
	closedir(d);
	if (!e) {
		vg_log(VG_LOG_ERR, "%s has no %s", dir, name);
		return -1;
	}
	return 0;
}

/* Where the things the guards protect are, as the kernel numbers them. */
static int find_landmarks(const char *newroot, struct vg_policy_params *params)
{
	static const char *const paths[] = { "/sys", "/dev/mapper/control",
					     "/proc/self/ns/mnt" };
	struct stat st[3];
	size_t i;

	for (i = 0; i < 3; i++) {
		if (stat(paths[i], &st[i])) {
			vg_log(VG_LOG_ERR, "cannot stat %s: %s", paths[i], strerror(errno));
			return -1;
		}
	}
	params->sysfs_dev = vg_kernel_dev(st[0].st_dev);
	params->dm_control_rdev = vg_kernel_dev(st[1].st_rdev);
	params->init_mnt_ns = st[2].st_ino;
	return entry_ino("/sys/fs", "bpf", &params->bpffs_mountpoint_ino) ||
	       entry_ino(newroot, "sys", &params->sys_mountpoint_ino);
}

/*
 * With kernel.ftrace_enabled=0 (sysctl.kernel.ftrace_enabled=0 on the
 * command line) BPF LSM programs attach but never run: the trampolines
 * that call them are never patched into the hooks.
 */
static bool ftrace_patching_on(void)
{
	if (vg_ftrace_patching_on())
		return true;
	vg_log(VG_LOG_ERR,
	       "%s is 0: the gate's programs would attach but never run; boot without sysctl.kernel.ftrace_enabled=0",
	       VG_FTRACE_ENABLED);
	return false;
}

/*
 * The BPF programs log through the trace buffer; the kernel copies those
 * lines into its own log only when booted with tp_printk.
 */
static bool decisions_reach_kernel_log(void)
{
	char value[16];

	return !read_file(TRACEPOINT_PRINTK, value, sizeof(value)) && value[0] == '1';
}

/* With dm_verity.require_signatures=1 the kernel set up the root's table
 * only after checking a signature of its root hash against its keyrings. */
static bool kernel_checked_root_signature(void)
{
	char value[8];

	return !read_file(VERITY_REQUIRE_SIGNATURES, value, sizeof(value)) && value[0] == 'Y';
}

static void id_list(char *buf, size_t len, const __u32 *ids, int count)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < count && n < len; i++)
		if (ids[i]) /* no link: a program attached to a cgroup */
			n += snprintf(buf + n, len - n, "%s%u", n ? "," : "", ids[i]);
}

/* Where the loader's time went and what each program cost the verifier
 * and the loader (its load and its attach, NAME=LOAD_US/ATTACH_US), for
 * make bench (docs/performance.md). */
static void report_costs(const struct vg_policy_report *rep, long verify_ms)
{
	char line[2048];
	size_t n = 0;
	int i;

	line[0] = '\0';
	for (i = 0; i < rep->count && n < sizeof(line); i++)
		n += snprintf(line + n, sizeof(line) - n, "%s%s=%u", i ? "," : "", rep->prog_names[i],
			      rep->verified_insns[i]);
	vg_log(VG_LOG_NOTICE, "verified_insns %s", line);
	line[0] = '\0';
	for (i = 0, n = 0; i < rep->count && n < sizeof(line); i++)
		n += snprintf(line + n, sizeof(line) - n, "%s%s=%ld/%ld", i ? "," : "",
			      rep->prog_names[i], rep->load_us[i], rep->attach_us[i]);
	vg_log(VG_LOG_NOTICE, "load_attach_us %s", line);
	vg_log(VG_LOG_NOTICE,
	       "load_phases_ms verify=%ld probe=%ld bpf_load=%ld attach_pin=%ld bpf_load_user=%ld bpf_load_kernel=%ld bpf_load_progs=%ld",
	       verify_ms, rep->probe_ms, rep->bpf_load_ms, rep->attach_ms, rep->bpf_load_user_ms,
	       rep->bpf_load_kernel_ms, rep->bpf_load_progs_ms);
}

/* A device as set_verity_params described it ("MAJ:MIN [PARTNAME]"), as
 * one field of the loader line: "MAJ:MIN" or "MAJ:MIN,PARTNAME". */
static void device_field(const char *described, char *out, size_t len)
{
	char *space;

	snprintf(out, len, "%s", described);
	space = strchr(out, ' ');
	if (space)
		*space = ',';
}

/* The loader's measurement of the gate, once made (measure_gate). */
static struct {
	bool done;
	const char *result; /* the loader line's tpm= field */
	struct vg_measured m;
	long ms;
} measured = { .result = "none" };

/*
 * Measure event into the TPM (measurement.h). Without a TPM nothing is
 * measured, unless rd.verigate.tpm=required; a failed measurement stops
 * the boot only then. Returns 0, or -1 (logged).
 */
static int measure_gate(const char *event, bool required)
{
	struct timespec start;
	struct vg_tpm tpm;
	char err[512];
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &start);
	measured.done = true;
	rc = vg_tpm_open(&tpm, VG_TPM_DEVICE, err, sizeof(err));
	if (rc == 1) {
		if (!required)
			return 0;
		vg_log(VG_LOG_ERR, "rd.verigate.tpm=required, but there is no TPM (%s)", VG_TPM_DEVICE);
		return -1;
	}
	if (!rc) {
		rc = vg_measure(&tpm, VG_MEASURE_LOG, event, &measured.m, err, sizeof(err));
		vg_tpm_close(&tpm);
	}
	if (rc) {
		measured.result = "failed";
		vg_log(VG_LOG_ERR, "%smeasuring the gate into PCR %d failed: %s",
		       required ? "rd.verigate.tpm=required: " : "", VG_MEASURE_PCR, err);
		return required ? -1 : 0;
	}
	measured.result = "pcr9";
	measured.ms = vg_ms_since(&start);
	return 0;
}

/* After the loader line: what measure_gate measured, if it did. */
static void report_measured(const char *event)
{
	if (!measured.m.measured)
		return;
	vg_log(VG_LOG_NOTICE,
	       "measured into PCR %d in %ld ms: \"%s\" (sha256 %s), then \"%s\"; PCR %d sha256 %s",
	       VG_MEASURE_PCR, measured.ms, event, measured.m.event_sha256, VG_MEASURE_SEPARATOR,
	       VG_MEASURE_PCR, measured.m.pcr_sha256);
}

/* The event a loaded gate is measured as: its configuration, and what the
 * kernel gave it. Returns 0, or -1 (logged) if it does not fit. */
static int describe_loaded(const struct vg_config *cfg, const struct vg_policy_report *rep,
			   char *event, size_t len)
{
	const struct vg_gate_kernel k = {
		.verity_sig = kernel_checked_root_signature(),
		.guards = rep->guards,
		.live = rep->live_count,
		.programs = rep->count,
		.features = rep->features,
		.kprobe_override = rep->kprobe_override,
		.verity_trust = rep->verity_trust,
	};

	if (vg_gate_describe(cfg, &k, event, len) < 0) {
		vg_log(VG_LOG_ERR, "the gate's description does not fit %zu bytes", len);
		return -1;
	}
	return 0;
}

static void report_loaded(const struct vg_config *cfg, const struct vg_root *root,
			  const struct vg_policy_params *params,
			  const struct vg_policy_report *rep, long load_ms, long verify_ms)
{
	char progs[256], links[256], maps[256], data[VG_DEVICE_NAME_MAX], hash[VG_DEVICE_NAME_MAX];
	bool kernel_log = decisions_reach_kernel_log();

	device_field(params->tree_data_dev, data, sizeof(data));
	device_field(params->tree_hash_dev, hash, sizeof(hash));
	id_list(progs, sizeof(progs), rep->prog_ids, rep->count);
	id_list(links, sizeof(links), rep->link_ids, rep->count);
	id_list(maps, sizeof(maps), rep->map_ids, rep->map_count);
	vg_log(VG_LOG_NOTICE,
	       "%s %s=%s roothash_sig=%s verity_sig=%s dev=%u:%u dm=%s data=%s hash=%s anon_exec=%s guards=%d bpf_hook_args=%d ioctl_compat=%s kprobe_override=%s verity_trust=%s execve_check=%s overlay=%s allow=%d signed=%d kernel_log=%s load_ms=%ld prog_ids=%s link_ids=%s map_ids=%s live=%d/%d live_us=%ld tpm=%s proc_mem_write=%s",
	       vg_mode_name(cfg->mode), vg_tree_option(cfg->tree), cfg->roothash, cfg->pubkey[0] ? "verified" : "none",
	       kernel_checked_root_signature() ? "required" : "no", major(root->dev),
	       minor(root->dev), root->dm_name, data, hash, cfg->deny_anon_exec ? "deny" : "allow",
	       rep->guards, rep->features.bpf_hook_args,
	       rep->features.ioctl_compat_hook ? "yes" : "no",
	       rep->kprobe_override ? "yes" : "no", rep->verity_trust ? "yes" : "no",
	       rep->features.execve_check ? "yes" : "no",
	       rep->features.real_data_inode ? "data-layer" : "refused",
	       cfg->allow_count, cfg->allow_signed, kernel_log ? "yes" : "no", load_ms, progs,
	       links, maps, rep->live_count, rep->count, rep->live_us, measured.result,
	       rep->proc_mem_write);
	report_costs(rep, verify_ms);
	if (rep->unprobed_count)
		vg_log(VG_LOG_NOTICE, "%d of %d programs not probed, so not proven to run: %s",
		       rep->unprobed_count, rep->count, rep->unprobed);
	if (!rep->verity_trust && (cfg->allow_count || cfg->allow_signed))
		vg_log(VG_LOG_NOTICE,
		       "rd.verigate.allow= and rd.verigate.signed= need the bdev_setintegrity LSM hook (Linux 6.12+), which this kernel lacks: no verity device but the root is trusted");
	if (!kernel_log)
		vg_log(VG_LOG_NOTICE,
		       "decisions are logged to /sys/kernel/tracing/trace only; boot with tp_printk to have them in the kernel log");
}

_Static_assert(VG_HASH_HEX_MAX / 2 == VG_DIGEST_MAX, "every digest the command line takes fits");

/* The root's digest and device-mapper identity, and the allow-list, for
 * the verity watch and the DM guard. */
static void set_verity_params(const struct vg_config *cfg, const struct vg_root *root,
			      struct vg_policy_params *params)
{
	int i;

	params->root_digest_len =
		vg_hex_to_bytes(cfg->roothash, params->root_digest, sizeof(params->root_digest));
	for (i = 0; i < cfg->allow_count; i++)
		params->allow_digest_lens[i] = vg_hex_to_bytes(
			cfg->allow[i], params->allow_digests[i], sizeof(params->allow_digests[i]));
	params->allow_count = cfg->allow_count;
	params->allow_signed = cfg->allow_signed;
	snprintf(params->tree_hash_hex, sizeof(params->tree_hash_hex), "%s", cfg->roothash);
	params->tree_is_usr = cfg->tree == VG_TREE_USR;
	vg_describe_block_device(root->table.data_dev, params->tree_data_dev,
				 sizeof(params->tree_data_dev));
	vg_describe_block_device(root->table.hash_dev, params->tree_hash_dev,
				 sizeof(params->tree_hash_dev));
}

/* What the messages call the verified tree. */
static const char *tree_label(enum vg_tree tree)
{
	return tree == VG_TREE_USR ? "/usr" : "root";
}

/* rd.verigate.kdump=: the boot's only crash kernel, loaded now, while the
 * guards still let the initramfs do it; when enforcing, kept from then on. */
static int load_crash_kernel(const char *newroot, const struct vg_config *cfg, dev_t tree_dev)
{
	char cmdline[8192], crash[8192], err[1024];
	const char *kept = "no";

	if (read_file(PROC_CMDLINE, cmdline, sizeof(cmdline)) ||
	    vg_crash_cmdline(cmdline, crash, sizeof(crash))) {
		vg_log(VG_LOG_ERR, "rd.verigate.kdump=%s: cannot make its command line from %s",
		       cfg->kdump_kernel, PROC_CMDLINE);
		return -1;
	}
	if (vg_crash_kernel_load(newroot, tree_dev, cfg, crash, err, sizeof(err))) {
		vg_log(VG_LOG_ERR, "%s", err);
		return -1;
	}
#ifndef VG_TEST_WITHOUT_GUARDS
	if (cfg->mode == VG_MODE_ENFORCE && !(kept = vg_crash_kernel_keep(err, sizeof(err)))) {
		vg_log(VG_LOG_ERR, "%s", err);
		return -1;
	}
#endif
	vg_log(VG_LOG_NOTICE, "crash kernel loaded: kernel=%s initrd=%s kept=%s cmdline=%s",
	       cfg->kdump_kernel, cfg->kdump_initrd[0] ? cfg->kdump_initrd : "none", kept, crash);
	return 0;
}

/* What --root measures when load_gate did not: an off boot, an audit boot
 * without the bpf LSM, a failure. */
struct gate_event {
	char text[VG_MEASURE_EVENT_MAX];
	bool tpm_required;
};

static int load_gate(const char *newroot, struct gate_event *ev)
{
	struct vg_policy_params params = { 0 };
	struct vg_policy_report rep;
	struct vg_config cfg;
	struct vg_root root;
	struct stat initramfs, real_root;
	char tree[4096], err[512];
	struct timespec start;
	long verify_ms;

	clock_gettime(CLOCK_MONOTONIC, &start);
	vg_gate_describe_unloaded("failed", ev->text, sizeof(ev->text));
	if (load_config(&cfg, true))
		return 1;
	ev->tpm_required = cfg.tpm_required;
	vg_gate_describe_unloaded(vg_mode_name(cfg.mode), ev->text, sizeof(ev->text));
	if (cfg.mode == VG_MODE_OFF)
		return 0;
	if (snprintf(tree, sizeof(tree), "%s%s", newroot, vg_tree_dir(cfg.tree)) >= (int)sizeof(tree) ||
	    stat(newroot, &real_root)) {
		vg_log(VG_LOG_ERR, "cannot stat the new root %s", newroot);
		return 1;
	}
	if (vg_root_verify(tree, vg_tree_option(cfg.tree), cfg.roothash, &root, err, sizeof(err))) {
		vg_log(VG_LOG_ERR, "refusing the %s: %s", tree_label(cfg.tree), err);
		return 1;
	}
	verify_ms = vg_ms_since(&start);
	if (!bpf_lsm_active(true))
		return cfg.mode == VG_MODE_ENFORCE ? 1 : 0;
	if (!ftrace_patching_on())
		return cfg.mode == VG_MODE_ENFORCE ? 1 : 0;
	if (mount_if_missing(BPFFS, "bpf", BPF_FS_MAGIC, "mode=0700") || stat("/", &initramfs) ||
	    find_landmarks(newroot, &params))
		return 1;

	params.trusted_dev = vg_kernel_dev(root.dev);
	params.real_root_dev = vg_kernel_dev(real_root.st_dev);
	params.initramfs_dev = vg_kernel_dev(initramfs.st_dev);
	params.enforce = cfg.mode == VG_MODE_ENFORCE;
	params.deny_anon_exec = cfg.deny_anon_exec;
	set_verity_params(&cfg, &root, &params);
	if (vg_policy_install(&params, PIN_DIR, &rep, err, sizeof(err))) {
		vg_log(VG_LOG_ERR, "nothing loaded: %s", err);
		return 1;
	}
#ifndef VG_TEST_WITHOUT_GUARDS
	/* Test builds without guards leave it out too: their control boots
	 * show what an unmount of /sys/fs/bpf does to an unprotected gate. */
	if (vg_anchor_pins(PIN_DIR, err, sizeof(err))) {
		vg_log(VG_LOG_ERR, "the gate is loaded but its pins are not anchored: %s", err);
		return 1;
	}
#endif
	if (describe_loaded(&cfg, &rep, ev->text, sizeof(ev->text)) ||
	    measure_gate(ev->text, cfg.tpm_required))
		return 1;
	report_loaded(&cfg, &root, &params, &rep, vg_ms_since(&start), verify_ms);
	report_measured(ev->text);
	if (cfg.kdump_kernel[0] && load_crash_kernel(newroot, &cfg, root.dev))
		return 1;
	return 0;
}

static int check_device(const char *path)
{
	struct vg_config cfg;
	struct vg_root root;
	char err[512];

	if (load_config(&cfg, false))
		return 1;
	if (cfg.mode == VG_MODE_OFF)
		return 0;
	if (vg_verity_device_verify(path, vg_tree_option(cfg.tree), cfg.roothash, &root, err,
				    sizeof(err))) {
		vg_log(VG_LOG_ERR, "refusing the %s device: %s", tree_label(cfg.tree), err);
		return 1;
	}
	return 0;
}

static int check_cmdline(void)
{
	struct vg_config cfg;

	if (load_config(&cfg, true))
		return 1;
	printf("%s\n", vg_mode_name(cfg.mode));
	return 0;
}

static int assert_loaded(void)
{
	struct vg_config cfg;
	char err[512];

	if (load_config(&cfg, false))
		return 1;
	if (cfg.mode == VG_MODE_OFF)
		return 0;
	/* Audit mode boots without the bpf LSM; --root has logged why. */
	if (cfg.mode == VG_MODE_AUDIT && !bpf_lsm_active(false))
		return 0;
	if (vg_policy_check_pinned(PIN_DIR, cfg.deny_anon_exec, err, sizeof(err))) {
		vg_log(VG_LOG_ERR, "rd.verigate is on but the gate is not loaded: %s", err);
		return 1;
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: verigate-loader --check-cmdline\n"
		"       verigate-loader --check-device DEVICE\n"
		"       verigate-loader --root NEWROOT\n"
		"       verigate-loader --assert-loaded\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--check-cmdline"))
		return check_cmdline();
	if (argc == 2 && !strcmp(argv[1], "--assert-loaded"))
		return assert_loaded();
	if (argc == 3 && !strcmp(argv[1], "--check-device"))
		return check_device(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--root")) {
		struct gate_event ev = { 0 };
		int rc = load_gate(argv[2], &ev);

		if (!measured.done) {
			if (measure_gate(ev.text, ev.tpm_required))
				return 1;
			report_measured(ev.text);
		}
		return rc;
	}
	return usage();
}
