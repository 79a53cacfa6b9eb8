# In-guest test: no unmount, move or propagation change, from the initial
# mount namespace or from a new one (shared, slave or private, or in a new
# user namespace too), reaches the bpffs that holds the pins or a mount
# above it. A new namespace made by unshare(CLONE_NEWNS) keeps its copies
# peers of the originals, so an unmount there is propagated to them. Every
# cell of the matrix ends with a check that the gate still refuses. With
# the guards (enforce) the cells that would drop the gate are refused with
# EPERM or by the kernel itself; what container runtimes and systemd's
# sandboxing do (slave or private namespaces, pivot_root and a lazy unmount
# of the old root) keeps working. The control (--guards off) shows the
# propagated unmount taking the gate away; it goes last.
. /mnt/lib.sh

cp /usr/local/bin/vg-hello /tmp/hello
chmod +x /tmp/hello
mkdir -p /tmp/newroot /tmp/elsewhere
# systemd makes every mount shared at boot; busybox init does not.
mount --make-rshared /
guarded=0
[ "$MODE" = 1 ] && [ "$GUARDS" -gt 0 ] && guarded=1

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
# the initial one). WANT (when guarded): "refused" (EPERM from verigate),
# "kernel" (the kernel refuses it by itself, whatever the guards),
# or "allowed" (must work: nothing users rely on breaks). Then the gate must still
# refuse. Off the guarded boots only the kernel's own refusals and the
# harmless cells are judged.
cell() {
    name=$1 want=$2 ns=$3
    shift 3
    if [ "$ns" = - ]; then
        out=$(mount-attack "$@" 2>&1)
    else
        out=$(mount-attack --ns "$ns" "$@" 2>&1)
    fi
    case $want,$guarded,$out in
        refused,1,*"errno=EPERM"*) verdict="denied with EPERM" ;;
        refused,1,*) fail "$name" "expected EPERM, got: $out"; return ;;
        refused,0,*) verdict="no guard: $out" ;;
        kernel,*,*"errno=OTHER:"*) verdict="the kernel refused it: $out" ;;
        kernel,*,*) fail "$name" "expected the kernel to refuse it, got: $out"; return ;;
        allowed,*,allowed) verdict="allowed" ;;
        allowed,*,*) fail "$name" "expected it to work, got: $out"; return ;;
        *) verdict=$out ;;
    esac
    if check_out=$(gate_refuses); then
        pass "$name" "$verdict; the gate still refuses"
    else
        fail "$name" "$verdict; then the gate no longer refuses: $check_out"
    fi
}

if [ "$guarded" = 1 ]; then
    for target in /sys/fs/bpf /sys /; do
        t=${target#/}
        t=${t:-root}
        t=$(echo "$t" | tr / -)
        # umount2("/", 0) remounts the root read-only (it is already).
        cell "init-ns-umount-$t" "$([ "$target" = / ] && echo allowed || echo refused)" - umount "$target"
        cell "init-ns-umount-lazy-$t" refused - umount-lazy "$target"
        cell "init-ns-move-mount-$t" refused - move-mount "$target" /tmp/elsewhere
        cell "shared-ns-umount-$t" "$([ "$target" = / ] && echo allowed || echo refused)" shared umount "$target"
        cell "shared-ns-umount-lazy-$t" refused shared umount-lazy "$target"
        cell "shared-ns-move-mount-$t" kernel shared move-mount "$target" /tmp/elsewhere
        cell "userns-umount-$t" kernel userns umount "$target"
        cell "userns-umount-lazy-$t" kernel userns umount-lazy "$target"
    done
    cell shared-ns-pivot-root-umount-old kernel shared pivot-umount /tmp/newroot
    cell shared-ns-mount-over-bpffs refused shared over /sys/fs/bpf
    # A copy of /sys that the initial namespace holds elsewhere is a peer of
    # /sys: lazily unmounting a tree that holds it would propagate.
    mkdir -p /tmp/holder
    mount -t tmpfs holder /tmp/holder && mkdir /tmp/holder/sys && mount --rbind /sys /tmp/holder/sys
    cell init-ns-umount-lazy-tree-holding-sys-copy refused - umount-lazy /tmp/holder
    cell init-ns-umount-bpffs-of-sys-copy refused - umount /tmp/holder/sys/fs/bpf
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
# those of the mounts above it stay allowed.
for target in /sys/fs/bpf /sys /; do
    t=${target#/}
    t=${t:-root}
    t=$(echo "$t" | tr / -)
    for ns in shared slave private sandbox userns; do
        for type in private shared; do
            cell "$ns-ns-make-$type-$t" allowed "$ns" propagation "$type" "$target"
        done
    done
    if [ "$target" = /sys/fs/bpf ]; then
        [ "$guarded" = 0 ] || cell "init-ns-make-private-$t" refused - propagation private "$target"
    else
        # A slave of its peers elsewhere would receive their unmounts.
        [ "$guarded" = 0 ] || cell "init-ns-make-slave-$t" refused - propagation slave "$target"
        cell "init-ns-make-shared-$t" allowed - propagation shared "$target"
    fi
done

# The control: without the guards the issue's attack works. A new
# namespace, propagation untouched, unmounts its copy of the bpffs; the
# kernel propagates that to the initial namespace and the pins go.
if [ "$guarded" = 0 ] && [ "$MODE" = 1 ]; then
    out=$(mount-attack --ns shared umount /sys/fs/bpf 2>&1)
    sleep 1
    if [ "$out" = allowed ] && ! [ -e /sys/fs/bpf/verigate ]; then
        check shared-ns-umount-drops-the-gate allowed "vg-hello: running" vg-try exec /tmp/hello
    else
        fail shared-ns-umount-drops-the-gate "expected the propagated unmount to drop the pins: $out; $(ls /sys/fs/bpf 2>&1)"
    fi
fi
