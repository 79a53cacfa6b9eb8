# In-guest test of the systemd image (tests/run-in-guest --image systemd):
# verigate under a real systemd PID 1. The boot finishes, the gate holds in
# the real root and across `systemctl daemon-reexec`, systemd's own cgroup
# BPF programs keep working, and the loader's kmsg line is in the journal.
. /mnt/lib.sh

pin_dir=/sys/fs/bpf/verigate
hello=/usr/local/bin/vg-hello
cp "$hello" /tmp/hello
chmod +x /tmp/hello
bound=180 # seconds the boot (and the re-exec) may take to settle

# system_state SECS: systemctl is-system-running, once it says running or
# degraded, or after SECS seconds.
system_state() {
    _i=0
    while :; do
        _state=$(systemctl is-system-running 2> /dev/null)
        case $_state in running | degraded) break ;; esac
        [ "$_i" -ge "$1" ] && break
        sleep 1
        _i=$((_i + 1))
    done
    echo "${_state:-no answer}"
}

# settled NAME: the system reaches running (or degraded) within $bound s.
settled() {
    _state=$(system_state "$bound")
    case $_state in
        running) pass "$1" "is-system-running: running" ;;
        degraded)
            pass "$1" "is-system-running: degraded; failed units: $(systemctl list-units \
                --failed --plain --no-legend 2> /dev/null | awk '{ print $1 }' | tr '\n' ' ')" ;;
        *)
            fail "$1" "is-system-running still '$_state' after $bound s; jobs: $(systemctl \
                list-jobs --plain --no-legend 2> /dev/null | head -n 5 | tr '\n' ';')" ;;
    esac
}

pins() { ls "$pin_dir" 2> /dev/null | tr '\n' ' '; }

# pinned NAME: the links are pinned when verigate was loaded; nothing when off.
pinned() {
    _pins=$(pins)
    if [ "$MODE_NAME" = off ]; then
        if [ ! -e "$pin_dir" ]; then
            pass "$1" "verigate off: no $pin_dir"
        else
            fail "$1" "verigate off, yet $pin_dir holds '$_pins'"
        fi
    else
        case $_pins in
            *verigate_exec*) pass "$1" "pins: $_pins" ;;
            *) fail "$1" "expected the links pinned in $pin_dir, found '$_pins'" ;;
        esac
    fi
}

# systemd is PID 1 and the boot finished.
comm=$(cat /proc/1/comm)
cmd=$(tr '\0' ' ' < /proc/1/cmdline)
if [ "$comm" = systemd ]; then
    pass systemd-is-pid1 "PID 1 is systemd ($cmd)"
else
    fail systemd-is-pid1 "PID 1 is '$comm' ($cmd)"
fi
settled boot-finished
state=$(systemctl is-active multi-user.target 2>&1)
if [ "$state" = active ]; then
    pass multi-user-target "multi-user.target is active"
else
    fail multi-user-target "multi-user.target is '$state'"
fi

# The gate is attached under systemd.
attack exec-from-tmpfs "vg-hello: running" vg-try exec /tmp/hello
pinned links-pinned
pins_before=$(pins)

# PID 1 re-executes itself: the gate does not depend on it.
reexecs() { journalctl -b _PID=1 -o cat --no-pager 2> /dev/null | grep -c '^Reexecuting\.$'; }
before=$(reexecs)
out=$(systemctl daemon-reexec 2>&1)
rc=$?
settled reexec-settled
i=0
while [ "$(reexecs)" = "$before" ] && [ $i -lt 10 ]; do
    sleep 1
    i=$((i + 1))
done
after=$(reexecs)
comm=$(cat /proc/1/comm)
if [ "$rc" = 0 ] && [ "$comm" = systemd ] && [ "$after" -gt "$before" ]; then
    pass daemon-reexec "PID 1 logged 'Reexecuting.' and is systemd again"
else
    fail daemon-reexec "rc=$rc '$out', PID 1 '$comm', 'Reexecuting.' logged $before times before, $after after"
fi
attack exec-from-tmpfs-after-reexec "vg-hello: running" vg-try exec /tmp/hello
pinned links-pinned-after-reexec
if [ "$(pins)" = "$pins_before" ]; then
    pass pins-unchanged-by-reexec "'$pins_before'"
else
    fail pins-unchanged-by-reexec "before '$pins_before', after '$(pins)'"
fi

# in_unit PROPERTY... CMD...: run CMD as a transient oneshot service and
# print its output; the status is systemd-run's, which waits for the start
# job and fails when CMD does. (systemd-run --wait and --pipe need the D-Bus
# daemon, which the image has not; without them it talks to PID 1 directly.)
in_unit() {
    rm -f /tmp/unit.out
    systemd-run --quiet --collect --service-type=oneshot \
        -p StandardOutput=truncate:/tmp/unit.out "$@" > /tmp/unit.err 2>&1
    _rc=$?
    cat /tmp/unit.out /tmp/unit.err 2> /dev/null
    return $_rc
}

# systemd's own cgroup BPF programs (IP firewall, device controller) load,
# attach and take effect in every mode.
out=$(in_unit -p IPAddressDeny=any -p DevicePolicy=strict -p 'DeviceAllow=/dev/null rw' /bin/true)
rc=$?
if [ "$rc" = 0 ]; then
    pass bpf-unit-starts "systemd-run -p IPAddressDeny=any -p DeviceAllow=/dev/null /bin/true: exit 0"
else
    fail bpf-unit-starts "exit $rc: $out"
fi
# The programs really are in force: /dev/zero is refused by the device
# program, 127.0.0.1 by the IP firewall; the same without them works.
zero='head -c 1 /dev/zero > /dev/null 2>&1 && echo zero-read || echo zero-refused'
out=$(in_unit -p DevicePolicy=strict -p 'DeviceAllow=/dev/null rw' sh -c "$zero")
control=$(in_unit sh -c "$zero")
if [ "$out" = zero-refused ] && [ "$control" = zero-read ]; then
    pass bpf-device-policy "DevicePolicy=strict refuses /dev/zero; without it, it reads"
else
    fail bpf-device-policy "strict: '$out', without: '$control'"
fi
ping='busybox ping -c 1 -W 2 127.0.0.1 > /dev/null 2>&1 && echo ping-ok || echo ping-refused'
out=$(in_unit -p IPAddressDeny=any sh -c "$ping")
control=$(in_unit sh -c "$ping")
if [ "$out" = ping-refused ] && [ "$control" = ping-ok ]; then
    pass bpf-ip-firewall "IPAddressDeny=any refuses 127.0.0.1; without it, ping answers"
else
    fail bpf-ip-firewall "deny: '$out', without: '$control'"
fi

# Refusals are visible: the trace buffer and the journal (the guest boots
# with tp_printk) have the denied exec, and the journal has the loader's
# kmsg line from the initrd.
cp "$hello" /tmp/logged
chmod +x /tmp/logged
vg-try exec /tmp/logged > /dev/null 2>&1
# journald takes "verigate:" for the record's syslog identifier, so only
# the short format shows it as the loader wrote it.
journal=$(journalctl -b -k --no-pager 2>&1)
line=$(echo "$journal" | grep -o -m 1 'verigate: .*')
case $MODE_NAME in
    enforce)
        deny="verigate: deny exec dev=[0-9:]* ino=$(stat -c %i /tmp/logged) pid=[0-9]* comm=vg-try"
        if grep -q "$deny" /sys/kernel/tracing/trace; then
            pass denial-traced "$(grep -m 1 "$deny" /sys/kernel/tracing/trace | sed 's/.*verigate:/verigate:/')"
        else
            fail denial-traced "no '$deny' in the trace buffer"
        fi
        tries=0
        until journalctl -b -k --no-pager -o cat 2>&1 | grep -q "$deny" || [ $tries -ge 20 ]; do
            sleep 0.5
            tries=$((tries + 1))
        done
        if [ $tries -lt 20 ]; then
            pass denial-in-journal "journalctl -k: $(journalctl -b -k --no-pager -o cat | grep -o -m 1 "$deny")"
        else
            fail denial-in-journal "no '$deny' in journalctl -k after 10 s"
        fi
        case $line in
            "verigate: enforcing $TREE_OPTION=$TREE_HASH "*) pass journal-kmsg-line "journalctl -k: $line" ;;
            *) fail journal-kmsg-line "journalctl -k has no 'verigate: enforcing $TREE_OPTION=$TREE_HASH', first verigate line: '$line'" ;;
        esac ;;
    audit)
        case $line in
            "verigate: audit $TREE_OPTION=$TREE_HASH "*) pass journal-kmsg-line "journalctl -k: $line" ;;
            *) fail journal-kmsg-line "journalctl -k has no 'verigate: audit $TREE_OPTION=$TREE_HASH', first verigate line: '$line'" ;;
        esac ;;
    off)
        # Control: the journal does hold the kernel's messages, and none
        # from verigate.
        if echo "$journal" | grep -q ' kernel: Linux version ' && [ -z "$line" ]; then
            pass journal-kmsg-line "journalctl -k has the kernel's log and no verigate line"
        else
            fail journal-kmsg-line "kernel log in the journal: $(echo "$journal" | grep -c .) lines, verigate line '$line'"
        fi ;;
esac
