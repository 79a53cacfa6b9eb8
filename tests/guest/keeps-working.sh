# In-guest test: what users rely on keeps working under verigate's guards.
# The guards refuse unmounts that would propagate to the bpffs or /sys,
# move_mount in the initial namespace, writes to kernel.ftrace_enabled and,
# with rd.verigate.anon_exec=deny, W+X file mappings; none of that may break
#  1. systemd's mount sandboxing (PrivateTmp=, ProtectSystem=strict,
#     PrivateMounts=, TemporaryFileSystem=, ...), on the systemd image;
#  2. what a container runtime does: a new mount namespace made slave or
#     private, a root bound from the verified image, pivot_root and a lazy
#     unmount of the old root (or a move onto / and chroot), then a
#     program of the image run inside;
#  3. tracing that is not BPF: tracepoints, tracefs kprobes and uprobes,
#     the function tracer;
#  4. JITs: anonymous code, refused only with rd.verigate.anon_exec=deny.
# Every check runs on every boot; the control boots (off) show the same
# results without verigate. Each sandbox and container runs a program from
# the verified image, and at the end the gate must still be closed.
. /mnt/lib.sh

hello=/usr/local/bin/vg-hello
pin=/sys/fs/bpf/verigate/verigate_exec
cp "$hello" /tmp/kw-hello
chmod +x /tmp/kw-hello
# systemd as PID 1 (the systemd image). Not [ -d /run/systemd/system ]: a
# systemd initrd leaves that in /run, which switch_root carries over to the
# busybox image's init too.
systemd_pid1=0
[ "$(cat /proc/1/comm)" = systemd ] && systemd_pid1=1

# The pins are where the loader put them (there are none with verigate off).
pins_intact() { [ "$MODE_NAME" = off ] || [ -e "$pin" ]; }

# --- 1. systemd's mount sandboxing -------------------------------------------

# in_unit PROPERTY... CMD...: run CMD as a transient oneshot service and
# print its output (stdout and stderr); the status is systemd-run's, which
# waits for the start job and fails when CMD does. systemd-run --wait and
# --pipe need the D-Bus daemon, which the image has not ("Failed to connect
# to bus"); without them systemd-run talks to PID 1 directly. The output
# file is opened by PID 1 before the service's namespace is set up, so it
# is the real /run's even under ProtectSystem=strict.
# UNIT names the service (for its journal when it fails).
unit_out=/run/kw-unit.out
in_unit() {
    rm -f "$unit_out"
    timeout 120 systemd-run --quiet --collect --service-type=oneshot --unit="$UNIT" \
        -p StandardOutput=truncate:$unit_out "$@" > /run/kw-unit.err 2>&1
    _rc=$?
    cat "$unit_out" /run/kw-unit.err 2> /dev/null
    return $_rc
}

# The last refusal verigate logged (the trace buffer), for a failure's message.
last_refusal() {
    _l=$(grep -o 'verigate: .*' /sys/kernel/tracing/trace 2> /dev/null | tail -n 1)
    [ -z "$_l" ] || echo "; verigate's last log line: $_l"
}

# sandbox NAME "PROPERTY..." SCRIPT OUTSIDE WHAT: run SCRIPT (sh -c) in a
# transient service with the PROPERTY list (no spaces inside one). SCRIPT
# runs vg-hello from the image and prints "inside-ok" once it has seen the
# sandbox inside; afterwards the shell test OUTSIDE must hold here.
sandbox() {
    _name=$1 _props=$2 _script=$3 _outside=$4 _what=$5
    [ "$systemd_pid1" = 1 ] || return 0
    _args=""
    for _p in $_props; do _args="$_args -p $_p"; done
    UNIT=kw-$_name
    # shellcheck disable=SC2086 # one word per property
    _out=$(in_unit $_args sh -c "$_script")
    _rc=$?
    case $_out in
        *"vg-hello: running"*inside-ok*) ;;
        *)
            fail "sandbox-$_name" "systemd-run $_args sh -c '$_script': exit $_rc, output: $(echo "$_out" | tr '\n' ' ')journal: $(journalctl -b -u "$UNIT" -o cat --no-pager 2> /dev/null | tail -n 4 | tr '\n' ' ')$(last_refusal)"
            return ;;
    esac
    if eval "$_outside"; then
        pass "sandbox-$_name" "$_props: $_what"
    else
        fail "sandbox-$_name" "$_props: it ran, but outside '$_outside' does not hold"
    fi
}

[ "$systemd_pid1" = 1 ] ||
    skip sandbox "no systemd as PID 1 on this image (busybox init): the sandboxing checks need --image systemd"
echo outside > /tmp/kw-outside
sandbox private-tmp "PrivateTmp=yes" \
    "$hello && echo inside > /tmp/kw-inside && [ ! -e /tmp/kw-outside ] && echo inside-ok" \
    '[ ! -e /tmp/kw-inside ] && [ -e /tmp/kw-outside ]' \
    "vg-hello ran; the service's /tmp lacked /tmp/kw-outside, and its /tmp/kw-inside is not in the real /tmp"
# The root and /usr are read-only anyway (the verified image): strict shows
# on the writable tmpfs mounts, /run and /var/tmp.
sandbox protect-system-strict "ProtectSystem=strict" \
    "$hello && ! touch /run/kw-strict 2> /dev/null && ! touch /var/tmp/kw-strict 2> /dev/null && echo inside-ok" \
    '[ ! -e /run/kw-strict ] && touch /run/kw-strict-control && rm /run/kw-strict-control' \
    "vg-hello ran; /run and /var/tmp were read-only inside, /run is writable outside"
mkdir -p /tmp/kw-pm
sandbox private-mounts "PrivateMounts=yes" \
    "mount -t tmpfs kw-pm /tmp/kw-pm && echo inside > /tmp/kw-pm/marker && $hello && echo inside-ok" \
    '[ ! -e /tmp/kw-pm/marker ] && ! grep -q " /tmp/kw-pm " /proc/self/mountinfo' \
    "vg-hello ran; the tmpfs it mounted on /tmp/kw-pm stayed in its namespace"
# A service's mount namespace (PrivateMounts= and every other sandboxing
# option) is made a slave of the initial one, then systemd makes its copies
# shared again, among themselves (MountFlags=shared, the default): their
# peer groups are new ones, the initial namespace's mounts are their
# masters, and an unmount there propagates nowhere outside. (The mountinfo
# lines of /sys and the bpffs, with their shared:/master: tags, are in the
# output should it fail.)
mounts_of_sys='grep -E " /sys(/fs/bpf)? " /proc/self/mountinfo'
sandbox private-mounts-umount-bpffs "PrivateMounts=yes" \
    "$mounts_of_sys && umount /sys/fs/bpf && ! grep -q \" /sys/fs/bpf \" /proc/self/mountinfo && $hello && echo inside-ok" \
    'grep -q " /sys/fs/bpf " /proc/self/mountinfo && pins_intact' \
    "the service unmounted its bpffs, vg-hello ran; the real bpffs and its pins are untouched"
sandbox private-mounts-umount-lazy-sys "PrivateMounts=yes" \
    "$mounts_of_sys && umount -l /sys && [ ! -e /sys/fs/bpf ] && $hello && echo inside-ok" \
    'grep -q " /sys/fs/bpf " /proc/self/mountinfo && pins_intact' \
    "the service lazily unmounted its /sys, vg-hello ran; the real /sys, bpffs and pins are untouched"
sandbox private-mounts-mount-over-bpffs "PrivateMounts=yes" \
    "mount -t tmpfs kw-over /sys/fs/bpf && [ \"\$(stat -f -c %T /sys/fs/bpf)\" = tmpfs ] && $hello && echo inside-ok" \
    '[ "$(stat -f -c %T /sys/fs/bpf)" = bpf_fs ] && pins_intact' \
    "the service mounted a tmpfs over its bpffs, vg-hello ran; the real bpffs and its pins are untouched"
sandbox temporary-filesystem "TemporaryFileSystem=/var:ro BindReadOnlyPaths=$hello:/var/vg-hello" \
    "[ \"\$(ls -A /var)\" = vg-hello ] && ! touch /var/kw 2> /dev/null && /var/vg-hello && echo inside-ok" \
    '[ -n "$(ls -A /var)" ] && [ ! -e /var/vg-hello ]' \
    "/var was an empty read-only tmpfs but for vg-hello bound from the image, which ran from there"
# (Root passes the mode 000 of the node mounted over it: the file system
# type shows it.)
sandbox inaccessible-bpffs "InaccessiblePaths=/sys/fs/bpf" \
    "[ \"\$(stat -f -c %T /sys/fs/bpf)\" != bpf_fs ] && [ \"\$(stat -c %a /sys/fs/bpf)\" = 0 ] && $hello && echo inside-ok" \
    '[ "$(stat -f -c %T /sys/fs/bpf)" = bpf_fs ] && pins_intact' \
    "vg-hello ran; the service's /sys/fs/bpf was an inaccessible node mounted over it, the real bpffs is untouched"
sandbox protect-kernel-tunables "ProtectKernelTunables=yes" \
    "f=/proc/sys/kernel/printk_ratelimit; v=\$(cat \$f) && ! (echo \$v > \$f) 2> /dev/null && $hello && echo inside-ok" \
    'f=/proc/sys/kernel/printk_ratelimit; v=$(cat $f) && echo $v > $f' \
    "vg-hello ran; /proc/sys (and /sys) were read-only inside, the sysctl is writable outside"
sandbox private-devices "PrivateDevices=yes" \
    "[ ! -e /dev/vdc ] && [ -c /dev/null ] && $hello && echo inside-ok" \
    '[ -b /dev/vdc ]' \
    "vg-hello ran with a private /dev (no /dev/vdc inside)"
sandbox hardened-service "ProtectSystem=strict PrivateTmp=yes PrivateDevices=yes PrivateMounts=yes \
ProtectHome=yes ProtectKernelTunables=yes ProtectKernelModules=yes ProtectKernelLogs=yes \
ProtectControlGroups=yes ProtectClock=yes ProtectHostname=yes NoNewPrivileges=yes \
RestrictNamespaces=yes LockPersonality=yes MemoryDenyWriteExecute=yes SystemCallFilter=@system-service" \
    "$hello && echo inside-ok" true \
    "a service with the usual hardening all at once ran vg-hello"

# --- 2. a container runtime's sequence ---------------------------------------

# busybox init leaves the mounts private; systemd makes them shared at boot,
# which is what makes a runtime's "make it slave" step matter. The same here.
[ "$systemd_pid1" = 1 ] || mount --make-rshared /
mkdir -p /tmp/kw-ctr
# busybox unshare --propagation unchanged is broken (it mounts with no
# flags: EINVAL); shared leaves the copies peers of the already shared
# originals, as unshare(CLONE_NEWNS) does. The runtime then makes them
# slave or private itself.

# In the new namespace: make the copies $1 (rslave, rprivate), bind the
# whole root onto /tmp/kw-ctr, pivot_root into it with the old root stacked
# on top (pivot_root . .), lazily unmount the old root (the mount count
# shrinks), then run vg-hello from the image.
ctr_rbind_root='
    set -e
    busybox mount --make-"$1" /
    busybox mount --rbind / /tmp/kw-ctr
    cd /tmp/kw-ctr
    busybox pivot_root . .
    before=$(busybox wc -l < /proc/self/mountinfo)
    busybox umount -l .
    cd /
    after=$(busybox wc -l < /proc/self/mountinfo)
    echo "mounts before the unmount of the old root: $before, after: $after"
    [ "$after" -lt "$before" ]
    exec '$hello

# runc --no-pivot: the bound root moved onto / (mount(2) MS_MOVE, allowed
# outside the initial namespace), then chroot into it.
ctr_move_root='
    set -e
    busybox mount --make-"$1" /
    busybox mount --rbind / /tmp/kw-ctr
    cd /tmp/kw-ctr
    busybox mount --move . /
    echo "moved the bound root onto /"
    exec busybox chroot . '$hello

# As runc does: in new mount and PID namespaces, a root of its own (a tmpfs
# with bin, lib, usr, ... bound from the image, or the image's links to
# them), a new procfs, pivot_root with the old root under /old, a lazy
# unmount of it. Then $1: "run" runs vg-hello from the image; "gate" tries a
# copy of it on the container's tmpfs, which the gate must still refuse.
ctr_rootfs='
    set -e
    busybox mount --make-rslave /
    r=/tmp/kw-ctr
    busybox mount -t tmpfs kw-rootfs $r
    for d in bin sbin lib lib32 lib64 libx32 usr; do
        if [ -L /$d ]; then
            busybox ln -s "$(busybox readlink /$d)" $r/$d
        elif [ -d /$d ]; then
            busybox mkdir $r/$d
            busybox mount --rbind /$d $r/$d
        fi
    done
    busybox mkdir $r/proc $r/tmp $r/old
    busybox cp '$hello' $r/tmp/hello
    busybox mount -t proc proc $r/proc
    cd $r
    busybox pivot_root . old
    cd /
    busybox umount -l /old
    busybox rmdir /old
    echo "in the container: pid $$, $(busybox wc -l < /proc/self/mountinfo) mounts, / holds $(busybox ls / | busybox tr "\n" " ")"
    ! busybox grep -qE " /(sys|run|mnt|old) " /proc/self/mountinfo
    if [ "$1" = run ]; then exec '$hello'; else exec vg-try exec /tmp/hello; fi'

# container NAME WHAT UNSHARE-OPTIONS... -- SCRIPT ARG: run SCRIPT in the
# namespaces of busybox unshare's options; vg-hello must run at its end.
container() {
    _name=$1 _what=$2
    shift 2
    _opts=""
    while [ "$1" != -- ]; do _opts="$_opts $1"; shift; done
    # shellcheck disable=SC2086 # the options, one word each
    _out=$(busybox unshare $_opts busybox sh -c "$2" sh "$3" 2>&1)
    _rc=$?
    case $_rc,$_out in
        0,*"vg-hello: running"*) pass "container-$_name" "$_what: $(echo "$_out" | head -n 1)" ;;
        *) fail "container-$_name" "unshare$_opts, $_what: exit $_rc: $(echo "$_out" | tr '\n' ' ')" ;;
    esac
}

container rslave-pivot-root "rslave, / bound, pivot_root . ., umount -l ., vg-hello ran" \
    -m --propagation shared -- "$ctr_rbind_root" rslave
container rprivate-pivot-root "rprivate, / bound, pivot_root . ., umount -l ., vg-hello ran" \
    -m --propagation shared -- "$ctr_rbind_root" rprivate
# Rootless (podman, unshare -r): a user namespace; its copies of the mounts
# are locked, and slaves of the originals from the start.
container userns-pivot-root "user namespace, / bound, pivot_root . ., umount -l ., vg-hello ran" \
    -r -m --propagation shared -- "$ctr_rbind_root" rslave
container rslave-move-root "rslave, / bound, mount --move onto /, chroot, vg-hello ran" \
    -m --propagation shared -- "$ctr_move_root" rslave
container rootfs-pid-ns "PID namespace, a tmpfs root with the image's /usr etc. bound, new procfs, pivot_root, umount -l /old, vg-hello ran" \
    -m -p -f --propagation shared -- "$ctr_rootfs" run
# The exec gate holds inside the container too: it follows the file, not
# the mount namespace.
attack container-gate-holds "vg-hello: running" busybox unshare -m -p -f --propagation shared \
    busybox sh -c "$ctr_rootfs" sh gate

# --- 3. tracing that is not BPF ----------------------------------------------

tracing=/sys/kernel/tracing
[ -e $tracing/trace ] || mount -t tracefs tracefs $tracing
# A trace instance of its own: its buffer, events and tracer leave the
# top-level buffer (where verigate's denials are) alone.
inst=$tracing/instances/vg-keeps-working
rmdir $inst 2> /dev/null
mkdir $inst

# traced NAME WHAT PATTERN TRIGGER...: with the instance's events (and
# tracer) set up by the caller, run TRIGGER; PATTERN (grep -E) must be in the
# instance's trace.
traced() {
    _name=$1 _what=$2 _pattern=$3
    shift 3
    "$@" > /dev/null 2>&1
    _line=$(grep -E -m 1 "$_pattern" $inst/trace)
    if [ -n "$_line" ]; then
        pass "trace-$_name" "$_what: $(echo "$_line" | sed 's/^ *//' | cut -c 1-160)"
    else
        fail "trace-$_name" "$_what: no '$_pattern' in the trace; it has $(grep -vc '^#' $inst/trace) lines: $(grep -v '^#' $inst/trace | tail -n 2 | tr '\n' ' ')"
    fi
    echo > $inst/trace
}

# tracefs_write NAME TEXT FILE: TEXT appended to the tracefs FILE, or fail.
tracefs_write() {
    if ! _err=$(sh -c "echo '$2' >> $3" 2>&1); then
        fail "trace-$1" "echo '$2' >> $3: $_err"
        return 1
    fi
}

# A tracepoint, and a syscall one (sys_exit_group's code 77 is 0x4d).
if tracefs_write tracepoint-sched-exec 1 $inst/events/sched/sched_process_exec/enable; then
    traced tracepoint-sched-exec "sched/sched_process_exec" \
        "sched_process_exec: filename=$hello " "$hello"
    echo 0 > $inst/events/sched/sched_process_exec/enable
fi
if tracefs_write tracepoint-syscall 1 $inst/events/syscalls/sys_enter_exit_group/enable; then
    traced tracepoint-syscall "syscalls/sys_enter_exit_group" \
        "sys_exit_group\(error_code: (0x0*)?4d\)" sh -c 'exit 77'
    echo 0 > $inst/events/syscalls/sys_enter_exit_group/enable
fi

# tracefs kprobes, at entry and return (no BPF: the kprobe events of tracefs).
if tracefs_write kprobe 'p:vgprobe do_sys_openat2 dfd=%di' $tracing/kprobe_events &&
    tracefs_write kprobe 'r:vgretprobe do_sys_openat2 ret=$retval' $tracing/kprobe_events; then
    echo 1 > $inst/events/kprobes/vgprobe/enable
    echo 1 > $inst/events/kprobes/vgretprobe/enable
    traced kprobe "p:vgprobe do_sys_openat2" "vgprobe: \(do_sys_openat2\+0x0/" cat /mnt/lib.sh
    traced kretprobe "r:vgretprobe do_sys_openat2" "vgretprobe: \(.*<- do_sys_openat2\) ret=" cat /mnt/lib.sh
    echo 0 > $inst/events/kprobes/vgprobe/enable
    echo 0 > $inst/events/kprobes/vgretprobe/enable
    tracefs_write kprobe-removed '-:vgprobe' $tracing/kprobe_events &&
        tracefs_write kprobe-removed '-:vgretprobe' $tracing/kprobe_events &&
        if grep -q vgprobe $tracing/kprobe_events; then
            fail trace-kprobe-removed "still defined: $(cat $tracing/kprobe_events)"
        else
            pass trace-kprobe-removed "-:vgprobe and -:vgretprobe removed them"
        fi
fi

# A uprobe on vg-hello's entry point (_start): the kernel writes a
# breakpoint into the process's copy of the page of a file on the image.
# uprobe_events takes a file offset: that of the executable segment that
# holds e_entry.
elf_u() { od -A n -t u"$1" -j "$2" -N "$1" "$3" | tr -d ' \n'; }
entry_offset() {
    _entry=$(elf_u 8 24 "$1") _phoff=$(elf_u 8 32 "$1")
    _phentsize=$(elf_u 2 54 "$1") _phnum=$(elf_u 2 56 "$1")
    _i=0
    while [ "$_i" -lt "$_phnum" ]; do
        _ph=$((_phoff + _i * _phentsize))
        _type=$(elf_u 4 "$_ph" "$1") _flags=$(elf_u 4 $((_ph + 4)) "$1")
        _off=$(elf_u 8 $((_ph + 8)) "$1") _vaddr=$(elf_u 8 $((_ph + 16)) "$1")
        _filesz=$(elf_u 8 $((_ph + 32)) "$1")
        if [ "$_type" = 1 ] && [ $((_flags & 1)) = 1 ] && [ "$_entry" -ge "$_vaddr" ] &&
            [ "$_entry" -lt $((_vaddr + _filesz)) ]; then
            printf '0x%x\n' $((_entry - _vaddr + _off))
            return 0
        fi
        _i=$((_i + 1))
    done
    return 1
}
if ! offset=$(entry_offset $hello); then
    fail trace-uprobe "no executable PT_LOAD segment holds $hello's entry point"
elif tracefs_write uprobe "p:vguprobe $hello:$offset" $tracing/uprobe_events; then
    echo 1 > $inst/events/uprobes/vguprobe/enable
    traced uprobe "p:vguprobe $hello:$offset (_start)" "vg-hello-[0-9]+ .* vguprobe: \(0x" "$hello"
    # And the probed program still ran as it should.
    check trace-uprobe-program-ran allowed "vg-hello: running" "$hello"
    echo 0 > $inst/events/uprobes/vguprobe/enable
    tracefs_write uprobe-removed '-:vguprobe' $tracing/uprobe_events &&
        pass trace-uprobe-removed "-:vguprobe removed it"
fi

# The function tracer: ftrace patching, the machinery behind every BPF LSM
# program, that verigate keeps on (kernel.ftrace_enabled) but does not own.
if tracefs_write function-tracer do_sys_openat2 $inst/set_ftrace_filter &&
    tracefs_write function-tracer function $inst/current_tracer; then
    traced function-tracer "function tracer, set_ftrace_filter=do_sys_openat2" \
        " do_sys_openat2 <-" cat /mnt/lib.sh
    echo nop > $inst/current_tracer
    echo > $inst/set_ftrace_filter
fi
check trace-ftrace-enabled-stays-on allowed 1 cat /proc/sys/kernel/ftrace_enabled
rmdir $inst || fail trace-instance-removed "rmdir $inst failed"

# --- 4. JITs -----------------------------------------------------------------

# Anonymous code: allowed unless rd.verigate.anon_exec=deny, which refuses
# it with EPERM (its contract). vg-jit calls the code and checks its result.
anon_attack jit-mprotect-rx allowed vg-jit mprotect
anon_attack jit-rwx allowed vg-jit rwx
anon_attack jit-double-map allowed vg-jit double-map
# The double mapping the other way round (both views writable, one made
# executable by mprotect) is refused whenever verigate enforces: the view's
# vma has the kernel's shmem file, not on the verified root, as a memfd
# (which libffi would take first, and which is refused by design).
attack jit-double-map-late allowed vg-jit double-map-late

# A real JIT user. The systemd image has libffi (libffi8, for p11-kit) but
# no program that makes closures with it (no python3, no other libffi
# user): vg-jit dlopens it. Debian's libffi 3.4.4 has no static trampolines:
# ffi_closure_alloc maps anonymous memory writable and executable. Under
# anon_exec=deny that is refused, and so are its fallbacks, double mappings
# of a memfd or of a file in a temporary directory (tmpfs files); libffi
# then fails with ENOMEM, not the EPERM it was given. The busybox image has
# no libffi.
if [ -e /usr/lib/x86_64-linux-gnu/libffi.so.8 ] || [ -e /lib/x86_64-linux-gnu/libffi.so.8 ]; then
    if [ "$SURVEY" != 1 ] && [ "$MODE" = 1 ] && [ "$ANON" = deny ]; then
        out=$(vg-jit libffi 2>&1)
        case $out in
            *"denied errno=OTHER:ENOMEM (ffi_closure_alloc"*)
                pass jit-libffi-closure "refused: ffi_closure_alloc found no executable memory ($out)" ;;
            *) fail jit-libffi-closure "expected ffi_closure_alloc to fail with ENOMEM, got: $out" ;;
        esac
    else
        check jit-libffi-closure allowed allowed vg-jit libffi
    fi
else
    skip jit-libffi-closure "no libffi.so.8 in this image"
fi
# GNU grep -P has PCRE2 compile its pattern to machine code (anonymous
# memory, writable and executable); where that is refused (anon_exec=deny)
# PCRE2 falls back to its interpreter. grep -P must match in every mode.
if grep --version 2> /dev/null | grep -q 'GNU grep'; then
    check jit-grep-pcre allowed vg-jit-42 sh -c "echo vg-jit-42 | grep -P 'vg-\\w+-\\d+'"
else
    skip jit-grep-pcre "busybox grep has no -P (no PCRE JIT on this image)"
fi

# --- the gate after all of that ----------------------------------------------

if pins_intact; then
    pass pins-intact "$([ "$MODE_NAME" = off ] && echo "verigate off: no pins" || echo "$pin is still pinned")"
else
    fail pins-intact "$pin is gone"
fi
check gate-still-closed "$([ "$MODE" = 1 ] && echo denied || echo allowed)" \
    "vg-hello: running" vg-try exec /tmp/kw-hello
