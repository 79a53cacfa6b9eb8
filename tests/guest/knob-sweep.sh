# In-guest test: a sweep of every knob root can write, instead of a list of
# the knobs we thought of. Root once found one that silences the gate
# (kernel.ftrace_enabled=0 turns every BPF LSM trampoline into a no-op; the
# guards now refuse the write). This test writes, knob by knob, every
# writable regular file under /proc/sys, /sys/module/*/parameters, tracefs
# (/sys/kernel/tracing) and securityfs (/sys/kernel/security), and after
# each write asks the gate whether it still refuses: `verigatectl check`
# (an exec and an executable mapping of a memfd, a BPF_OBJ_GET of a pin,
# each with its counter), compared with the same check before the sweep.
#
# Method.
# - Found: `find -type f -perm -200` (a w bit for the owner, root) under
#   those roots; find does not follow symlinks. tracefs is mounted if it is
#   not; its instances, if any, are swept like the top level.
# - Read: every value first, by vg-knob (one read at offset 0, as a sysctl
#   wants; never blocking: tomoyo's query file waits for a query).
# - Written: a whole integer: 0, then 1. Y/N: N, then Y. A menu ("a [b] c",
#   the current choice in brackets: trace_clock, securityfs lockdown):
#   every other choice. current_tracer: every tracer in available_tracers.
#   Left alone, counted by class: vectors ("4 4 1 7"), other strings,
#   files that read empty, and files that cannot be read (write-only:
#   actions, with no value to put back). A few strings are written with a
#   reason: the gate's hooks are ftrace-patched call sites (which is why
#   ftrace_enabled=0 silenced them), so the other users of those sites are
#   tried on exactly them: the function and function_graph tracers with
#   set_ftrace_filter, and with set_ftrace_notrace, = bpf_lsm_*, and
#   kprobe and kretprobe events on the gate's hooks.
# - Checked: after every write, refused or not, `verigatectl check`. A knob
#   is flagged when a probe that the baseline saw refused and counted is
#   then not refused or not counted. A check that differs in another way
#   (a probe could not be made) is run again: a difference that goes away
#   is reported as transient; one that stays makes vg-try exec of a tmpfs
#   copy of vg-hello decide whether exec is still refused (if it is, the
#   knob is one the check could not judge, which fails too). A write
#   refused with EPERM is counted as verigate's when its denials view has a
#   new guard record of this shell's pid. Without verigatectl check (an
#   older image) vg-try exec /tmp/hello is the probe.
# - Put back: the old value is written back and read again (a menu: the
#   old choice). Knobs known to be one-way (raised or set once, never put
#   back) go last, securityfs lockdown last of all. Where the kernel keeps
#   two knobs as one setting (vm.dirty_background_bytes and _ratio: writing
#   one zeroes the other, and 0 is refused), the partner is put back too.
#   At the end every value read at the start is read again, which also
#   shows a knob that changed another one.
# - tracefs events (events/SYS/EVENT/enable: over a thousand files) go in
#   batches, one per event system: every enable file of the system gets 0,
#   one check; then 1, one check; then all are put back and read again.
#   Sound for finding a switch-off: a write that silences the gate keeps it
#   silent while the batch stands, so the check after the batch sees it
#   (the events of a system are independent knobs, and a batch only adds
#   writes of the same value). A flagged batch is bisected (each half
#   written, checked, put back) down to the single file; if no half does it
#   alone, the batch as a whole is reported. events/enable and
#   events/SYS/enable (aggregates that write every event below them) are
#   knobs of their own, tried one by one. Their filter, trigger and inject
#   files are strings, left alone. While the events are swept
#   kernel.tracepoint_printk is 0 (the test boots have tp_printk: every
#   enabled event would go to the serial console); it is swept itself
#   before, from its boot value.
# - Skipped: only what would stop or wreck the guest or leave the check
#   unable to run, by the table in skip_rule (PATTERN, CLASS, REASON); each
#   skip is printed. Tried and found harmless at 0/1, so not skipped: the
#   hung-task and lockup watchdog thresholds (their panics are skipped),
#   printk_delay, ignore_loglevel, pid_max (EINVAL), nr_hugepages,
#   buffer_size_kb, vm.min_free_kbytes, overcommit_memory.
# - Not swept: the kernel command line (sysctl.*, module parameters,
#   trace_event=, ftrace=): it needs a boot per value. Its one known
#   switch, sysctl.kernel.ftrace_enabled=0, makes the loader stop the boot
#   (boot systemd-ftrace-off-at-boot).
#
# Time under TCG, one CPU (Debian's kernels, systemd flavour): about
# 2,500 knobs tried and 5,000 writes in 200-280 s on 6.1 and 6.12, most
# of it two checks a knob; with the boot, more than run-in-guest's default
# timeout of 300 s: the boot needs --timeout 900.
#
# Verdict: enforcing with guards, pass when no knob switches the gate off;
# on the control (enforcing, --guards off) the sweep must find
# kernel.ftrace_enabled, which shows that it can find one; audit and off:
# skip. It needs a boot of its own: the one-way knobs stay changed
# (modules_disabled, sig_enforce, lockdown=confidentiality, ...).
. /mnt/lib.sh

name=knob-sweep
if [ "$MODE" != 1 ]; then
    skip $name "verigate is $MODE_NAME here: no refusal to switch off"
    exit 0
fi

W=/tmp/knob-sweep
rm -rf $W
mkdir -p $W
ERRF=$W/err
TR=/sys/kernel/tracing
PINS=/sys/fs/bpf/verigate
LOCKDOWN=/sys/kernel/security/lockdown
nl='
'
cp /usr/local/bin/vg-hello /tmp/hello
chmod +x /tmp/hello
[ -e $TR/events ] || mount -t tracefs tracefs $TR
[ -e /sys/kernel/security/lsm ] || mount -t securityfs securityfs /sys/kernel/security
start=$(date +%s)

say() { echo "$name: $*"; }
oneline() { echo "$1" | tr '\n' ' '; }

# The skip table: PATTERN (a shell pattern on the path) | CLASS | REASON.
# Only knobs that would stop or wreck the guest, or blind the check;
# strings, vectors and write-only files (drop_caches, compact_memory, ...)
# are never written anyway.
skip_rule() {
    case $1 in
        /proc/sys/kernel/kexec_load_limit_panic)
            return 1 ;; # how many kexec loads of a crash kernel: not a panic setting
        /proc/sys/kernel/*panic* | /proc/sys/vm/panic_on_oom | /sys/module/*/parameters/*panic*)
            SK=panic SR="turns the next oops, warning, lockup, hung task, stall or OOM into a panic, or changes what a panic does" ;;
        /proc/sys/kernel/oops_limit | /proc/sys/kernel/warn_limit)
            SK=panic SR="at 1 the next oops or warning panics" ;;
        /proc/sys/vm/max_map_count)
            SK=limits SR="at 0 or 1 no program can be loaded: the check cannot run" ;;
        /proc/sys/kernel/threads-max)
            SK=limits SR="0 and 1 mean the minimum, 20 threads: the shell cannot fork, the sweep dies (tried)" ;;
        *) return 1 ;;
    esac
}

# One-way knobs (raised or set once, never put back): swept last.
one_way() {
    case $1 in
        /proc/sys/kernel/modules_disabled | /proc/sys/kernel/kexec_load_disabled | \
            /proc/sys/kernel/kexec_load_limit_* | /proc/sys/kernel/unprivileged_bpf_disabled | \
            /proc/sys/kernel/tainted | /sys/module/module/parameters/sig_enforce | \
            /sys/module/apparmor/parameters/lock_policy | /sys/kernel/security/integrity/evm/evm | \
            /proc/sys/net/netfilter/nf_hooks_lwtunnel)
            return 0 ;;
        *) return 1 ;;
    esac
}

# ---- the gate check -------------------------------------------------------

have_ctl=0
command -v verigatectl > /dev/null 2>&1 && verigatectl check > /dev/null 2>&1 < /dev/null
case $? in 0 | 3 | 5) have_ctl=1 ;; esac
probe() {
    if [ $have_ctl = 1 ]; then
        CK_OUT=$(verigatectl check 2>&1 < /dev/null)
    else
        CK_OUT=$(vg-try exec /tmp/hello 2>&1 < /dev/null)
    fi
    CK_RC=$?
}
probe
BASE_OUT=$CK_OUT BASE_RC=$CK_RC
probe
if [ "$CK_OUT" != "$BASE_OUT" ] || [ "$CK_RC" != "$BASE_RC" ]; then
    fail $name "the check is not stable before the sweep: '$(oneline "$BASE_OUT")' then '$(oneline "$CK_OUT")'"
    exit 0
fi
# The probes the baseline saw refused, and counted.
BASE_REFUSED=""
if [ $have_ctl = 1 ]; then
    set -f
    IFS=$nl
    for l in $BASE_OUT; do
        case $l in
            *": refused ("*", count "*" +"[1-9]*) BASE_REFUSED="$BASE_REFUSED ${l%%:*}" ;;
        esac
    done
    IFS=' 	
'
    set +f
    say "probe: verigatectl check; baseline exit $BASE_RC, refused:$BASE_REFUSED"
else
    case $BASE_OUT in *"denied errno=EPERM"*) BASE_REFUSED=" exec" ;; esac
    say "probe: vg-try exec /tmp/hello (this image has no verigatectl check)"
fi
echo "$BASE_OUT" | sed "s/^/$name: baseline: /"
if [ -z "$BASE_REFUSED" ]; then
    fail $name "the baseline refuses nothing: $(oneline "$BASE_OUT")"
    exit 0
fi

# judge: VERDICT=same, off (a probe refused in the baseline is not refused
# or not counted now: OFF says which) or odd (it differs otherwise).
judge() {
    if [ "$CK_RC" = "$BASE_RC" ] && [ "$CK_OUT" = "$BASE_OUT" ]; then
        VERDICT=same
        return
    fi
    VERDICT=odd OFF=""
    if [ $have_ctl = 0 ]; then
        case $CK_OUT in *"vg-hello: running"*) VERDICT=off OFF="exec: $CK_OUT" ;; esac
        return
    fi
    set -f
    IFS=$nl
    for l in $CK_OUT; do
        p=${l%%:*}
        case "$BASE_REFUSED " in *" $p "*) ;; *) continue ;; esac
        case $l in
            "$p: refused ("*", count $p "*" +"[1-9]*) ;;
            "$p: "*"NOT refused"* | "$p: "*"not counted"* | "$p: "*" +0"*)
                VERDICT=off OFF="$OFF${OFF:+; }$l" ;;
        esac
    done
    IFS=' 	
'
    set +f
}

FLAGGED="" ODD="" TRANSIENT=""
# check_after WHAT: the check after a write; 1 when the gate is off. A
# probe not refused is a switch-off at once. Any other difference (a probe
# could not be made) is checked again: gone, it was transient; still
# there, vg-try exec decides whether exec is still refused (then the knob
# is listed as one the check could not judge).
check_after() {
    probe
    judge
    [ $VERDICT = same ] && return 0
    if [ $VERDICT = odd ]; then
        first=$CK_OUT
        probe
        judge
        if [ $VERDICT = same ]; then
            TRANSIENT="$TRANSIENT$nl  $1: $(oneline "$first")"
            say "transient: $1: the check differed once, then not: $(oneline "$first")"
            return 0
        fi
    fi
    if [ $VERDICT = odd ]; then
        tryout=$(vg-try exec /tmp/hello 2>&1 < /dev/null)
        case $tryout in
            *"denied errno=EPERM"*)
                ODD="$ODD$nl  $1: $(oneline "$CK_OUT")(vg-try exec: still refused)"
                say "UNJUDGED: $1: the check says: $(oneline "$CK_OUT"); vg-try exec /tmp/hello is still refused"
                return 0 ;;
        esac
        OFF="the check says: $(oneline "$CK_OUT"); vg-try exec /tmp/hello: $tryout"
    fi
    FLAGGED="$FLAGGED$nl  $1: $OFF"
    say "GATE OFF: $1: $OFF"
    return 1
}

# gate_back WHAT: after putting back what switched the gate off, the check
# must be as before the sweep again.
gate_back() {
    probe
    judge
    if [ $VERDICT != same ]; then
        probe
        judge
    fi
    if [ $VERDICT = same ]; then
        say "  $1: put back, and the check is as before the sweep again"
    else
        FLAGGED="$FLAGGED$nl  $1: STILL OFF after putting it back: $(oneline "$CK_OUT")"
        say "GATE STILL OFF after putting back $1: $(oneline "$CK_OUT") (the new baseline)"
        BASE_OUT=$CK_OUT BASE_RC=$CK_RC
    fi
}

# ---- writing, putting back, counting --------------------------------------

n_knobs=0 n_writes=0 n_ok=0 n_vg=0 n_kernel=0 NOT_RESTORED=""
SKIPCLASSES=""
count_skip() { # CLASS [N]
    eval "c=\${sk_$1:-0}"
    [ "$c" != 0 ] || SKIPCLASSES="$SKIPCLASSES $1"
    eval "sk_$1=$((c + ${2:-1}))"
}
skip_knob() { # PATH CLASS REASON
    count_skip "$2"
    say "skip $1: $2: $3"
}

# The last record of the denials view: LAST_SEQ, LAST_LINE.
last_denial() {
    LAST_LINE=""
    while IFS= read -r l; do LAST_LINE=$l; done 2> /dev/null < $PINS/denials
    LAST_SEQ=${LAST_LINE#seq=}
    LAST_SEQ=${LAST_SEQ%% *}
    case $LAST_SEQ in '' | *[!0-9]*) LAST_SEQ=0 ;; esac
}
last_denial
last_seq=$LAST_SEQ

# write_value PATH VALUE: WR=ok, or the errno (EPERM by verigate when its
# denials view has a new guard record of this shell). The shell writes,
# as root would: echo VALUE > PATH.
write_value() {
    n_writes=$((n_writes + 1))
    if { echo "$2" > "$1"; } 2> $ERRF; then
        WR=ok
        n_ok=$((n_ok + 1))
        return 0
    fi
    msg=""
    read -r msg < $ERRF
    WR=${msg##*: }
    case $WR in
        "Operation not permitted")
            WR=EPERM
            last_denial
            case $LAST_LINE in
                *" hook=guard "*" pid=$$ "*)
                    if [ "$LAST_SEQ" -gt "$last_seq" ]; then
                        WR="EPERM-by-verigate"
                        last_seq=$LAST_SEQ
                    fi ;;
            esac ;;
        "Invalid argument") WR=EINVAL ;;
        "Permission denied") WR=EACCES ;;
        "Device or resource busy") WR=EBUSY ;;
        "No such device") WR=ENODEV ;;
        "No such file or directory") WR=ENOENT ;;
        "Numerical result out of range") WR=ERANGE ;;
        "Cannot allocate memory") WR=ENOMEM ;;
        "Operation not supported") WR=EOPNOTSUPP ;;
        "No such process") WR=ESRCH ;;
        "Resource temporarily unavailable") WR=EAGAIN ;;
        "File exists") WR=EEXIST ;;
        "Bad address") WR=EFAULT ;;
    esac
    case $WR in
        EPERM-by-verigate) n_vg=$((n_vg + 1)) ;;
        *) n_kernel=$((n_kernel + 1)) ;;
    esac
    return 1
}

# read_now PATH: NOW, the value read (its first line), or E:ERRNO. One
# vg-knob serves every read through a pair of fifos: an exec per read
# would cost as much as a check.
mkfifo $W/ask $W/answer
vg-knob read < $W/ask > $W/answer &
exec 7> $W/ask 8< $W/answer
read_now() {
    echo "$1" >&7
    IFS= read -r NOW <&8
    NOW=${NOW#"$1|"}
    case $NOW in
        E:*) NOW=${NOW%%|*} ;;
        *) NOW=${NOW#*|} ;;
    esac
}

# snap_line PATH: SNAP, its line PATH|STATE|VALUE from before the sweep.
snap_line() {
    SNAP=$(awk -F'|' -v p="$1" '$1 == p { print; exit }' $ALL)
}

# Knobs whose value moves by itself: not read back.
volatile() {
    case $1 in
        /proc/sys/kernel/ns_last_pid | */tracing/trace | */tracing/per_cpu/*/trace) return 0 ;;
        *) return 1 ;;
    esac
}
# Pairs the kernel keeps as one setting (writing one zeroes the other):
# PARTNER, put back after the knob when it reads wrong.
partner() {
    case $1 in
        /proc/sys/vm/dirty_bytes) PARTNER=/proc/sys/vm/dirty_ratio ;;
        /proc/sys/vm/dirty_ratio) PARTNER=/proc/sys/vm/dirty_bytes ;;
        /proc/sys/vm/dirty_background_bytes) PARTNER=/proc/sys/vm/dirty_background_ratio ;;
        /proc/sys/vm/dirty_background_ratio) PARTNER=/proc/sys/vm/dirty_background_bytes ;;
        /proc/sys/vm/overcommit_kbytes) PARTNER=/proc/sys/vm/overcommit_ratio ;;
        /proc/sys/vm/overcommit_ratio) PARTNER=/proc/sys/vm/overcommit_kbytes ;;
        *) return 1 ;;
    esac
}

# put_back PATH OLD READBACK: write OLD back; PATH must then read READBACK.
put_back() {
    { echo "$2" > "$1"; } 2> /dev/null
    volatile "$1" && return
    read_now "$1"
    if [ "$NOW" != "$3" ] && partner "$1"; then
        snap_line "$PARTNER"
        pv=${SNAP#*|*|}
        { echo "$pv" > "$PARTNER"; } 2> /dev/null
        say "  $1 reads '$NOW': put back its partner $PARTNER = $pv"
        read_now "$1"
    fi
    if [ "$NOW" != "$3" ]; then
        NOT_RESTORED="$NOT_RESTORED$nl  $1: was '$3', now '$NOW'"
        say "  NOT PUT BACK: $1: was '$3', now '$NOW'"
    fi
}

# try_values PATH OLD READBACK VALUE...: write each VALUE, check after
# each, put OLD back.
try_values() {
    f=$1 old=$2 rb=$3
    shift 3
    line="$f ($rb):"
    n_knobs=$((n_knobs + 1))
    flagged=0
    for val in "$@"; do
        write_value "$f" "$val"
        line="$line $val $WR,"
        check_after "$f = $val (write: $WR)" || flagged=1
    done
    say "try ${line%,}"
    put_back "$f" "$old" "$rb"
    [ $flagged = 0 ] || gate_back "$f"
}

# classify VALUE: KIND = number, bool, menu, vector, string or empty.
classify() {
    case $1 in
        '') KIND=empty ;;
        Y | N) KIND=bool ;;
        -[0-9]* | [0-9]*)
            case ${1#-} in
                *[!0-9]*)
                    KIND=string
                    case $1 in *[!0-9\ -]*) ;; *\ *) KIND=vector ;; esac ;;
                *) KIND=number ;;
            esac ;;
        *\[*\]*)
            KIND=menu
            case $1 in *[!a-z0-9_\ \[\]-]*) KIND=string ;; esac ;;
        *) KIND=string ;;
    esac
}

# sweep_knob PATH STATE VALUE (a line of vg-knob read): one knob.
sweep_knob() {
    f=$1 st=$2 v=$3
    if skip_rule "$f"; then
        skip_knob "$f" "$SK" "$SR"
        return
    fi
    case $st in
        E:*)
            skip_knob "$f" writeonly "cannot be read ($st): an action, with nothing to put back"
            return ;;
        0)
            skip_knob "$f" empty "reads empty (an empty list, or an action): left alone"
            return ;;
        1) ;;
        *)
            skip_knob "$f" string "$st lines: left alone"
            return ;;
    esac
    if [ "${f##*/}" = current_tracer ]; then
        read_now "${f%/*}/available_tracers"
        set -f
        # shellcheck disable=SC2086
        try_values "$f" "$v" "$v" $NOW
        set +f
        return
    fi
    classify "$v"
    case $KIND in
        number) try_values "$f" "$v" "$v" 0 1 ;;
        bool) try_values "$f" "$v" "$v" N Y ;;
        menu)
            cur=${v#*\[}
            cur=${cur%%\]*}
            others=""
            set -f
            for c in $(echo "$v" | tr -d '[]'); do
                [ "$c" = "$cur" ] || others="$others $c"
            done
            # shellcheck disable=SC2086
            try_values "$f" "$cur" "$v" $others
            set +f
            ;;
        vector) skip_knob "$f" vector "'$v': several numbers, left alone" ;;
        *) skip_knob "$f" string "'$(echo "$v" | cut -c 1-60)': left alone" ;;
    esac
}

# ---- find, and read every value ------------------------------------------------

ALL=$W/all
find /proc/sys /sys/module/*/parameters /sys/kernel/security $TR -type f -perm -200 2> /dev/null > $W/found
n_found=$(wc -l < $W/found)
vg-knob read < $W/found > $ALL
# tracefs events: the leaf enable files go in batches, one per event
# system; their filter, trigger and inject files are strings.
leaf='/events/[^/|]+/[^/|]+/enable\|'
aggr='/events/(enable|[^/|]+/enable)\|'
estr='/events/[^|]*/(filter|trigger|inject)\|'
grep -E "$leaf" $ALL > $W/leaves
grep -E "$aggr" $ALL > $W/aggregates
grep -E "$estr" $ALL > $W/event-strings
grep -vE "$leaf|$aggr|$estr" $ALL | grep -v "^$LOCKDOWN|" > $W/rest
: > $W/first
: > $W/last
while IFS= read -r l <&3; do
    if one_way "${l%%|*}"; then echo "$l" >> $W/last; else echo "$l" >> $W/first; fi
done 3< $W/rest
n_sys=$(cut -d'|' -f1 $W/leaves | sed 's|/[^/]*/enable$||' | sort -u | wc -l)
say "found $n_found writable files: $(grep -c '^/proc/sys/' $W/found) in /proc/sys, $(grep -c '^/sys/module/' $W/found) module parameters, $(grep -c "^$TR/" $W/found) in tracefs ($(wc -l < $W/leaves) event enable files in $n_sys event systems, $(wc -l < $W/aggregates) aggregate enable files, $(wc -l < $W/event-strings) event filter/trigger/inject files), $(grep -c '^/sys/kernel/security/' $W/found) in securityfs"

# ---- knob by knob ----------------------------------------------------------------

while IFS='|' read -r f st v <&3; do sweep_knob "$f" "$st" "$v"; done 3< $W/first
t_single=$(($(date +%s) - start))

# ---- tracefs events, in batches ----------------------------------------------------

read_now /proc/sys/kernel/tracepoint_printk
tp_printk=$NOW
[ "$tp_printk" = 0 ] || { echo 0 > /proc/sys/kernel/tracepoint_printk; } 2> /dev/null

count_skip string "$(wc -l < $W/event-strings)"
say "skip $(wc -l < $W/event-strings) event filter/trigger/inject files: string: a filter expression, trigger commands, an event to inject"

# batch_write PATHS VALUE: write VALUE to each file (vg-knob write-list).
batch_write() {
    bw=$(vg-knob write-list "$2" < "$1")
    bw_n=$(wc -l < "$1")
    bw_ok=${bw##*written }
    bw_ok=${bw_ok%% of*}
    n_writes=$((n_writes + bw_n))
    n_ok=$((n_ok + bw_ok))
    n_kernel=$((n_kernel + bw_n - bw_ok))
    [ "$bw_ok" = "$bw_n" ] || say "  $2 refused by: $(echo "$bw" | grep '|' | tr '\n' ' ')"
}
# batch_restore PATHS: put back each file's value from before the sweep.
batch_restore() {
    awk -F'|' 'NR == FNR { want[$0] = 1; next } ($1 in want) { print $1 "|" $3 }' "$1" $W/leaves > "$1.old"
    br=$(vg-knob restore < "$1.old")
    case $br in
        "restored "*) ;;
        *)
            NOT_RESTORED="$NOT_RESTORED$nl$(echo "$br" | grep '|' | sed 's/^/  /')"
            say "  NOT PUT BACK: $(echo "$br" | grep '|' | tr '\n' ' ')" ;;
    esac
}
# bisect PATHS VALUE: which files of a flagged batch switch the gate off.
bisect() {
    local bn half found part
    bn=$(wc -l < "$1")
    if [ "$bn" -le 1 ]; then
        FLAGGED="$FLAGGED$nl  $(cat "$1") = $2 (bisected from its batch)"
        say "GATE OFF: bisected to $(cat "$1") = $2"
        return
    fi
    half=$(((bn + 1) / 2))
    head -n $half "$1" > "$1.a"
    tail -n +$((half + 1)) "$1" > "$1.b"
    found=0
    for part in "$1.a" "$1.b"; do
        batch_write "$part" "$2"
        probe
        judge
        batch_restore "$part"
        if [ $VERDICT = off ]; then
            found=1
            bisect "$part" "$2"
        fi
    done
    if [ $found = 0 ]; then
        FLAGGED="$FLAGGED$nl  $(oneline "$(cat "$1")")= $2 (only together)"
        say "GATE OFF: only the batch together: $(oneline "$(cat "$1")")= $2"
    fi
}

n_batches=0
for sys in $(cut -d'|' -f1 $W/leaves | sed 's|/[^/]*/enable$||' | sort -u); do
    grep "^$sys/[^/]*/enable|" $W/leaves > $W/batch-lines
    cut -d'|' -f1 $W/batch-lines > $W/batch
    bn=$(wc -l < $W/batch)
    if grep -qv '|1|[01]$' $W/batch-lines; then
        # Soft-disabled ("0*", "1*": held by a trigger) or unreadable.
        say "batch $sys: values other than 0/1, one by one"
        while IFS='|' read -r f st v <&3; do sweep_knob "$f" "$st" "$v"; done 3< $W/batch-lines
        continue
    fi
    n_batches=$((n_batches + 1))
    n_knobs=$((n_knobs + bn))
    line="batch $sys/*/enable ($bn files):"
    for val in 0 1; do
        k0=$n_kernel
        batch_write $W/batch $val
        line="$line $val: $((n_kernel - k0)) refused,"
        if ! check_after "$sys/*/enable = $val (batch of $bn)"; then
            batch_restore $W/batch
            gate_back "$sys/*/enable batch"
            cp $W/batch $W/bisect
            bisect $W/bisect $val
        fi
    done
    say "${line%,}"
    batch_restore $W/batch
done

# The aggregates: events/SYS/enable and events/enable write every event
# below them, and read 0, 1 or X (mixed); what is put back is the events
# below, and then the aggregate must read as before.
while IFS='|' read -r f st old <&3; do
    n_knobs=$((n_knobs + 1))
    line="$f ($old):"
    flagged=0
    for val in 0 1; do
        write_value "$f" $val
        line="$line $val $WR,"
        check_after "$f = $val (write: $WR)" || flagged=1
    done
    say "try ${line%,}"
    cut -d'|' -f1 $W/leaves | grep "^${f%/enable}/" > $W/below
    batch_restore $W/below
    read_now "$f"
    if [ "$NOW" != "$old" ]; then
        NOT_RESTORED="$NOT_RESTORED$nl  $f: was '$old', now '$NOW'"
        say "  NOT PUT BACK: $f: was '$old', now '$NOW'"
    fi
    [ $flagged = 0 ] || gate_back "$f"
done 3< $W/aggregates
t_events=$(($(date +%s) - start - t_single))

# ---- strings written with a reason: the hooks' own call sites --------------------

n_special=0
# special WHAT SETUP UNDO [SEEN]: run the shell command SETUP, check, then
# SEEN (what shows that the tracer or probe ran during the check), UNDO.
special() {
    n_special=$((n_special + 1))
    n_knobs=$((n_knobs + 1))
    n_writes=$((n_writes + 1))
    if sp_out=$(sh -c "$2" 2>&1); then
        n_ok=$((n_ok + 1))
        sp_what="$1 (written)"
    else
        n_kernel=$((n_kernel + 1))
        sp_what="$1 (refused: $(oneline "$sp_out"))"
    fi
    sp_flag=0
    check_after "$sp_what" || sp_flag=1
    [ -z "$4" ] || sp_what="$sp_what; during the check: $(sh -c "$4" 2>&1 | head -n 1)"
    say "try $sp_what"
    sh -c "$3" 2> /dev/null
    [ $sp_flag = 0 ] || gate_back "$1"
}
read_now $TR/current_tracer
old_tracer=$NOW
read_now $TR/tracing_on
tracing_on=$NOW
read_now $TR/available_tracers
for tracer in function function_graph; do
    case " $NOW " in *" $tracer "*) ;; *) continue ;; esac
    for list in set_ftrace_filter set_ftrace_notrace; do
        # What the tracer saw: its lines in the trace buffer (emptied
        # first; read with tracing off, or reading would add to it), and
        # the site's entry in enabled_functions (the tracer's ops next to
        # the gate's trampoline).
        seen=""
        [ $list = set_ftrace_notrace ] ||
            seen="echo 0 > $TR/tracing_on; n=\$(grep -c bpf_lsm_bprm_check_security $TR/trace); echo $tracing_on > $TR/tracing_on; echo \"\$n trace lines of bpf_lsm_bprm_check_security; enabled_functions: \$(grep '^bpf_lsm_bprm_check_security ' $TR/enabled_functions)\""
        special "$list=bpf_lsm_* with current_tracer=$tracer" \
            ": > $TR/trace; echo 'bpf_lsm_*' > $TR/$list && echo $tracer > $TR/current_tracer" \
            "echo $old_tracer > $TR/current_tracer; : > $TR/$list" "$seen"
    done
done
for hook in bpf_lsm_bprm_check_security bpf_lsm_mmap_file bpf_lsm_file_mprotect bpf_lsm_bpf; do
    for kind in p r; do
        special "kprobe_events += $kind:vgsweep/vg_sweep_probe $hook, enabled" \
            "echo '$kind:vgsweep/vg_sweep_probe $hook' >> $TR/kprobe_events && echo 1 > $TR/events/vgsweep/vg_sweep_probe/enable" \
            "echo 0 > $TR/events/vgsweep/vg_sweep_probe/enable; echo '-:vgsweep/vg_sweep_probe' >> $TR/kprobe_events" \
            "awk '\$1 == \"vg_sweep_probe\" { print \$2 \" hits, \" \$3 \" misses\" }' $TR/kprobe_profile"
    done
done
for f in $TR/current_tracer $TR/set_ftrace_filter $TR/set_ftrace_notrace $TR/kprobe_events; do
    read_now "$f"
    snap_line "$f"
    want=${SNAP#*|*|}
    [ "$NOW" = "$want" ] || NOT_RESTORED="$NOT_RESTORED$nl  $f: was '$want', now '$NOW'"
done

[ "$tp_printk" = 0 ] || { echo "$tp_printk" > /proc/sys/kernel/tracepoint_printk; } 2> /dev/null

# ---- one-way knobs, last ----------------------------------------------------------

while IFS='|' read -r f st v <&3; do sweep_knob "$f" "$st" "$v"; done 3< $W/last

# ---- after the sweep: every value read at the start, read again -----------------

vg-knob read < $W/found > $W/after
# What differs from the start, but neither a knob already reported as not
# put back nor a volatile one.
CHANGED=""
grep -vxF -f $ALL $W/after > $W/changed
while IFS= read -r l <&3; do
    f=${l%%|*}
    volatile "$f" && continue
    case $NOT_RESTORED$nl in *"  $f: "*) continue ;; esac
    snap_line "$f"
    sw=${SNAP#*|} sn=${l#*|}
    CHANGED="$CHANGED$nl  $f: was '${SNAP#*|*|}' (${sw%%|*}), now '${l#*|*|}' (${sn%%|*})"
done 3< $W/changed
# securityfs lockdown last of all: confidentiality closes tracefs.
lockdown_line=$(grep "^$LOCKDOWN|" $ALL)
[ -z "$lockdown_line" ] || sweep_knob "$LOCKDOWN" "$(echo "$lockdown_line" | cut -d'|' -f2)" "$(echo "$lockdown_line" | cut -d'|' -f3)"
probe
judge
end_verdict=$VERDICT end_out=$CK_OUT
elapsed=$(($(date +%s) - start))

# ---- report --------------------------------------------------------------------------

n_skipped=0
skips=""
for c in $SKIPCLASSES; do
    c_n=0
    eval "c_n=\${sk_$c:-0}"
    n_skipped=$((n_skipped + c_n))
    skips="$skips${skips:+, }$c $c_n"
done
say "found $n_found; tried $n_knobs knobs ($n_batches event batches, $n_special ftrace/kprobe strings) with $n_writes writes: $n_ok written, $n_vg refused by verigate, $n_kernel refused by the kernel; skipped $n_skipped ($skips); $elapsed s (knob by knob $t_single s, events $t_events s)"
[ -z "$TRANSIENT" ] || say "checks that differed once, and not again:$TRANSIENT"
[ -z "$ODD" ] || say "knobs the check could not judge (exec stayed refused):$ODD"
[ -z "$NOT_RESTORED" ] || say "knobs not put back (one-way, or the kernel keeps a value of its own):$NOT_RESTORED"
[ -z "$CHANGED" ] || say "other values that differ from the start (the first line, and in brackets the number of lines or the read error):$CHANGED"
say "knobs that changed the gate's verdict:${FLAGGED:- none}"

summary="$n_knobs knobs tried, $n_skipped skipped"
if [ "$end_verdict" = same ]; then
    pass $name-gate-after "after the sweep the check is as before it"
else
    fail $name-gate-after "after the sweep the check differs from before it: $(oneline "$end_out")"
fi
if [ -n "$ODD" ]; then
    fail $name-judged "the check could not judge these knobs:$(oneline "$ODD")"
fi
if [ "$GUARDS" -gt 0 ]; then
    if [ -z "$FLAGGED" ]; then
        pass $name "$summary, none switches the gate off"
    else
        fail $name "$summary; these switch the gate off:$(oneline "$FLAGGED")"
    fi
else
    case $FLAGGED in
        *"/proc/sys/kernel/ftrace_enabled = 0 "*)
            pass $name "control: $summary; it finds kernel.ftrace_enabled; all it finds:$(oneline "$FLAGGED")" ;;
        *) fail $name "control: $summary; it did not find kernel.ftrace_enabled; it found:${FLAGGED:- none}" ;;
    esac
fi
