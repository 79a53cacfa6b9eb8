# In-guest test: no unmount, move or propagation change, from the initial
# mount namespace or from a new one (shared, slave or private, or in a new
# user namespace too), reaches the bpffs that holds the pins or a mount
# above it. A new namespace made by unshare(CLONE_NEWNS) keeps its copies
# peers of the originals, so an unmount there is propagated to them. Every
# cell of the matrix ends with a check that the gate still refuses and
# that the initial namespace's mount table is the one the matrix started
# from. With the guards (enforce) the cells that would drop the gate are
# refused with EPERM or by the kernel itself; what container runtimes and
# systemd's sandboxing do (slave or private namespaces, pivot_root and a
# lazy unmount of the old root) keeps working.
#
# The control (--guards off) runs every cell the guards refuse and shows
# that it works there, or that the kernel refuses it by itself; private
# copies of the bpffs and /sys keep the pins alive, and each cell's effect
# is undone before the next. Then the issue's propagated unmount takes the
# gate away, and last a lazy unmount of / (from a shared namespace, or with
# vgtest.last=init-ns on the command line from the initial one) shows the
# mounts of the initial namespace going: nothing can be put back after it.
. /mnt/lib.sh

cp /usr/local/bin/vg-hello /tmp/hello
chmod +x /tmp/hello
mkdir -p /tmp/newroot /tmp/elsewhere
# systemd makes every mount shared at boot; busybox init does not.
mount --make-rshared /
guarded=0 control=0
[ "$MODE" = 1 ] && [ "$GUARDS" -gt 0 ] && guarded=1
[ "$MODE" = 1 ] && [ "$GUARDS" = 0 ] && control=1

# The initial namespace's mounts, a line each: mount point, type, and
# whether it is shared (peer group numbers change, their meaning does not).
# The matrix's own scratch mounts are left out. (A recursive bind of / in
# a shared namespace, as a pivot_root cell makes, propagates to the initial
# one's /tmp/newroot; the guards keep it there, as it holds a copy of /sys.)
mount_table() {
    awk '{ shared = 0
           for (i = 7; $i != "-"; i++) if ($i ~ /^shared:/) shared = 1
           print $5, $(i + 1), shared }' /proc/self/mountinfo |
        grep -vE '^/tmp/(vg-keep|holder|elsewhere|newroot)' | sort
}

# Whether something is mounted on PATH (busybox has no mountpoint).
is_mount() {
    awk -v p="$1" '$5 == p { found = 1 } END { exit !found }' /proc/self/mountinfo
}

# On the control, private copies keep the bpffs (and so the pins) and /sys
# alive whatever a cell unmounts, and restore puts them back from there.
keep=/tmp/vg-keep
if [ "$control" = 1 ]; then
    mkdir -p $keep
    if ! { mount -t tmpfs keep $keep && mount --make-private $keep &&
        mkdir $keep/bpf $keep/sys &&
        mount --bind /sys/fs/bpf $keep/bpf && mount --make-private $keep/bpf &&
        mount --rbind /sys $keep/sys && mount --make-rprivate $keep/sys; }; then
        fail control-keep "could not keep private copies of the bpffs and /sys"
        exit 1
    fi
fi
start_table=$(mount_table)
echo "$start_table" > /tmp/start.table

# Undo what a cell did to the initial namespace (only the control lets one
# through): move back what was moved, put /sys and the bpffs back from the
# private copies, make everything shared again. Then the mount table must
# be the one the matrix started from.
restore() {
    if is_mount /tmp/elsewhere; then
        # Nothing moves from under a shared mount.
        mount --make-private /tmp
        if [ -d /tmp/elsewhere/kernel ]; then
            mount --move /tmp/elsewhere /sys
        else
            mount --move /tmp/elsewhere /sys/fs/bpf
        fi
    fi
    if [ "$control" = 1 ] &&
        [ "$(mount_table | grep '^/sys')" != "$(echo "$start_table" | grep '^/sys')" ]; then
        ! is_mount /sys || umount -l /sys
        mount --rbind $keep/sys /sys
    fi
    mount --make-rshared /
    [ "$control" = 0 ] || mount --make-rprivate $keep
    [ "$(mount_table)" = "$start_table" ]
}

# The gate still refuses: verigatectl check's probes where the guards are
# on, the exec probe alone on the control (which has no guard to probe).
gate_refuses() {
    if [ "$guarded" = 1 ]; then
        verigatectl check > /tmp/check.out 2>&1 && return 0
        cat /tmp/check.out
        return 1
    fi
    out=$(vg-try exec /tmp/hello 2>&1)
    case $out in *"errno=EPERM"*) return 0 ;; esac
    echo "$out"
    return 1
}

# cell NAME WANT NS OP ARGS...: run mount-attack in namespace NS ("-" for
# the initial one). WANT:
#   refused       EPERM from verigate when guarded; on the control it works
#   refused-busy  EPERM when guarded; on the control the kernel refuses it
#                 too (EBUSY: mounts under it), the guard is a second wall
#   kernel        the kernel refuses it by itself, whatever the guards
#   allowed       it must work everywhere: nothing users rely on breaks
# Then the initial namespace is put back (restore), and the gate must
# still refuse.
cell() {
    name=$1 want=$2 ns=$3
    shift 3
    if [ "$ns" = - ]; then
        out=$(mount-attack "$@" 2>&1)
    else
        out=$(mount-attack --ns "$ns" "$@" 2>&1)
    fi
    case $want,$guarded,$out in
        refused*,1,*"errno=EPERM"*) verdict="denied with EPERM" ;;
        refused*,1,*) fail "$name" "expected EPERM, got: $out"; restore; return ;;
        refused,0,allowed)
            case $1 in
                move | over) verdict="control: works without the guards (and undoes itself)" ;;
                *)
                    if [ "$(mount_table)" = "$start_table" ]; then
                        fail "$name" "control: it worked, but the initial namespace's mounts did not change"
                        restore
                        return
                    fi
                    verdict="control: works without the guards, and the initial namespace's mounts change"
                    ;;
            esac
            ;;
        refused-busy,0,*"errno=OTHER:EBUSY"*) verdict="control: the kernel refuses it too ($out)" ;;
        refused*,0,*) fail "$name" "control: expected $([ "$want" = refused ] && echo "it to work" || echo EBUSY) without the guards, got: $out"; restore; return ;;
        kernel,*,*"errno=OTHER:"*) verdict="the kernel refused it: $out" ;;
        kernel,*,*) fail "$name" "expected the kernel to refuse it, got: $out"; restore; return ;;
        allowed,*,allowed) verdict="allowed" ;;
        allowed,*,*) fail "$name" "expected it to work, got: $out"; restore; return ;;
    esac
    if ! restore; then
        fail "$name" "$verdict; then the mount table could not be put back: $(mount_table | diff /tmp/start.table - | tail -n +3 | head -n 20 | tr '\n' ' ')"
        exit 1
    fi
    if check_out=$(gate_refuses); then
        pass "$name" "$verdict; the gate still refuses"
    else
        fail "$name" "$verdict; then the gate no longer refuses: $check_out"
    fi
}

# A tree in the initial namespace that holds a copy of /sys elsewhere: the
# copy is a peer of /sys, so an unmount there would propagate.
holder() {
    is_mount /tmp/holder && return
    mkdir -p /tmp/holder
    mount -t tmpfs holder /tmp/holder && mkdir -p /tmp/holder/sys && mount --rbind /sys /tmp/holder/sys
}

if [ "$guarded" = 1 ] || [ "$control" = 1 ]; then
    for target in /sys/fs/bpf /sys /; do
        t=${target#/}
        t=${t:-root}
        t=$(echo "$t" | tr / -)
        # umount2("/", 0) remounts the root read-only (it is already).
        # Under /sys are other mounts: the kernel refuses its unmount too.
        umount=refused
        [ "$target" = / ] && umount=allowed
        [ "$target" = /sys ] && umount=refused-busy
        cell "init-ns-umount-$t" $umount - umount "$target"
        # A lazy unmount of / is the control's last step.
        [ "$target" = / ] && [ "$control" = 1 ] ||
            cell "init-ns-umount-lazy-$t" refused - umount-lazy "$target"
        # Nothing can be moved from under a shared mount (EINVAL), nor the
        # root under itself (ELOOP): the guard is a second wall.
        cell "init-ns-move-mount-$t" "$([ "$control" = 1 ] && echo kernel || echo refused)" - move-mount "$target" /tmp/elsewhere
        cell "shared-ns-umount-$t" $umount shared umount "$target"
        [ "$target" = / ] && [ "$control" = 1 ] ||
            cell "shared-ns-umount-lazy-$t" refused shared umount-lazy "$target"
        cell "shared-ns-move-mount-$t" kernel shared move-mount "$target" /tmp/elsewhere
        cell "userns-umount-$t" kernel userns umount "$target"
        cell "userns-umount-lazy-$t" kernel userns umount-lazy "$target"
    done
    # Moves from under a private parent, which the kernel allows: by
    # move_mount(2) and by mount(2) MS_MOVE (which moves it back at once).
    for target in /sys/fs/bpf:/sys /sys:/; do
        parent=${target#*:} target=${target%:*}
        t=$(echo "${target#/}" | tr / -)
        for op in move-mount move; do
            if mount --make-private "$parent"; then
                cell "init-ns-$op-$t-from-private-parent" refused - "$op" "$target" /tmp/elsewhere
            else
                fail "init-ns-$op-$t-from-private-parent" "could not make $parent private"
            fi
        done
    done
    cell shared-ns-pivot-root-umount-old kernel shared pivot-umount /tmp/newroot
    cell shared-ns-mount-over-bpffs refused shared over /sys/fs/bpf
    holder && cell init-ns-umount-lazy-tree-holding-sys-copy refused - umount-lazy /tmp/holder
    holder && cell init-ns-umount-bpffs-of-sys-copy refused - umount /tmp/holder/sys/fs/bpf
fi
# The loader's second anchor of the pins, on /run (the --guards off build
# has none): its copy in a namespace whose /run propagates to the initial
# one may not be unmounted, lazily or not; elsewhere it may.
if [ "$guarded" = 1 ]; then
    cell shared-ns-umount-run-anchor refused shared umount /run/verigate-pins
    cell shared-ns-umount-lazy-run refused shared umount-lazy /run
    for ns in slave private sandbox; do
        cell "$ns-ns-umount-run-anchor" allowed "$ns" umount /run/verigate-pins
        cell "$ns-ns-umount-lazy-run" allowed "$ns" umount-lazy /run
    done
fi
# What container runtimes and systemd's sandboxes do (slave copies, shared
# again among themselves in a service): harmless, and it must work.
for ns in slave private sandbox; do
    for target in /sys/fs/bpf /sys /; do
        t=${target#/}
        t=${t:-root}
        t=$(echo "$t" | tr / -)
        # /sys has mounts under it (EBUSY).
        cell "$ns-ns-umount-$t" "$([ "$target" = /sys ] && echo kernel || echo allowed)" "$ns" umount "$target"
        cell "$ns-ns-umount-lazy-$t" allowed "$ns" umount-lazy "$target"
        # The root cannot be moved under itself (ELOOP); nothing can be
        # moved from under a shared mount (EINVAL).
        move=allowed
        [ "$target" = / ] || [ "$ns" = sandbox ] && move=kernel
        cell "$ns-ns-move-mount-$t" "$move" "$ns" move-mount "$target" /tmp/elsewhere
    done
    # pivot_root refuses a shared root (EINVAL).
    cell "$ns-ns-pivot-root-umount-old" "$([ "$ns" = sandbox ] && echo kernel || echo allowed)" "$ns" pivot-umount /tmp/newroot
    cell "$ns-ns-mount-over-bpffs" allowed "$ns" over /sys/fs/bpf
done
cell userns-pivot-root-umount-old allowed userns pivot-umount /tmp/newroot
# Propagation changes: in a new namespace they change its copies only; in
# the initial one that of the bpffs itself is refused (a mount onto it),
# those of the mounts above it stay allowed, but for making them slaves.
for target in /sys/fs/bpf /sys /; do
    t=${target#/}
    t=${t:-root}
    t=$(echo "$t" | tr / -)
    for ns in shared slave private sandbox userns; do
        for type in private shared; do
            cell "$ns-ns-make-$type-$t" allowed "$ns" propagation "$type" "$target"
        done
    done
    [ "$guarded" = 1 ] || [ "$control" = 1 ] || continue
    if [ "$target" = /sys/fs/bpf ]; then
        cell "init-ns-make-private-$t" refused - propagation private "$target"
    else
        # A slave of its peers elsewhere would receive their unmounts.
        cell "init-ns-make-slave-$t" refused - propagation slave "$target"
        cell "init-ns-make-shared-$t" allowed - propagation shared "$target"
    fi
done

# An initial mount made a slave of its copy in another namespace receives
# what is unmounted there. mount(2) with MS_SLAVE is refused above, but
# mount_setattr(2) makes the same change and asks no LSM: the unmount in
# the other namespace is what the guard sees, and it follows the
# propagation to slaves as the kernel does.
if [ "$guarded" = 1 ] || [ "$control" = 1 ]; then
    cell init-ns-setattr-slave-sys-ns-umount-bpffs refused - enslave-umount /sys umount /sys/fs/bpf
    cell init-ns-setattr-slave-root-ns-umount-lazy-sys refused - enslave-umount / umount-lazy /sys
fi
[ "$guarded" = 0 ] ||
    cell init-ns-setattr-slave-run-ns-umount-run-anchor refused - enslave-umount /run umount /run/verigate-pins

# A name that a mount sits on, removed from another namespace that has
# unmounted its own copy: the kernel refuses that (EBUSY) only for a mount
# point of the caller's namespace, and otherwise unmounts what sits on the
# name in every namespace, the initial one included. That took /sys (on a
# writable root) and the /run anchor away, and the gate with them. Here on
# fixtures under /run: a tmpfs on a directory, a bind on a file. With the
# guards it is refused and the mount stays; on the control the initial
# namespace loses it (or, renamed away, finds it under the new name).
fixtures=/run/vg-removal
removal() {
    name=$1 ns=$2 how=$3 path=$fixtures/$4
    out=$(mount-attack --ns "$ns" remove-mountpoint "$how" "$path" 2>&1)
    if [ "$guarded" = 1 ]; then
        case $out in
            *"errno=EPERM"*)
                if is_mount "$path"; then
                    pass "$name" "denied with EPERM; $path is still mounted here"
                else
                    fail "$name" "denied with EPERM, yet $path is no longer mounted here"
                fi ;;
            *) fail "$name" "expected EPERM, got: $out" ;;
        esac
    elif [ "$out" = allowed ] && ! is_mount "$path"; then
        pass "$name" "control: works without the guards, and $path is no longer mounted here"
    else
        fail "$name" "control: expected it to take $path's mount away here, got: $out; $(is_mount "$path" && echo "still mounted")"
    fi
}
if [ "$guarded" = 1 ] || [ "$control" = 1 ]; then
    mkdir -p $fixtures
    for ns in private slave; do
        for how in rmdir rename-away rename-over; do
            mkdir -p "$fixtures/$ns-$how"
            mount -t tmpfs vg-removal "$fixtures/$ns-$how"
            removal "$ns-ns-$how-mountpoint" "$ns" "$how" "$ns-$how"
        done
        : > "$fixtures/$ns-file"
        mount --bind "$fixtures/$ns-file" "$fixtures/$ns-file"
        removal "$ns-ns-unlink-file-mountpoint" "$ns" unlink "$ns-file"
    done
    # What no mount sits on stays removable from any namespace.
    mkdir -p $fixtures/plain
    out=$(mount-attack --ns private remove-mountpoint rmdir $fixtures/plain 2>&1)
    if [ "$out" = allowed ] && ! [ -e $fixtures/plain ]; then
        pass private-ns-rmdir-plain-directory "allowed"
    else
        fail private-ns-rmdir-plain-directory "expected it to work, got: $out"
    fi
    # The initial namespace's own mount points: the kernel's EBUSY.
    mkdir -p $fixtures/own
    mount -t tmpfs vg-removal $fixtures/own
    if out=$(rmdir $fixtures/own 2>&1); then
        fail init-ns-rmdir-own-mountpoint "rmdir of a mount point of this namespace worked"
    elif is_mount $fixtures/own; then
        pass init-ns-rmdir-own-mountpoint "the kernel refused it: $out"
    else
        fail init-ns-rmdir-own-mountpoint "$out, and $fixtures/own is no longer mounted"
    fi
    umount -l $fixtures/own $fixtures/* $fixtures/*.away 2> /dev/null
fi

[ "$control" = 1 ] || exit 0
# The control's end. The private copies go, so that nothing but the
# initial namespace's bpffs holds the pins.
# The matrix's scratch trees hold copies of the bpffs too.
umount -l /tmp/holder /tmp/newroot 2> /dev/null
restore || fail control-end "the mount table could not be put back after the scratch trees went"
umount -l $keep
# The issue's attack works without the guards: a new namespace,
# propagation untouched, unmounts its copy of the bpffs; the kernel
# propagates that to the initial namespace and the pins go.
out=$(mount-attack --ns shared umount /sys/fs/bpf 2>&1)
sleep 1
if [ "$out" = allowed ] && ! [ -e /sys/fs/bpf/verigate ]; then
    check shared-ns-umount-drops-the-gate allowed "vg-hello: running" vg-try exec /tmp/hello
else
    fail shared-ns-umount-drops-the-gate "expected the propagated unmount to drop the pins: $out; $(ls /sys/fs/bpf 2>&1)"
fi
# Last, a lazy unmount of /: the mounts of the initial namespace go
# (/proc and /sys with it), which nothing can undo. Only shell builtins
# run after it.
if [ "$(cmdline_arg vgtest.last)" = init-ns ]; then
    name=init-ns-umount-lazy-root
    out=$(mount-attack umount-lazy / 2>&1)
else
    name=shared-ns-umount-lazy-root
    out=$(mount-attack --ns shared umount-lazy / 2>&1)
fi
if [ "$out" = allowed ] && ! [ -e /proc/self ] && ! [ -d /sys/kernel ]; then
    pass "$name" "control: works without the guards; /proc and /sys are gone from the initial namespace"
else
    fail "$name" "control: expected the lazy unmount of / to take the initial namespace's mounts: $out; /proc/self $([ -e /proc/self ] && echo is there || echo is gone), /sys/kernel $([ -d /sys/kernel ] && echo is there || echo is gone)"
fi
