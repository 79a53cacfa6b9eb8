# In-guest test: when loading, attaching or pinning fails part-way, the
# loader's install code leaves nothing attached (no link, no program on the
# root cgroup) and no pin directory. The control installs with no fault
# and finds the links and the root cgroup's program attached.
. /mnt/lib.sh

dir=/sys/fs/bpf/vg-rollback
grep -q " /sys/fs/bpf bpf " /proc/mounts || mount -t bpf bpf /sys/fs/bpf
# Every BPF link in the system: verigate's hooks and its views (iterators).
all_links() { bpftool link show | grep -cE '^[0-9]+: '; }

# And the sysctl programs on the root cgroup, which have no link.
on_cgroup() { bpf-attack cgroup-sysctl-ids | tr '\n' ' '; }

before=$(all_links) cgroup_before=$(on_cgroup)
# The control first: it says how many links a full install makes, so the
# faults below include the last attach and the last pin. Its programs on
# the root cgroup are detached by ID after it (pins removed, its links go).
out=$(vg-rollback "$dir" pin 0 2>&1)
now=$(all_links) cgroup_now=$(on_cgroup)
n=$(echo "$out" | sed -n 's/^installed \([0-9]*\) links$/\1/p')
added=$(echo "$out" | sed -n 's/^on the root cgroup: //p')
if [ -n "$n" ] && [ "$n" -gt 0 ] && [ "$now" = $((before + n)) ] &&
    [ "$(ls "$dir" | wc -l)" = "$n" ] && [ -n "$added" ] &&
    [ "$cgroup_now" = "$cgroup_before$(echo "$added" | tr '\n' ' ')" ]; then
    pass install-without-fault "control: $(echo "$out" | tr '\n' ' '), links $before -> $now, root cgroup: $cgroup_now"
else
    fail install-without-fault "links $before -> $now, root cgroup '$cgroup_before' -> '$cgroup_now', output: $out"
fi
rm -rf "$dir"
for id in $added; do bpf-attack cgroup-sysctl-detach "$id" > /dev/null; done
last=${n:-2}

# Which attach to fail: on the --guards off boot every one, each guard and
# view included; elsewhere the first, the second and the last. Which pin:
# those three (each pin is made the same way, after its attach).
if [ "$MODE" = 1 ] && [ "$GUARDS" = 0 ]; then
    at_list=$(seq 1 "$last")
else
    at_list="1 2 $last"
fi
faults="load 1 load BPF programs"
for at in $at_list; do faults="$faults
attach $at attach"; done
for at in 1 2 "$last"; do faults="$faults
pin $at pin"; done

echo "$faults" | while read -r fault; do
    set -- $fault
    step=$1 at=$2
    shift 2
    out=$(vg-rollback "$dir" "$step" "$at" 2>&1)
    now=$(all_links) cgroup_now=$(on_cgroup)
    if [ "$now" = "$before" ] && [ "$cgroup_now" = "$cgroup_before" ] && [ ! -e "$dir" ] &&
        echo "$out" | grep -q "install failed: $*.*Input/output error"; then
        pass "rollback-after-$step-$at-fails" "$before links before and after, root cgroup '$cgroup_now', no $dir: $out"
    else
        fail "rollback-after-$step-$at-fails" "links $before -> $now, root cgroup '$cgroup_before' -> '$cgroup_now', $(ls -d "$dir" 2>&1), output: $out"
    fi
done
