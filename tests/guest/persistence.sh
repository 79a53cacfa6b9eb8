# In-guest test: the gate outlived the initramfs, holds no fds in any
# process, and its links are still attached; audit logs; off leaves no trace.
. /mnt/lib.sh

pin_dir=/sys/fs/bpf/verigate
line=$(dmesg | grep -o "verigate: [a-z]* roothash=.*" | head -n 1)
ids_of() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p" | tr ',' ' '; }

check booted-to-real-init allowed "pid1=/bin/sh /sbin/init " \
    echo "pid1=$(tr '\0' ' ' < /proc/1/cmdline)"

if [ "$MODE_NAME" = off ]; then
    # Control: with rd.verigate=0 the module does nothing at all.
    if [ -z "$line" ] && [ ! -e "$pin_dir" ]; then
        pass nothing-loaded "no kmsg line, no $pin_dir"
    else
        fail nothing-loaded "found '$line' or $pin_dir"
    fi
    exit 0
fi

want=enforcing
[ "$MODE" = audit ] && want=audit
case $line in
    "verigate: $want roothash=$ROOTHASH "*) pass kmsg-line "$line" ;;
    *) fail kmsg-line "expected 'verigate: $want roothash=$ROOTHASH ...', got '$line'" ;;
esac

fstype=$(stat -f -c %t /sys/fs/bpf 2> /dev/null) # BPF_FS_MAGIC
pins=$(ls "$pin_dir" 2> /dev/null | tr '\n' ' ')
if [ "$fstype" = cafe4a11 ] && [ "$pins" = "verigate_exec verigate_mmap verigate_mprot " ]; then
    pass links-pinned "$pins on bpffs"
else
    fail links-pinned "fs '$fstype', pins '$pins'"
fi

prog_ids=$(ids_of prog_ids)
link_ids=$(ids_of link_ids)
map_ids=""
for id in $prog_ids; do
    map_ids="$map_ids $(bpftool prog show id "$id" | sed -n 's/.*map_ids \([0-9,]*\).*/\1/p' | tr ',' ' ')"
done
attached=0
for id in $link_ids; do
    bpftool link show id "$id" 2> /dev/null | grep -q "prog_type lsm" && attached=$((attached + 1))
done
if [ -n "$link_ids" ] && [ "$attached" = "$(echo $link_ids | wc -w)" ]; then
    pass links-attached "bpftool link shows lsm links $link_ids"
else
    fail links-attached "links '$link_ids', attached $attached"
fi

# Every fd in every process that refers to one of verigate's BPF objects.
holders() {
    for fd in /proc/[0-9]*/fd/*; do
        target=$(readlink "$fd" 2> /dev/null) || continue
        case $target in
            anon_inode:bpf-prog) key=prog_id ids=$prog_ids ;;
            anon_inode:bpf-link) key=link_id ids=$link_ids ;;
            anon_inode:bpf-map) key=map_id ids=$map_ids ;;
            *) continue ;;
        esac
        info=$(echo "$fd" | sed 's|/fd/|/fdinfo/|')
        id=$(sed -n "s/^$key:[[:space:]]*//p" "$info" 2> /dev/null)
        for want in $ids; do
            [ "$id" = "$want" ] && echo "$fd($target $key=$id)"
        done
    done
}

# Control for the scan: a process that does hold a link fd must be found.
vg-try hold-pin "$pin_dir/verigate_exec" 30 > /tmp/hold.out 2>&1 &
holder=$!
sleep 1
found=$(holders)
kill "$holder" 2> /dev/null
wait "$holder" 2> /dev/null
case $found in
    *"/proc/$holder/"*) pass fd-scan-finds-a-holder "$found" ;;
    *) fail fd-scan-finds-a-holder "holder $holder not found ($(cat /tmp/hold.out)): '$found'" ;;
esac

found=$(holders)
if [ -z "$found" ] && [ -n "$prog_ids" ] && [ -n "$map_ids" ]; then
    pass no-fd-holders "no process holds progs $prog_ids, links $link_ids, maps$map_ids"
else
    fail no-fd-holders "holders: '$found' (progs '$prog_ids' maps '$map_ids')"
fi

if bpftool map dump name verigate.bss 2> /dev/null | grep -q '"initramfs_sealed": true'; then
    pass initramfs-sealed "PID 1 exec from the verity root closed the initramfs"
else
    fail initramfs-sealed "$(bpftool map dump name verigate.bss 2>&1 | head -n 5)"
fi

# A refused exec, and what the log and the counters say about it.
cp /usr/local/bin/vg-hello /tmp/logged
chmod +x /tmp/logged
vg-try exec /tmp/logged > /dev/null 2>&1
verdict=deny
[ "$MODE" = audit ] && verdict=audit
if grep -q "verigate: $verdict exec dev=0:[0-9]* ino=[0-9]* pid=[0-9]* comm=vg-try" /sys/kernel/tracing/trace; then
    pass decision-logged "$(grep -m 1 "verigate: $verdict exec" /sys/kernel/tracing/trace | sed 's/.*verigate:/verigate:/')"
else
    fail decision-logged "no 'verigate: $verdict exec' line in the trace buffer"
fi

# The per-decision counters: slot hook*3+verdict, exec is hook 0, deny 1, audit 2.
slot=1
[ "$MODE" = audit ] && slot=2
counted=$(bpftool -j map dump name counters 2> /dev/null |
    grep -oE "\"formatted\":\{\"key\":$slot,\"values\":\[[^]]*\]" |
    grep -oE '"value":[0-9]+' | sed 's/.*://' | awk '{ n += $1 } END { print n + 0 }')
if [ "$counted" -gt 0 ]; then
    pass decision-counted "counters[exec/$verdict] = $counted"
else
    fail decision-counted "counters[exec/$verdict] is 0: $(bpftool -j map dump name counters 2>&1 | head -c 300)"
fi
