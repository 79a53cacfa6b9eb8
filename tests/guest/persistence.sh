# In-guest test: the gate outlived the initramfs, holds no fds in any
# process, and its links are still attached; audit logs; off leaves no trace.
. /mnt/lib.sh

pin_dir=/sys/fs/bpf/verigate
ids_of() { loader_field "$1" | tr ',' ' '; }

check booted-to-real-init allowed "pid1=/bin/sh /sbin/init " \
    echo "pid1=$(tr '\0' ' ' < /proc/1/cmdline)"

if [ "$MODE_NAME" = off ]; then
    # Control: with rd.verigate=0 the module does nothing at all.
    if [ -z "$LOADER_LINE" ] && [ ! -e "$pin_dir" ]; then
        pass nothing-loaded "no kmsg line, no $pin_dir"
    else
        fail nothing-loaded "found '$LOADER_LINE' or $pin_dir"
    fi
    exit 0
fi

want=enforcing
[ "$MODE" = audit ] && want=audit
case $LOADER_LINE in
    "verigate: $want $TREE_OPTION=$TREE_HASH "*) pass kmsg-line "$LOADER_LINE" ;;
    *) fail kmsg-line "expected 'verigate: $want $TREE_OPTION=$TREE_HASH ...', got '$LOADER_LINE'" ;;
esac

fstype=$(stat -f -c %t /sys/fs/bpf 2> /dev/null) # BPF_FS_MAGIC
pins=$(ls "$pin_dir" 2> /dev/null | tr '\n' ' ')
links=$(ids_of link_ids | wc -w)
case "$fstype $pins" in
    "cafe4a11 "*verigate_exec\ *verigate_mmap\ verigate_mprot\ )
        if [ "$(echo "$pins" | wc -w)" = "$links" ]; then
            pass links-pinned "$links links pinned on bpffs: $pins"
        else
            fail links-pinned "$links links, pins: $pins"
        fi ;;
    *) fail links-pinned "fs '$fstype', pins '$pins'" ;;
esac

prog_ids=$(ids_of prog_ids)
link_ids=$(ids_of link_ids)
map_ids=$(ids_of map_ids)
# Each link (the hooks' and the views') still exists: bpftool shows it, or
# (guarded) is refused an fd for it; a detached link's ID would be gone
# (ENOENT).
attached=0
for id in $link_ids; do
    bpftool link show id "$id" 2>&1 | grep -qE "^$id: |Operation not permitted" &&
        attached=$((attached + 1))
done
if [ -n "$link_ids" ] && [ "$attached" = "$(echo "$link_ids" | wc -w)" ]; then
    pass links-attached "links $link_ids exist"
else
    fail links-attached "links '$link_ids', present $attached"
fi
if [ -n "$prog_ids" ] && [ -n "$map_ids" ]; then
    pass ids-reported "progs $prog_ids, maps $map_ids"
else
    fail ids-reported "kmsg line lacks IDs: '$LOADER_LINE'"
fi

# The loader's cost lines (make bench reads them): each program it
# attached, with its verified instructions and its load and attach time.
insns=$(dmesg | sed -n 's/.*verigate: verified_insns //p' | head -n 1)
costs=$(dmesg | sed -n 's/.*verigate: load_attach_us //p' | head -n 1)
insns_names=$(echo "$insns" | tr ',' '\n' | sed 's/=.*//')
costs_names=$(echo "$costs" | tr ',' '\n' | sed 's/=.*//')
unloaded=$(echo "$costs" | tr ',' '\n' | grep -vE '^[a-z_0-9]+=[1-9][0-9]*/[0-9]+$' || true)
if [ -n "$costs" ] && [ "$costs_names" = "$insns_names" ] &&
    [ "$(echo "$costs_names" | wc -l)" -eq "$(echo "$prog_ids" | wc -w)" ] &&
    [ -z "$unloaded" ]; then
    pass cost-lines "$(echo "$costs_names" | wc -l) programs, each with its load and attach time"
else
    fail cost-lines "verified_insns '$insns', load_attach_us '$costs'"
fi

# holders KIND IDS: every fd in every process that refers to a BPF object of
# KIND (prog, link, map) with one of IDS.
holders() {
    for fd in /proc/[0-9]*/fd/*; do
        [ "$(readlink "$fd" 2> /dev/null)" = "anon_inode:bpf-$1" ] || continue
        info=$(echo "$fd" | sed 's|/fd/|/fdinfo/|')
        id=$(sed -n "s/^$1_id:[[:space:]]*//p" "$info" 2> /dev/null)
        for want in $2; do
            [ "$id" = "$want" ] && echo "$fd($1_id=$id)"
        done
    done
}

# Control for the scan: a process that holds a map fd must be found.
vg-try hold-map 30 > /tmp/hold.out 2>&1 &
holder=$!
sleep 1
own=$(sed -n 's/^map_id //p' /tmp/hold.out)
found=$(holders map "$own")
kill "$holder" 2> /dev/null
wait "$holder" 2> /dev/null
case $found in
    *"/proc/$holder/"*) pass fd-scan-finds-a-holder "$found" ;;
    *) fail fd-scan-finds-a-holder "holder $holder of map '$own' not found: '$found'" ;;
esac

found="$(holders prog "$prog_ids")$(holders link "$link_ids")$(holders map "$map_ids")"
if [ -z "$found" ]; then
    pass no-fd-holders "no process holds progs $prog_ids, links $link_ids, maps $map_ids"
else
    fail no-fd-holders "holders: '$found'"
fi

if grep -qx 'initramfs_sealed yes' "$pin_dir/status"; then
    pass initramfs-sealed "the status view says initramfs_sealed yes"
else
    fail initramfs-sealed "$(head -n 6 "$pin_dir/status" 2>&1)"
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

# The per-decision counters, through the read-only status view (views.sh
# checks it counts exactly).
counted=$(sed -n "s/^count exec $verdict //p" /sys/fs/bpf/verigate/status 2>&1)
if [ -n "$counted" ] && [ "$counted" -gt 0 ]; then
    pass decision-counted "count exec $verdict $counted"
else
    fail decision-counted "no 'count exec $verdict N' > 0 in the status view: $(head -c 300 /sys/fs/bpf/verigate/status 2>&1)"
fi
