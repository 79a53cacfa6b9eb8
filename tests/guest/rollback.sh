# In-guest test: when loading, attaching or pinning fails part-way, the
# loader's install code leaves nothing attached and no pin directory. The
# control installs with no fault and finds the links attached.
. /mnt/lib.sh

dir=/sys/fs/bpf/vg-rollback
grep -q " /sys/fs/bpf bpf " /proc/mounts || mount -t bpf bpf /sys/fs/bpf
# Every BPF link in the system: verigate's hooks and its views (iterators).
all_links() { bpftool link show | grep -cE '^[0-9]+: '; }

before=$(all_links)
# The control first: it says how many links a full install makes, so the
# faults below include the last attach and the last pin.
out=$(vg-rollback "$dir" pin 0 2>&1)
now=$(all_links)
n=$(echo "$out" | sed -n 's/^installed \([0-9]*\) links$/\1/p')
if [ -n "$n" ] && [ "$n" -gt 0 ] && [ "$now" = $((before + n)) ] &&
    [ "$(ls "$dir" | wc -l)" = "$n" ]; then
    pass install-without-fault "control: $out, links $before -> $now"
else
    fail install-without-fault "links $before -> $now, output: $out"
fi
rm -rf "$dir"
last=${n:-2}

# Which attach and pin to fail: on the --guards off boot every one, each
# guard and view included; elsewhere the first, the second and the last.
if [ "$MODE" = 1 ] && [ "$GUARDS" = 0 ]; then
    at_list=$(seq 1 "$last")
else
    at_list="1 2 $last"
fi
faults="load 1 load BPF programs"
for at in $at_list; do faults="$faults
attach $at attach"; done
for at in $at_list; do faults="$faults
pin $at pin"; done

echo "$faults" | while read -r fault; do
    set -- $fault
    step=$1 at=$2
    shift 2
    out=$(vg-rollback "$dir" "$step" "$at" 2>&1)
    now=$(all_links)
    if [ "$now" = "$before" ] && [ ! -e "$dir" ] &&
        echo "$out" | grep -q "install failed: $*.*Input/output error"; then
        pass "rollback-after-$step-$at-fails" "$before links before and after, no $dir: $out"
    else
        fail "rollback-after-$step-$at-fails" "links $before -> $now, $(ls -d "$dir" 2>&1), output: $out"
    fi
done
