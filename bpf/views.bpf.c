// SPDX-License-Identifier: GPL-2.0
/*
 * verigate's read-only views. Each is a BPF iterator whose link is pinned
 * next to the gate's links: reading /sys/fs/bpf/verigate/status or
 * .../denials runs it and returns text, one "key value" or record per line.
 * No fd for verigate's maps or programs is handed out, and the guards let
 * these pins be opened only for reading.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "decide.h"

struct seq_file;

struct bpf_iter_meta {
	struct seq_file *seq;
} __attribute__((preserve_access_index));

/* The iterator over all BPF maps: called once per map, then once with
 * map == NULL. The views print at that last call and ignore the maps. */
struct bpf_iter__bpf_map {
	struct bpf_iter_meta *meta;
	struct bpf_map *map;
} __attribute__((preserve_access_index));

/* Arrays of characters, not of pointers: libbpf cannot relocate a table
 * of string pointers in .rodata. */
static const char hook_names[VG_HOOK_COUNT][12] = {
	[VG_HOOK_EXEC] = "exec",
	[VG_HOOK_MMAP] = "mmap",
	[VG_HOOK_MPROTECT] = "mprotect",
	[VG_HOOK_CODE_WRITE] = "code_write",
	[VG_HOOK_GUARD] = "guard",
	[VG_HOOK_EXEC_CHECK] = "exec_check",
};

static const char verdict_names[VG_VERDICT_COUNT][6] = {
	[VG_VERDICT_ALLOW] = "allow",
	[VG_VERDICT_DENY] = "deny",
	[VG_VERDICT_AUDIT] = "audit",
};

static __always_inline const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

struct counter_sum {
	__u32 key;
	__u64 total;
};

static long add_cpu(__u32 cpu, struct counter_sum *sum)
{
	__u64 *n = bpf_map_lookup_percpu_elem(&counters, &sum->key, cpu);

	if (n)
		sum->total += *n;
	return 0;
}

/* bpf_loop hands its callback a pointer to the stack, not the seq_file. */
struct view_walk {
	struct seq_file *seq;
	__u64 last; /* the denials view: the last record's sequence number */
};

/* One "count HOOK VERDICT N" line, N summed over the CPUs. Called by
 * bpf_loop, so that the verifier checks it once, not once per counter. */
static long print_counter(__u32 key, struct view_walk *walk)
{
	struct counter_sum sum = { .key = key };
	__u32 hook = key / VG_VERDICT_COUNT, verdict = key % VG_VERDICT_COUNT;

	/* The verifier bounds neither a quotient nor a remainder: check both,
	 * and keep the compiler from dropping the checks or redoing the
	 * division after them. */
	barrier_var(hook);
	barrier_var(verdict);
	if (hook >= VG_HOOK_COUNT || verdict >= VG_VERDICT_COUNT)
		return 1;
	bpf_loop(nr_cpus, add_cpu, &sum, 0);
	BPF_SEQ_PRINTF(walk->seq, "count %s %s %llu\n", hook_names[hook], verdict_names[verdict],
		       sum.total);
	return 0;
}

static __always_inline char hex_digit(__u8 n)
{
	return n < 10 ? '0' + n : 'a' + n - 10;
}

/* A device's root digest in hex, at most VG_DIGEST_MAX bytes. (No table
 * of digits: bpftool's linker gave one in .rodata an offset overlapping
 * the variable before it, and the kernel refused the object's BTF.) */
static __always_inline void digest_hex(const struct vg_verity_device *d, char *hex)
{
	const __u8 *bytes = (const __u8 *)d->digest;
	__u32 i;

	for (i = 0; i < VG_DIGEST_MAX && i < d->digest_len; i++) {
		hex[2 * i] = hex_digit(bytes[i] >> 4);
		hex[2 * i + 1] = hex_digit(bytes[i] & 0xf);
	}
	hex[2 * i] = '\0';
}

/* One "verity_device MAJ:MIN VERDICT listed=.. signed=.. strict=.. roothash=HEX"
 * line per verity device verity_trust.bpf.c knows (bpf_for_each_map_elem). */
static long print_device(struct bpf_map *map, const __u64 *key, struct vg_verity_device *d,
			 struct view_walk *walk)
{
	char hex[2 * VG_DIGEST_MAX + 1];

	digest_hex(d, hex);
	BPF_SEQ_PRINTF(walk->seq,
		       "verity_device %u:%u %s listed=%s signed=%s strict=%s roothash=%s\n",
		       d->dev >> 20, d->dev & 0xfffff,
		       verity_device_trusted(d) ? "trusted" : "untrusted", yes_no(d->listed),
		       yes_no(d->signed_), yes_no(d->strict), hex);
	return 0;
}

SEC("iter/bpf_map")
int status(struct bpf_iter__bpf_map *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct view_walk walk = { .seq = seq };

	if (ctx->map)
		return 0;
	BPF_SEQ_PRINTF(seq, "mode %s\n", enforce ? "enforce" : "audit");
	BPF_SEQ_PRINTF(seq, "tree %s\n", tree_is_usr ? "usr" : "root");
	BPF_SEQ_PRINTF(seq, "%s %s\n", tree_is_usr ? "usrhash" : "roothash", tree_hash_hex);
	BPF_SEQ_PRINTF(seq, "trusted_dev %u:%u\n", trusted_dev >> 20, trusted_dev & 0xfffff);
	BPF_SEQ_PRINTF(seq, "data_device %s\n", tree_data_dev);
	BPF_SEQ_PRINTF(seq, "hash_device %s\n", tree_hash_dev);
	BPF_SEQ_PRINTF(seq, "initramfs_sealed %s\n", yes_no(initramfs_sealed));
	BPF_SEQ_PRINTF(seq, "anon_exec %s\n", deny_anon_exec ? "deny" : "allow");
	BPF_SEQ_PRINTF(seq, "verity_trust %s\n", yes_no(verity_trust));
	bpf_for_each_map_elem(&verity_devices, print_device, &walk, 0);
	BPF_SEQ_PRINTF(seq, "execve_check %s\n", yes_no(execve_check));
	BPF_SEQ_PRINTF(seq, "overlay %s\n", overlay_data_layer ? "data-layer" : "refused");
	BPF_SEQ_PRINTF(seq, "allow_signed %s\n", yes_no(allow_signed));
	BPF_SEQ_PRINTF(seq, "kprobe_override %s\n", yes_no(kprobe_override));
	BPF_SEQ_PRINTF(seq, "programs %s\n", program_names);
	BPF_SEQ_PRINTF(seq, "live_at_boot %u/%u\n", live_at_boot, programs_at_boot);
	bpf_loop(VG_COUNTER_SLOTS, print_counter, &walk, 0);
	BPF_SEQ_PRINTF(seq, "denials %llu\n", denial_seq);
	BPF_SEQ_PRINTF(seq, "log_held_back %llu\n", log_held_back);
	return 0;
}

/* comm is the caller's to choose: keep the view one record per line. A
 * bpf_loop callback, so that the verifier checks one character, not 16. */
static long sanitize_comm_char(__u32 i, char *comm)
{
	char c;

	if (i >= 16)
		return 1;
	c = comm[i];
	if (!c)
		return 1;
	if (c <= ' ' || c > '~' || c == '=')
		comm[i] = '?';
	return 0;
}

static long print_denial(__u32 i, struct view_walk *walk)
{
	__u32 slot = (walk->last + 1 + i) % VG_DENIAL_RING;
	struct vg_denial *d = bpf_map_lookup_elem(&denial_ring, &slot);
	char comm[16];

	if (!d || !d->seq || d->hook >= VG_HOOK_COUNT || d->verdict >= VG_VERDICT_COUNT ||
	    d->op >= VG_OP_COUNT)
		return 0;
	__builtin_memcpy(comm, d->comm, sizeof(comm));
	comm[15] = '\0';
	bpf_loop(sizeof(comm), sanitize_comm_char, comm, 0);
	BPF_SEQ_PRINTF(walk->seq,
		       "seq=%llu boot_ns=%llu verdict=%s hook=%s dev=%u:%u ino=%llu pid=%u comm=%s errno=%d what=%s\n",
		       d->seq, d->boot_ns, verdict_names[d->verdict], hook_names[d->hook],
		       d->dev >> 20, d->dev & 0xfffff, d->ino, d->pid, comm,
		       d->verdict == VG_VERDICT_DENY ? EPERM : 0, vg_op_names[d->op]);
	return 0;
}

/* The ring, oldest first: one line per record still in it. bpf_loop keeps
 * the verifier to one pass over the record's printing. */
SEC("iter/bpf_map")
int denials(struct bpf_iter__bpf_map *ctx)
{
	struct view_walk walk = { .seq = ctx->meta->seq, .last = denial_seq };

	if (ctx->map)
		return 0;
	bpf_loop(VG_DENIAL_RING, print_denial, &walk, 0);
	return 0;
}
