# shellcheck shell=sh
# In-guest part of make bench (tests/bench/run): the workloads of vg-bench,
# REPEATS times each, interleaved, then the BPF programs' own statistics
# where bpftool may read them. Prints "sample WORKLOAD NS_PER_OP OPS" lines,
# "bpf_cost WORKLOAD OPS NS_TOTAL" (verigate's programs' time in a timed
# loop, where readable), "prog_runs WORKLOAD OPS ID NAME RUN_CNT RUN_NS"
# (each of those programs' share of it), "prog_hook ID NAME TYPE HOOK"
# (each program's hook), "untar_tree FILES DIRS KB" (the tree the real
# workload unpacks), "refused WORKLOAD WHY", "boot_ms MS" (kernel start to this script),
# "idle_ms MS" (the CPU's idle time in it),
# "initrd_ms MS" (the initramfs' start to this script), "loader_ms MS",
# "load_phases_ms ...", "verified_insns NAME=N,...", "load_attach_us
# NAME=LOAD/ATTACH,...", "pmu WHAT", "unverified_exec runs|refused" and
# "progs_json JSON".
#   TWINS=1           also count the floor under verigate's cost ("twinned_cost
#                     WORKLOAD N NS_TOTAL", "twin_floor WORKLOAD N NS_TOTAL",
#                     "twin_runs WORKLOAD N ID RUN_CNT RUN_NS", "twin_skip ID
#                     NAME WHY")
#   IMA=1             first make IMA appraise every exec and executable
#                     mapping against the test key (the image is signed)
#   EXPECT_UNVERIFIED runs or refused: what this configuration must do
#                     with a program that is not in the verified image;
#                     anything else fails the boot (a configuration that
#                     does not gate measures nothing)
REPEATS=${REPEATS:-3}
SCALE=${SCALE:-1}
read -r uptime idle < /proc/uptime
boot_ms=${uptime%.*}${uptime#*.}0
echo "boot_ms $boot_ms"
echo "idle_ms ${idle%.*}${idle#*.}0"
run_init=$(dmesg | sed -n 's/^\[ *\([0-9]*\)\.\([0-9]\{3\}\).*\] Run \/init as init process.*/\1\2/p' | head -n 1)
[ -z "$run_init" ] || echo "initrd_ms $((boot_ms - run_init))"
# The loader's own time, where it went, and the verifier's count and the
# load and attach time per program, from its kmsg lines (none without
# verigate).
dmesg | sed -n 's/.*verigate: [a-z]* .* load_ms=\([0-9]*\) .*/loader_ms \1/p' | head -n 1
dmesg | sed -n 's/.*verigate: load_phases_ms /load_phases_ms /p' | head -n 1
# Of it, the TPM measurement (boots with a TPM).
dmesg | sed -n 's/.*verigate: measured into PCR 9 in \([0-9]*\) ms.*/measure_ms \1/p' | head -n 1
dmesg | sed -n 's/.*verigate: verified_insns /verified_insns /p' | head -n 1
dmesg | sed -n 's/.*verigate: load_attach_us /load_attach_us /p' | head -n 1
# Whether perf could count instructions here (under TCG it cannot).
dmesg | sed -n 's/.*Performance Events: /pmu /p' | head -n 1
if [ "${IMA:-0}" = 1 ]; then
    grep -q securityfs /proc/mounts || mount -t securityfs securityfs /sys/kernel/security
    vg-ima-enrol /mnt/cert.der > /dev/null || exit 1
    printf '%s\n' "appraise func=BPRM_CHECK appraise_type=imasig" \
        "appraise func=MMAP_CHECK appraise_type=imasig" > /sys/kernel/security/ima/policy || exit 1
fi
# The control: a copy of busybox outside the verified image (named
# busybox: it picks its applet by its own name).
mkdir -p /tmp/unverified
cat /bin/busybox > /tmp/unverified/busybox
chmod 0755 /tmp/unverified/busybox
if /tmp/unverified/busybox true 2> /dev/null; then unverified=runs; else unverified=refused; fi
echo "unverified_exec $unverified"
if [ -n "${EXPECT_UNVERIFIED:-}" ] && [ "$unverified" != "$EXPECT_UNVERIFIED" ]; then
    echo "bench: a program outside the verified image $unverified, expected: $EXPECT_UNVERIFIED" >&2
    exit 1
fi
sysctl -qw kernel.bpf_stats_enabled=1 2> /dev/null || echo 1 > /proc/sys/kernel/bpf_stats_enabled
# A shell script of many short execs, like a configure script.
cat > /tmp/script-workload.sh << 'SCRIPT'
i=0
while [ $i -lt 50 ]; do
    /bin/busybox true
    /bin/busybox test -e /bin/sh
    /bin/busybox expr $i + 1 > /dev/null
    i=$((i + 1))
done
SCRIPT
# Each of verigate's programs and its hook (where the guards let vg-bench
# see them).
vg-bench --hooks 2> /dev/null
# The real workload: unpack a source tree (/mnt/src.tar, the Linux UAPI
# headers, tests/bench/run) from tmpfs into tmpfs and remove it again, as
# one command. Once untimed first, to count the tree.
untar="mkdir /tmp/untar && tar -xf /tmp/src.tar -C /tmp/untar && rm -rf /tmp/untar"
cat /mnt/src.tar > /tmp/src.tar || exit 1
mkdir /tmp/untar && tar -xf /tmp/src.tar -C /tmp/untar || exit 1
echo "untar_tree $(find /tmp/untar -type f | wc -l) $(find /tmp/untar -type d | wc -l) $(du -sk /tmp/untar | cut -f1)"
rm -rf /tmp/untar
# vg_bench [--empty-twins] NAME COUNT: vg-bench on that workload (untar:
# the command above, the others vg-bench's own).
vg_bench() {
    twins=
    if [ "$1" = --empty-twins ]; then
        twins=$1
        shift
    fi
    # shellcheck disable=SC2086 # $twins: one word or none
    if [ "$1" = untar ]; then
        vg-bench $twins "$1" "$2" /bin/sh -c "$untar"
    else
        vg-bench $twins "$1" "$2"
    fi
}
# Each workload of vg-bench as NAME:COUNT: under TCG the exec loops take
# seconds, the others 0.2 to 1 s.
workloads="spawn-static:$((2000 * SCALE)) spawn-dynamic:$((200 * SCALE)) dlopen:$((1000 * SCALE))
    mprotect:$((10000 * SCALE)) stat:$((40000 * SCALE)) open:$((25000 * SCALE))
    open-read:$((20000 * SCALE)) open-write:$((20000 * SCALE)) ioctl:$((200000 * SCALE))
    rename:$((4000 * SCALE)) untar:$((2 * SCALE))"
r=0
while [ $r -lt "$REPEATS" ]; do
    for w in $workloads; do
        # A workload the gate refuses (IPE: anonymous executable memory)
        # is reported, not timed.
        # vg-bench prints "WORKLOAD N NS_PER_OP" and, where the BPF
        # statistics can be read, "bpf_cost WORKLOAD N NS_TOTAL" and
        # "prog_runs" lines.
        if out=$(vg_bench "${w%:*}" "${w#*:}" 2>&1); then
            echo "$out" | awk '$1 == "bpf_cost" || $1 == "prog_runs" { print; next } { print "sample", $1, $3, $2 }'
        else
            echo "refused ${w%:*} $out"
        fi
    done
    start=$(cut -d' ' -f1 /proc/uptime)
    sh /tmp/script-workload.sh
    end=$(cut -d' ' -f1 /proc/uptime)
    echo "$start $end" | awk '{ printf "sample script %.0f 150\n", ($2 - $1) * 1e9 / 150 }'
    r=$((r + 1))
done
# The floor under the counted cost (TWINS=1, audit boots): each workload
# once more, with an empty program beside each of verigate's on the same
# hook, both counted in the same loop (vg-bench --empty-twins). These
# loops are not timed samples: the twins slow them.
if [ "${TWINS:-0}" = 1 ]; then
    for w in $workloads; do
        out=$(vg_bench --empty-twins "${w%:*}" "${w#*:}" 2>&1) || {
            echo "bench: vg-bench --empty-twins ${w%:*}: $out" >&2
            exit 1
        }
        echo "$out" | awk '$1 ~ /^(twinned_cost|twin_floor|twin_runs|twin_skip)$/'
    done
fi
# run_cnt, run_time_ns and verified_insns of every BPF program, for the
# host to pick verigate's from (the guards refuse bpftool when enforcing;
# the audit boot lets it through).
echo "progs_json $(bpftool -j prog show 2> /dev/null)"
