# In-guest part of make bench (tests/bench/run): the workloads of vg-bench,
# REPEATS times each, interleaved, then the BPF programs' own statistics
# where bpftool may read them. Prints "sample WORKLOAD NS_PER_OP" lines,
# "refused WORKLOAD WHY", "boot_ms MS" (kernel start to this script),
# "loader_ms MS", "verified_insns NAME=N,..." and "progs_json JSON".
REPEATS=${REPEATS:-3}
SCALE=${SCALE:-1}
read -r uptime _ < /proc/uptime
echo "boot_ms ${uptime%.*}${uptime#*.}0"
# The loader's own time and the verifier's count per program, from its
# kmsg lines (none without verigate).
dmesg | sed -n 's/.*verigate: [a-z]* .* load_ms=\([0-9]*\) .*/loader_ms \1/p' | head -n 1
dmesg | sed -n 's/.*verigate: verified_insns /verified_insns /p' | head -n 1
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
r=0
while [ $r -lt "$REPEATS" ]; do
    for w in "spawn-static $((2000 * SCALE))" "spawn-dynamic $((200 * SCALE))" \
        "dlopen $((1000 * SCALE))" "mprotect $((10000 * SCALE))"; do
        set -- $w
        # A workload the gate refuses (IPE: anonymous executable memory)
        # is reported, not timed.
        if out=$(vg-bench "$1" "$2" 2>&1); then
            echo "sample $out" | awk '{ print "sample", $2, $4 }'
        else
            echo "refused $1 $out"
        fi
    done
    start=$(cut -d' ' -f1 /proc/uptime)
    sh /tmp/script-workload.sh
    end=$(cut -d' ' -f1 /proc/uptime)
    echo "$start $end" | awk '{ printf "sample script %.0f\n", ($2 - $1) * 1e9 / 150 }'
    r=$((r + 1))
done
# run_cnt, run_time_ns and verified_insns of every BPF program, for the
# host to pick verigate's from (the guards refuse bpftool when enforcing;
# the audit boot lets it through).
echo "progs_json $(bpftool -j prog show 2> /dev/null)"
