# In-guest test: when pinning fails part-way, the loader's install code
# leaves nothing attached and no pin directory. The control installs with
# no fault and finds the links attached.
. /mnt/lib.sh

dir=/sys/fs/bpf/vg-rollback
grep -q " /sys/fs/bpf bpf " /proc/mounts || mount -t bpf bpf /sys/fs/bpf
lsm_links() { bpftool link show | grep -c 'prog_type lsm'; }

before=$(lsm_links)
for n in 1 2 3; do
    out=$(vg-rollback "$dir" "$n" 2>&1)
    now=$(lsm_links)
    if [ "$now" = "$before" ] && [ ! -e "$dir" ] &&
        echo "$out" | grep -q "install failed: pin .*: Input/output error"; then
        pass "rollback-after-pin-$n-fails" "$before lsm links before and after, no $dir"
    else
        fail "rollback-after-pin-$n-fails" "links $before -> $now, $(ls -d "$dir" 2>&1), output: $out"
    fi
done

out=$(vg-rollback "$dir" 0 2>&1)
now=$(lsm_links)
n=$(echo "$out" | sed -n 's/^installed \([0-9]*\) links$/\1/p')
if [ -n "$n" ] && [ "$n" -gt 0 ] && [ "$now" = $((before + n)) ] &&
    [ "$(ls "$dir" | wc -l)" = "$n" ]; then
    pass install-without-fault "control: $out, lsm links $before -> $now"
else
    fail install-without-fault "links $before -> $now, output: $out"
fi
rm -rf "$dir"
