# In-guest test: the read-only views (/sys/fs/bpf/verigate/status and
# denials) and verigatectl, which reads them. They tell the truth (exact
# counts, the refused file's inode), need no write access, and cannot be
# written, opened as BPF objects or removed while the guards are on (the
# controls: --guards off and audit, where the same attempts succeed).
. /mnt/lib.sh

pin_dir=/sys/fs/bpf/verigate
hello=/usr/local/bin/vg-hello

if [ "$MODE_NAME" = off ]; then
    out=$(verigatectl status 2>&1)
    rc=$?
    case "$rc $out" in
        "4 verigatectl: verigate is not loaded"*) pass ctl-status-not-loaded "exit 4: $out" ;;
        *) fail ctl-status-not-loaded "expected exit 4, got $rc: $out" ;;
    esac
    exit 0
fi

want_mode=enforce
[ "$MODE" = audit ] && want_mode=audit
status=$(cat "$pin_dir/status" 2>&1)
field() { echo "$status" | sed -n "s/^$1 //p"; }

# What the loader logged and what the view says agree.
dev=$(loader_field dev)
if [ "$(field mode)" = "$want_mode" ] && [ "$(field "$TREE_OPTION")" = "$TREE_HASH" ] &&
    [ "$(field trusted_dev)" = "$dev" ] && [ "$(field initramfs_sealed)" = yes ]; then
    pass status-view "mode $want_mode, $TREE_OPTION, trusted_dev $dev, initramfs sealed"
else
    fail status-view "loader: mode $want_mode dev $dev $TREE_OPTION=$TREE_HASH; view: $status"
fi
# The loader's proof that the programs run, as its line and the view say.
if [ -n "$(field live_at_boot)" ] && [ "$(field live_at_boot)" = "$(loader_field live)" ]; then
    pass status-live-at-boot "live_at_boot $(field live_at_boot), as the loader logged"
else
    fail status-live-at-boot "view: '$(field live_at_boot)', loader: '$(loader_field live)'"
fi
# Every attached program is named, and each has its pin (the views too),
# but those on the root cgroup, which have no link: as many of the
# loader's programs are there (BPF_PROG_QUERY: bpftool would need an fd).
# A program judging overlay files by their data layer (7.2) is pinned
# under the name of the one it stands in for.
programs=$(field programs | tr ',' ' ')
missing="" pinned=0 unpinned=0
for p in $programs; do
    if [ -e "$pin_dir/${p%_layers}" ]; then
        pinned=$((pinned + 1))
    else
        unpinned=$((unpinned + 1)) missing="$missing $p"
    fi
done
on_cgroup=0
for id in $(bpf-attack cgroup-sysctl-ids); do
    case ,$(loader_field prog_ids), in *",$id,"*) on_cgroup=$((on_cgroup + 1)) ;; esac
done
if [ -n "$programs" ] && [ "$unpinned" = "$on_cgroup" ] && [ -e "$pin_dir/status" ] &&
    [ -e "$pin_dir/denials" ] && [ $((pinned + 2)) = "$(ls "$pin_dir" | wc -l)" ]; then
    pass status-programs "$(echo "$programs" | wc -w) programs: $pinned pinned,${missing:- none} on the root cgroup; and 2 views"
else
    fail status-programs "programs '$programs', unpinned '$missing', $on_cgroup of them on the root cgroup, pins: $(ls "$pin_dir" | tr '\n' ' ')"
fi

# Exact counts: N refused execs raise exec/deny (audit: exec/audit) by N,
# and the denial count by N; the ring keeps the last 64. One process per
# exec: in audit mode each exec succeeds, and what it runs maps itself
# (more audit records, of hook mmap).
n=100
verdict=deny
[ "$MODE" = audit ] && verdict=audit
cp "$hello" /tmp/counted
chmod +x /tmp/counted
before=$(status_count exec $verdict)
seq_before=$(sed -n 's/^denials //p' "$pin_dir/status")
i=0
while [ $i -lt $n ]; do
    vg-try exec /tmp/counted > /dev/null 2>&1
    i=$((i + 1))
done
after=$(status_count exec $verdict)
seq_after=$(sed -n 's/^denials //p' "$pin_dir/status")
records=$(wc -l < "$pin_dir/denials")
if [ -n "$before" ] && [ $((after - before)) = $n ] && [ $((seq_after - seq_before)) -ge $n ] &&
    [ "$records" = 64 ]; then
    pass status-counts-exact "exec/$verdict $before -> $after, denials $seq_before -> $seq_after, 64 records kept"
else
    fail status-counts-exact "exec/$verdict '$before' -> '$after' (want +$n), denials '$seq_before' -> '$seq_after', $records records"
fi

# The last exec record is that exec: the file's inode, who asked, the errno.
ino=$(stat -c %i /tmp/counted)
errno=1
[ "$MODE" = audit ] && errno=0
last_exec() { grep ' hook=exec ' "$pin_dir/denials" | tail -n 1; }
last=$(last_exec)
case $last in
    *" verdict=$verdict hook=exec dev="*" ino=$ino pid="*" comm=vg-try errno=$errno what=-")
        pass denial-recorded "$last" ;;
    *) fail denial-recorded "expected exec of inode $ino by vg-try, errno $errno: '$last'" ;;
esac

# A comm chosen to forge a record stays one line, without spaces or '='.
vg-try exec-as "$(printf 'x y=z\nq')" /tmp/counted > /dev/null 2>&1
last=$(last_exec)
case $last in
    *" comm=x?y?z?q errno=$errno what=-") pass denial-comm-sanitized "$last" ;;
    *) fail denial-comm-sanitized "$last" ;;
esac

# verigatectl: exit code by mode, the same counts, JSON for scripts.
out=$(verigatectl status 2>&1)
rc=$?
want_rc=0 want_line="verigate: enforcing"
[ "$MODE" = audit ] && want_rc=3 want_line="verigate: audit"
case "$rc|$out" in
    "$want_rc|$want_line"*) pass ctl-status "exit $rc, $(echo "$out" | head -n 1)" ;;
    *) fail ctl-status "expected exit $want_rc and '$want_line', got $rc: $(echo "$out" | head -n 3)" ;;
esac
json=$(verigatectl status --json 2>&1)
case $json in
    "{\"mode\":\"$want_mode\","*"\"initramfs_sealed\":true,"*"\"counts\":{\"exec\":{\"allow\":"*"\"$verdict\":$(status_count exec $verdict)"*"}},\"measured\":["*"],\"pcr9_sha256\":\""*"\"}")
        pass ctl-status-json "$(echo "$json" | cut -c 1-160)..." ;;
    *) fail ctl-status-json "$json" ;;
esac
out=$(verigatectl denials 2>&1 | grep ' exec ' | tail -n 1)
case $out in
    *"Z $verdict "*"exec "*" ino=$ino pid="*" comm=x?y?z?q"*) pass ctl-denials "$out" ;;
    *) fail ctl-denials "expected the exec of inode $ino: '$out'" ;;
esac
out=$(verigatectl denials --json 2>&1 | grep '"hook":"exec"' | tail -n 1)
case $out in
    "{\"seq\":"*"\"verdict\":\"$verdict\",\"hook\":\"exec\","*"\"ino\":$ino,"*"\"comm\":\"x?y?z?q\""*) pass ctl-denials-json "$out" ;;
    *) fail ctl-denials-json "$out" ;;
esac
# --follow prints what is refused after it started, and only that.
cp "$hello" /tmp/followed
chmod +x /tmp/followed
verigatectl denials --follow > /tmp/follow.out 2>&1 &
follower=$!
sleep 2
vg-try exec /tmp/followed > /dev/null 2>&1
sleep 3
kill "$follower"
followed_ino=$(stat -c %i /tmp/followed)
if grep -q " ino=$followed_ino " /tmp/follow.out && [ "$(grep -c . /tmp/follow.out)" -ge 65 ]; then
    pass ctl-denials-follow "the new refusal appeared after the 64 kept: $(tail -n 1 /tmp/follow.out)"
else
    fail ctl-denials-follow "no record of inode $followed_ino in: $(tail -n 3 /tmp/follow.out)"
fi

# The views cannot be written: a view has no write (EINVAL), on every boot.
kernel_refuses view-write EINVAL write-attack write "$pin_dir/status"
# A view's link fd (its pin is not guarded: guards.sh) could swap the
# iterator's program for another iterator over BPF maps, which is refused
# where the guards are; on the controls the swap goes through and the view
# then prints nothing. Then removal. Both on the denials view, last, as on
# the controls they succeed.
guard_attack view-link-update allowed bpf-attack link-update "$pin_dir/denials"
if ! guarded && [ "$SURVEY" != 1 ]; then
    check view-link-update-emptied allowed empty sh -c "[ -z \"\$(cat $pin_dir/denials)\" ] && echo empty"
fi
guard_attack view-unlink allowed sh -c "rm $pin_dir/denials && echo allowed"
