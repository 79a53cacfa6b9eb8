# In-guest test: root attacks the gate itself. Each attack is refused with
# EPERM when enforcing with the guards; the control boots (--guards off,
# audit) show the same attack working. The attacks that destroy the gate
# come last, and on a control boot they prove that the gate is then gone.
. /mnt/lib.sh

pin_dir=/sys/fs/bpf/verigate
first_id() { loader_field "$1" | cut -d, -f1; }
hello=/usr/local/bin/vg-hello
cp "$hello" /tmp/hello
chmod +x /tmp/hello
cp /usr/local/bin/dummy.ko /tmp/dummy.ko

# BPF objects: no fd for verigate's programs, maps and links, by ID or pin.
guard_attack bpf-prog-get-fd-by-id allowed bpf-attack get-fd prog "$(first_id prog_ids)"
guard_attack bpf-map-get-fd-by-id allowed bpf-attack get-fd map "$(first_id map_ids)"
guard_attack bpf-link-get-fd-by-id allowed bpf-attack get-fd link "$(first_id link_ids)"
# And for every other one of them (verigate's own: not in make compare).
# On a control boot an object may be gone: a view whose pin the views test
# removed, or, without guards, the map only the guards use.
if [ "$SURVEY" != 1 ]; then
    for kind in prog map link; do
        n=0
        for id in $(loader_field ${kind}_ids | tr , ' '); do
            n=$((n + 1))
            [ "$n" != 1 ] || continue
            name=bpf-$kind-get-fd-by-id-$n
            out=$(bpf-attack get-fd $kind "$id" 2>&1)
            case $out in
                *"errno=OTHER:ENOENT"*)
                    if [ "$MODE" = 1 ] && [ "$GUARDS" -gt 0 ]; then
                        fail "$name" "$kind $id is gone while guarded: $out"
                    else
                        skip "$name" "$kind $id is gone on this control boot"
                    fi ;;
                *) guard_attack "$name" allowed echo "$out" ;;
            esac
        done
    done
    # The sweep's refusals used up the log's budget (decide.h: 50 lines per
    # 5 s); the tests below that look for their refusal in the log wait for
    # the next window.
    sleep 6
fi
# An fd for a link by ID is refused; detaching or updating an LSM link is
# not possible even with one (the kernel has no detach or update for them:
# EOPNOTSUPP, and EINVAL for an update).
for op in detach update; do
    out=$(bpf-attack link-$op "$(first_id link_ids)" 2>&1)
    if guarded; then
        check "bpf-link-$op" denied "" echo "$out"
    else
        case $out in
            *"errno=OTHER:EOPNOTSUPP"* | *"errno=OTHER:EINVAL (BPF_LINK_UPDATE"*)
                pass "bpf-link-$op" "the kernel refuses: $out" ;;
            *) fail "bpf-link-$op" "expected the kernel to refuse, got: $out" ;;
        esac
    fi
done
# So opening a pin is not guarded (a guard would run on every directory of
# every path walk): BPF_OBJ_GET of each gives a link fd, and the kernel
# refuses to detach or update the link behind it. The kernel's answer, so
# swept on the boots that enforce with guards only (and verigate's own: not
# in make compare). The views' iterator links are in views.sh.
guarded && [ "$SURVEY" != 1 ] && for pin in "$pin_dir"/*; do
    name=${pin##*/}
    case $name in status | denials | '*') continue ;; esac
    kernel_refuses "pin-link-detach-$name" EOPNOTSUPP bpf-attack link-detach "$pin"
    kernel_refuses "pin-link-update-$name" EINVAL bpf-attack link-update "$pin"
done
guard_attack bpf-map-dump allowed sh -c 'bpftool map dump name counters > /dev/null && echo allowed'
# The map of verigate's own objects is frozen by the loader: even with an
# fd (on the audit boot, where the guards do not refuse one) the kernel
# refuses to change it, while verigate's other maps can be written.
map_id_of() { bpftool map show name "$1" | sed -n 's/^\([0-9]*\): .*/\1/p'; }
if [ "$SURVEY" = 1 ]; then
    :
elif [ "$MODE" = 1 ] && [ "$GUARDS" -gt 0 ]; then
    check bpf-map-write denied "" bpf-attack map-write "$(first_id map_ids)"
else
    if [ "$GUARDS" -gt 0 ]; then
        out=$(bpf-attack map-write "$(map_id_of own_objects)" 2>&1)
        case $out in
            *"errno=EPERM (BPF_MAP_UPDATE_ELEM"*) pass own-objects-frozen "the kernel refused it: $out" ;;
            *) fail own-objects-frozen "expected EPERM from BPF_MAP_UPDATE_ELEM, got: $out" ;;
        esac
    else
        skip own-objects-frozen "no guards on this boot: only they use own_objects, so it went with the loader"
    fi
    check map-write-denial-ring allowed allowed bpf-attack map-write "$(map_id_of denial_ring)"
fi

# Programs that could make a hook return success.
guard_attack bpf-load-lsm allowed bpf-attack load-lsm
guard_attack bpf-load-fmod-ret allowed bpf-attack load-fmod-ret
# Kprobes: one that only reads loads, attaches and runs on every boot; one
# that calls bpf_override_return (where the kernel has it: the loader's
# line says kprobe_override=yes) could make a hook return success, and is
# refused. Debian's 6.1 has no such helper: its verifier refuses the call.
check bpf-kprobe-reads-and-counts allowed allowed kprobe-attack count
if grep -qw bpf_override_return /proc/kallsyms; then
    guard_attack bpf-load-kprobe-override allowed kprobe-attack override
else
    kernel_refuses bpf-load-kprobe-override EINVAL kprobe-attack override
fi
check bpf-socket-filter-still-works allowed allowed bpf-attack load-socket-filter
# A sysctl program: one attached after verigate's on the root cgroup could
# undo its refusal of the ftrace switch (bpf_set_retval).
guard_attack bpf-load-sysctl allowed bpf-attack load-sysctl

# ftrace patching: kernel.ftrace_enabled=0 turns the hooks' call sites,
# and with them every BPF LSM program, back into no-ops. Through /proc,
# through a procfs mounted elsewhere, and through the procfs of a new
# mount namespace. On the control the write goes through, the gate falls
# silent (a tmpfs program runs), and it comes back with 1.
ftrace_switch() { write-attack write "$1/sys/kernel/ftrace_enabled" 0; }
ftrace_on() { echo 1 > /proc/sys/kernel/ftrace_enabled; } 2> /dev/null
mkdir -p /tmp/proc2
mount -t proc proc /tmp/proc2
guard_attack ftrace-switch-off allowed ftrace_switch /proc
if [ "$MODE" = 1 ] && [ "$GUARDS" = 0 ]; then
    check ftrace-off-silences-gate allowed "vg-hello: running" vg-try exec /tmp/hello
    # What monitoring sees: verigatectl check finds the exec probe let through.
    out=$(verigatectl check 2>&1)
    case "$?|$out" in
        "5|"*"exec: NOT refused: the memfd copy ran"*) pass ctl-check-finds-silenced-gate "exit 5: $(echo "$out" | grep '^exec: ')" ;;
        *) fail ctl-check-finds-silenced-gate "expected exit 5 with the exec probe not refused: $out" ;;
    esac
    ftrace_on
    check ftrace-on-restores-gate denied "" vg-try exec /tmp/hello
fi
ftrace_on
guard_attack ftrace-switch-off-other-procfs allowed ftrace_switch /tmp/proc2
ftrace_on
umount /tmp/proc2
guard_attack ftrace-switch-off-new-namespace allowed unshare -m sh -c \
    'mkdir -p /tmp/proc3 && mount -t proc proc /tmp/proc3 && write-attack write /tmp/proc3/sys/kernel/ftrace_enabled 0'
ftrace_on
check ftrace-switch-readable allowed 1 cat /proc/sys/kernel/ftrace_enabled
# The sysctl program refuses that one write only: other knobs stay writable.
check sysctl-other-knob-writable allowed allowed \
    sh -c 'v=$(cat /proc/sys/vm/swappiness) && echo "$v" > /proc/sys/vm/swappiness && echo allowed'

# freplace: verigate's one global function, vg_note_refusal (it logs a
# refusal and records it in the denial ring; the verdict is made around
# it), replaced in the exec program by one that returns 0. Refused when
# guarded (no fd for the program; an EXT load would be refused too). On
# the controls it attaches: a refused (or, in audit, logged) exec then
# leaves no line in the log, and the verdict is the same.
exec_prog_id() {
    i=$(dmesg | grep -o 'verified_insns [^ ]*' | head -n 1 | cut -d' ' -f2 | tr , '\n' |
        grep -nE '^verigate_exec(_layers)?=' | cut -d: -f1)
    [ -n "$i" ] && loader_field prog_ids | cut -d, -f"$i"
}
# Counted in the kernel log, where tp_printk copies each line: the trace
# buffer is a ring, and lost 5 lines under this test once (6.1, audit).
exec_log_lines() { dmesg | grep -cE 'verigate: (deny|audit) exec '; }
if [ "$MODE" = 1 ] && [ "$GUARDS" -gt 0 ]; then
    check bpf-freplace-note-refusal denied "" bpf-attack load-ext "$(exec_prog_id)" /tmp/hello
elif [ "$MODE" = 1 ] || [ "$MODE" = audit ]; then
    sleep 6 # a fresh window of the log's budget
    before=$(exec_log_lines)
    out=$(bpf-attack load-ext "$(exec_prog_id)" /tmp/hello 2>&1)
    during=$(exec_log_lines)
    vg-try exec /tmp/hello > /dev/null
    after=$(exec_log_lines)
    case $out in
        *allowed)
            if [ "$during" = "$before" ] && [ "$after" -gt "$during" ]; then
                pass bpf-freplace-note-refusal "attached: the exec under it left no log line ($before -> $during), one after it did ($after)"
            else
                fail bpf-freplace-note-refusal "attached, but log lines $before -> $during -> $after: $out"
            fi ;;
        *) fail bpf-freplace-note-refusal "expected the extension to attach: $out" ;;
    esac
fi

# Kernel code and memory.
guard_attack module-from-tmpfs allowed kernel-attack finit-module /tmp/dummy.ko
rmmod dummy 2> /dev/null
guard_attack module-from-buffer allowed kernel-attack init-module /tmp/dummy.ko
rmmod dummy 2> /dev/null
check module-from-image-still-loads allowed allowed kernel-attack finit-module /usr/local/bin/dummy.ko
rmmod dummy 2> /dev/null
if [ "$MODE" = 1 ] && [ "$GUARDS" -gt 0 ]; then
    check kexec-file-from-tmpfs denied "" kernel-attack kexec-file /tmp/hello
else
    # Control: the kernel reads the file and parses it (it is no kernel).
    kernel_refuses kexec-file-from-tmpfs ENOEXEC kernel-attack kexec-file /tmp/hello
fi
guard_attack kexec-load allowed kernel-attack kexec-load
# Firmware is read by the kernel from firmware_class.path: one on tmpfs is
# refused, one on the image loads. After a refusal request_firmware goes on
# to the next directory, so what reaches user space is the last one's
# ENOENT; the refusal itself (EPERM) shows in verigate's kernel log line.
firmware_load() {
    echo -n "$1" > /sys/module/firmware_class/parameters/path
    if echo -n vg-test.fw > /sys/devices/virtual/misc/test_firmware/trigger_request 2> /dev/null &&
        cmp -s "$1/vg-test.fw" /dev/test_firmware; then
        echo allowed
    else
        echo "not loaded: $(dmesg | grep 'vg-test.fw failed with error' | tail -n 1)"
    fi
}
mkdir -p /tmp/firmware
cp /usr/local/bin/vg-test.fw /tmp/firmware/
check firmware-module-from-image-loads allowed allowed kernel-attack finit-module /usr/local/bin/test_firmware.ko
echo "vg-test: firmware" > /dev/kmsg
out=$(firmware_load /tmp/firmware)
if [ "$MODE" = 1 ] && [ "$GUARDS" -gt 0 ]; then
    guard_line=$(dmesg | sed -n '/vg-test: firmware$/,$p' | grep -o 'verigate: deny guard kernel-read-file pid=[0-9]* comm=sh$')
    case $out in
        "not loaded: "*"error -2")
            if [ -n "$guard_line" ]; then
                pass firmware-from-tmpfs "denied with EPERM by the guard ($guard_line); the write then fails with the last directory's ENOENT"
            else
                fail firmware-from-tmpfs "not loaded, but no kernel-read-file refusal was logged: $out"
            fi ;;
        *) fail firmware-from-tmpfs "expected the load to be refused, got: $out" ;;
    esac
else
    check firmware-from-tmpfs allowed allowed echo "$out"
fi
check firmware-from-image-still-loads allowed allowed firmware_load /usr/local/bin
rmmod test_firmware 2> /dev/null
guard_attack dev-mem-open allowed kernel-attack dev-mem
guard_attack dev-port-open allowed kernel-attack dev-port
guard_attack proc-kcore-read allowed sh -c 'head -c 1 /proc/kcore > /dev/null && echo allowed'
guard_attack iopl allowed kernel-attack iopl
guard_attack ioperm allowed kernel-attack ioperm

# PID 1.
guard_attack ptrace-attach-pid1 allowed ptrace-attack attach-pid1
# procfs turns the guard's EPERM into EACCES for /proc/1/mem.
if [ "$MODE" = 1 ] && [ "$GUARDS" -gt 0 ]; then
    check proc-pid1-mem-write denied-eacces "" ptrace-attack proc-mem-pid1
    check process-vm-read-pid1 denied "" ptrace-attack vm-read-pid1
else
    check proc-pid1-mem-write allowed allowed ptrace-attack proc-mem-pid1
    check process-vm-read-pid1 allowed allowed ptrace-attack vm-read-pid1
fi

# The trusted device: a verity table with another root hash, suspend, rename.
dm_tree_attacks root

# bpffs: hide it, move it.
guard_attack mount-over-bpffs allowed mount-attack over /sys/fs/bpf
guard_attack mount-over-pin-dir allowed mount-attack over "$pin_dir"
mkdir -p /tmp/elsewhere
guard_attack mount-move-bpffs allowed mount-attack move /sys/fs/bpf /tmp/elsewhere
guard_attack pin-rename allowed sh -c "mv $pin_dir/verigate_exec $pin_dir/x && mv $pin_dir/x $pin_dir/verigate_exec && echo allowed"

# Destructive: on a control boot each one takes (part of) the gate away.
guard_attack pin-unlink allowed sh -c "rm $pin_dir/verigate_mmap && echo allowed"
if [ "$MODE" = 1 ] && [ "$GUARDS" = 0 ]; then
    check pin-unlink-detached-mmap-gate allowed allowed vg-try mmap-exec /tmp/hello
fi
guard_attack umount-bpffs allowed mount-attack umount /sys/fs/bpf
guard_attack umount-lazy-sys allowed mount-attack umount-lazy /sys
if [ "$MODE" = 1 ] && [ "$GUARDS" = 0 ]; then
    sleep 1
    check umount-detached-exec-gate allowed "vg-hello: running" vg-try exec /tmp/hello
elif [ "$MODE" = audit ]; then
    # The loader also binds the pins at a directory of the initramfs's root,
    # which the real root hides, and at /run/verigate-pins (7.2's nullfs
    # lets systemd detach the initramfs): with /sys/fs/bpf and /sys
    # unmounted the exec program still runs and logs (the --guards off
    # build has no anchors: there the same unmounts drop the gate, above).
    mkdir -p /tmp/tracing
    mount -t tracefs nodev /tmp/tracing
    sleep 6 # a fresh window of the log's budget
    before=$(grep -c 'verigate: audit exec' /tmp/tracing/trace)
    vg-try exec /tmp/hello > /dev/null
    after=$(grep -c 'verigate: audit exec' /tmp/tracing/trace)
    if [ "$after" -gt "$before" ] && ! [ -e "$pin_dir" ]; then
        pass anchored-gate-outlives-bpffs-umount "no $pin_dir, and the exec program still logged the tmpfs exec ($before -> $after lines)"
    else
        fail anchored-gate-outlives-bpffs-umount "audit exec lines $before -> $after; $(ls "$pin_dir" 2>&1 | head -n 1)"
    fi
else
    check gate-still-closed-after-attacks "$([ "$MODE" = 1 ] && echo denied || echo allowed)" \
        "vg-hello: running" vg-try exec /tmp/hello
fi
# The /run anchor can be seen: its unmount is refused as any bpffs mount's
# of the initial namespace, also lazily under /run, and from a new
# namespace whose /run copy is a peer of this one (the kernel would
# propagate the unmount here). Each attack also runs on a bind of the
# anchor made here (the same filesystem, so the same refusal): in audit
# mode, the control, each attack takes its mount away, checked in the
# mount table; the lazy unmount of /run, which takes all of /run, goes last.
gone() { ! grep -q " $1 " /proc/self/mountinfo; }
control_took() {
    [ "$MODE" = audit ] || return 0
    if gone "$2"; then
        pass "$1-took-it" "$2 is no longer mounted here"
    else
        fail "$1-took-it" "$2 is still mounted here after the unmount"
    fi
}
if [ -d /run/verigate-pins ]; then
    # systemd makes every mount shared at boot; busybox init does not.
    mount --make-shared /run
    mkdir -p /run/vg-anchor-copy /run/vg-anchor-copy-under-run /run/vg-tree
    mount --bind /run/verigate-pins /run/vg-anchor-copy
    mount --bind /run/verigate-pins /run/vg-anchor-copy-under-run
    # A tree under /run (shared, as /run is) holding a bind of the anchor.
    mount -t tmpfs vg-tree /run/vg-tree
    mkdir /run/vg-tree/pins
    mount --bind /run/verigate-pins /run/vg-tree/pins
    guard_attack umount-run-anchor-copy allowed mount-attack umount /run/vg-anchor-copy
    control_took umount-run-anchor-copy /run/vg-anchor-copy
    [ "$MODE" = audit ] || guard_attack umount-run-anchor allowed mount-attack umount /run/verigate-pins
    guard_attack shared-ns-umount-run-anchor allowed mount-attack --ns shared umount /run/verigate-pins
    control_took shared-ns-umount-run-anchor /run/verigate-pins
    # A lazy unmount, from a namespace whose copies are peers of these, of a
    # tree that holds the anchor: the kernel would take the tree here too.
    guard_attack shared-ns-umount-lazy-tree-above-anchor allowed mount-attack --ns shared umount-lazy /run/vg-tree
    control_took shared-ns-umount-lazy-tree-above-anchor /run/vg-tree/pins
    guard_attack umount-lazy-run-above-anchor allowed mount-attack umount-lazy /run
    control_took umount-lazy-run-above-anchor /run/vg-anchor-copy-under-run
else
    skip umount-run-anchor "no /run/verigate-pins: the --guards off build anchors nothing"
fi
