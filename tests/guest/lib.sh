# Sourced by the in-guest tests (it reaches the guest on the script disk,
# at /mnt). Each check prints "ok NAME: what" or "FAIL NAME: why".

# The last value of a kernel command line option, as the loader reads it.
cmdline_arg() {
    tr ' ' '\n' < /proc/cmdline | sed -n "s/^$1=//p" | tail -n 1
}

MODE=$(cmdline_arg rd.verigate)
ANON=$(cmdline_arg rd.verigate.anon_exec)
ROOTHASH=$(cmdline_arg roothash)
# The verified tree's option and hash: roothash=, or usrhash= for a verity
# /usr on a writable root (run-in-guest --verity usr).
USRHASH=$(cmdline_arg usrhash)
if [ -n "$USRHASH" ]; then
    TREE_OPTION=usrhash TREE_HASH=$USRHASH
else
    TREE_OPTION=roothash TREE_HASH=$ROOTHASH
fi
# The loader's kmsg line ("verigate: enforcing roothash=... guards=N ...";
# empty with rd.verigate=0), and one KEY=value field of it.
LOADER_LINE=$(dmesg | grep -oE "verigate: [a-z]* (root|usr)hash=.*" | head -n 1)
loader_field() {
    echo "$LOADER_LINE" | tr ' ' '\n' | sed -n "s/^$1=//p"
}
# How many guards the loader attached (0 with rd.verigate=0 or --guards off).
GUARDS=$(loader_field guards)
GUARDS=${GUARDS:-0}
case $MODE in
    1) MODE_NAME=enforce ;;
    audit) MODE_NAME=audit ;;
    *) MODE_NAME=off ;;
esac

# The verity images of tests/lib/build-verity-extras on the script disk:
# NAME's root hash, and whether it is on rd.verigate.allow=.
ALLOW=$(cmdline_arg rd.verigate.allow)
root_of() { cut -d' ' -f3 "/mnt/$1.verity"; }
listed() { case ",$ALLOW," in *",$(root_of "$1"),"*) return 0 ;; esac; return 1; }

# A mark in the kernel log, and the log from the mark on.
kmsg_mark() { echo "vg-test: $1" > /dev/kmsg; }
since_mark() { dmesg | sed -n "/vg-test: $1\$/,\$p"; }

# status_count HOOK VERDICT: the status view's count (empty without a view).
status_count() { sed -n "s/^count $1 $2 //p" /sys/fs/bpf/verigate/status 2> /dev/null; }

# SURVEY=1 (tests/compare): record what happened instead of judging it.
# Every check then prints "cell NAME: ran" when CMD printed its marker, or
# "cell NAME: OUTPUT" (its first lines), and pass/fail "cell NAME: WHAT".
SURVEY=${SURVEY:-0}
pass() {
    if [ "$SURVEY" = 1 ]; then echo "cell $1: $2"; else echo "ok $MODE_NAME/$1: $2"; fi
}
fail() {
    if [ "$SURVEY" = 1 ]; then echo "cell $1: $2"; else echo "FAIL $MODE_NAME/$1: $2"; fi
}
skip() {
    if [ "$SURVEY" = 1 ]; then echo "cell $1: $2"; else echo "SKIP $MODE_NAME/$1: $2"; fi
}

# check NAME WANT MARKER CMD...: run CMD; WANT is "denied" (its output must
# say EPERM), "denied-eacces" (EACCES: the kernel's translation of a refusal
# on some paths) or "allowed" (its output must contain MARKER).
check() {
    _name=$1 _want=$2 _marker=$3
    shift 3
    _out=$("$@" 2>&1)
    if [ "$SURVEY" = 1 ]; then
        case $_out in
            *"denied errno"*) ;;
            *"$_marker"*) [ -z "$_marker" ] || _out=ran ;;
        esac
        echo "cell $_name: $(echo "$_out" | head -n 3 | tr '\n' ' ' | cut -c 1-200)"
    elif [ "$_want" = denied ]; then
        case $_out in
            *"errno=EPERM"* | *"Operation not permitted"*) pass "$_name" "denied with EPERM" ;;
            *) fail "$_name" "expected EPERM, got: $_out" ;;
        esac
    elif [ "$_want" = denied-eacces ]; then
        case $_out in
            *"errno=EACCES"*) pass "$_name" "denied with EACCES" ;;
            *) fail "$_name" "expected EACCES, got: $_out" ;;
        esac
    else
        case $_out in
            *"denied errno"*) fail "$_name" "expected success, got: $_out" ;;
            *"$_marker"*) pass "$_name" "ran" ;;
            *) fail "$_name" "expected '$_marker', got: $_out" ;;
        esac
    fi
}

# kernel_refuses NAME ERRNO CMD...: CMD must fail with ERRNO, an error of
# the kernel itself (dm-verity, kexec's parser), not of verigate.
kernel_refuses() {
    _name=$1 _errno=$2
    shift 2
    _out=$("$@" 2>&1)
    if [ "$SURVEY" = 1 ]; then
        echo "cell $_name: $(echo "$_out" | head -n 3 | tr '\n' ' ' | cut -c 1-200)"
        return
    fi
    case $_out in
        *"errno=OTHER:$_errno"*) pass "$_name" "the kernel refused it: $_out" ;;
        *) fail "$_name" "expected the kernel's $_errno, got: $_out" ;;
    esac
}

# gated WHEN NAME MARKER CMD...: CMD must be denied with EPERM when the shell
# test WHEN holds; otherwise (the control) it must succeed, printing MARKER.
gated() {
    _when=$1 _name=$2 _marker=$3
    shift 3
    if [ "$SURVEY" != 1 ] && eval "$_when"; then
        check "$_name" denied "" "$@"
    else
        check "$_name" allowed "$_marker" "$@"
    fi
}

# An attack on what may run: denied when enforcing.
attack() { gated '[ "$MODE" = 1 ]' "$@"; }

# Anonymous executable memory: denied only with rd.verigate.anon_exec=deny.
anon_attack() { gated '[ "$MODE" = 1 ] && [ "$ANON" = deny ]' "$@"; }

# Whether this boot enforces with the guards (the control boots for the
# guards: --guards off, audit, off).
guarded() { [ "$MODE" = 1 ] && [ "$GUARDS" -gt 0 ]; }

# An attack on the gate itself: denied when enforcing with guards.
guard_attack() { gated guarded "$@"; }

# dm_tree_attacks DM_NAME: another root hash, suspend and rename of the
# verified tree's device-mapper device (root, or usr), after which the gate
# must still refuse /tmp/hello. 6.12+ has no guard on ioctls: the table
# watch (not a guard, so on every enforcing boot) refuses the table before
# it goes live and the old one is put back; suspend and rename go through
# (a pause whose resume meets the watch again, and a name: the gate knows
# the device by its number). On 6.1 the DM guard refuses all three.
dm_tree_attacks() {
    _hash=0000000000000000000000000000000000000000000000000000000000000001
    _sfx=$([ "$1" = root ] || echo "-$1")
    if [ "$(loader_field verity_trust)" = yes ]; then
        attack "dm-retable-$1-other-hash" allowed dm-attack retable-restore "$1" --hash "$_hash"
        check "dm-suspend-$1" allowed allowed dm-attack suspend "$1"
        check "dm-rename-$1" allowed allowed dm-attack rename "$1" evil
        attack "exec-after-dm-suspend-rename$_sfx" "vg-hello: running" vg-try exec /tmp/hello
    else
        guard_attack "dm-reload-verity-other-hash$_sfx" allowed dm-attack reload-verity "$1" "$_hash"
        guard_attack "dm-suspend-$1" allowed dm-attack suspend "$1"
        guard_attack "dm-rename-$1" allowed dm-attack rename "$1" evil
    fi
}
