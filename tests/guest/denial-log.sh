# In-guest test: verigate's decisions reach the kernel log (the guest boots
# with tp_printk) in one stable format, and a flood of refusals is rate
# limited: it cannot fill the log or stall the guest, and every refusal is
# either logged or counted in a "held back" line.
. /mnt/lib.sh

window=5    # seconds: VG_LOG_WINDOW_NS in bpf/decide.h
burst=50    # lines a window: VG_LOG_BURST
flood=100000
flood_bound_ms=120000 # a logged line each on the serial console would take ~10 min

hello=/usr/local/bin/vg-hello
cp "$hello" /tmp/logged
cp "$hello" /tmp/flooded
cp "$hello" /tmp/after
chmod +x /tmp/logged /tmp/flooded /tmp/after
decision_line() { echo "verigate: $1 exec dev=[0-9]*:[0-9]* ino=$(stat -c %i "$2") pid=[0-9]* comm=vg-try\$"; }

if [ "$(loader_field kernel_log)" = yes ]; then
    pass kernel-log-on "the loader says kernel_log=yes (tp_printk)"
else
    fail kernel-log-on "the loader line has no kernel_log=yes: $LOADER_LINE"
fi

# Start in a fresh window, so that the earlier tests' lines do not count.
sleep $((window + 1))
kmsg_mark one
vg-try exec /tmp/logged > /dev/null 2>&1
verdict=$([ "$MODE" = 1 ] && echo deny || echo audit)
if since_mark one | grep -q "$(decision_line "$verdict" /tmp/logged)"; then
    pass decision-in-kernel-log "$(since_mark one | grep -o "verigate: $verdict exec .*" | head -n 1)"
else
    fail decision-in-kernel-log "no '$(decision_line "$verdict" /tmp/logged)' after the marker: $(since_mark one | tail -n 3)"
fi

[ "$MODE" = 1 ] || exit 0
sleep $((window + 1))
kmsg_mark flood
out=$(vg-try exec-flood $flood /tmp/flooded 2>&1)
ms=$(echo "$out" | sed -n 's/^refused [0-9]* of [0-9]* with EPERM in \([0-9]*\) ms$/\1/p')
if [ "$out" = "refused $flood of $flood with EPERM in $ms ms" ] && [ "$ms" -lt $flood_bound_ms ]; then
    pass flood-refused-quickly "$out (bound ${flood_bound_ms} ms)"
else
    fail flood-refused-quickly "expected $flood refusals within ${flood_bound_ms} ms, got: $out"
fi
# A denial after a full window flushes the last held-back count.
sleep $((window + 1))
vg-try exec /tmp/after > /dev/null 2>&1
logged=$(since_mark flood | grep -c "$(decision_line deny /tmp/flooded)")
held=$(since_mark flood | sed -n 's/.*verigate: rate limit held back \([0-9]*\) lines$/\1/p' |
    awk '{ n += $1 } END { print n + 0 }')
windows=$((${ms:-0} / 1000 / window + 2))
if [ "$logged" -le $((burst * windows)) ] && [ $((logged + held)) = "$flood" ]; then
    pass flood-log-bounded "$logged lines logged, $held held back, in at most $windows windows of ${window}s"
else
    fail flood-log-bounded "$logged lines logged (bound $((burst * windows))), $held held back; want a sum of $flood"
fi
check image-program-runs-after-flood allowed "vg-hello: running" "$hello"
