# In-guest test of a verity /usr on a writable root (run-in-guest --image
# systemd --verity usr, usrhash=): /usr's dm-verity device is the trusted
# one; the root is writable and nothing on it runs. The last check takes the
# whole mount tree away on a control boot, so this script runs last.
. /mnt/lib.sh

hello=/usr/local/bin/vg-hello
usr_dev=$(mountpoint -d /usr)
root_dev=$(mountpoint -d /)

# The layout the boot asked for.
usr_dm=$(cat "/sys/dev/block/$usr_dev/dm/name" 2> /dev/null)
usr_opts=$(awk '$2 == "/usr" { print $4 }' /proc/mounts | tail -n 1)
case $usr_dm,$usr_opts in
    usr,ro*) pass usr-is-verity "/usr is dm device usr ($usr_dev), $usr_opts" ;;
    *) fail usr-is-verity "/usr: dm name '$usr_dm', options '$usr_opts'" ;;
esac
if [ "$root_dev" != "$usr_dev" ] && echo written > /root/vg-written &&
    [ "$(cat /root/vg-written)" = written ]; then
    pass root-is-writable "/ ($root_dev) took a write"
else
    fail root-is-writable "/ is $root_dev, /usr $usr_dev; writing /root/vg-written failed"
fi

# The loader trusted /usr's device, by usrhash=.
if [ "$MODE_NAME" = off ]; then
    [ -z "$LOADER_LINE" ] && pass loader-line-absent "verigate off: no loader line" ||
        fail loader-line-absent "verigate off, yet: $LOADER_LINE"
else
    case $LOADER_LINE in
        "verigate: "*" usrhash=$USRHASH "*) ;;
        *) fail loader-trusts-usr "expected usrhash=$USRHASH in '$LOADER_LINE'" ;;
    esac
    if [ "$(loader_field dev)" = "$usr_dev" ]; then
        pass loader-trusts-usr "dev=$usr_dev, the /usr device"
    else
        fail loader-trusts-usr "loader dev=$(loader_field dev), /usr is $usr_dev"
    fi
fi

# What /usr holds runs; what the writable root or a tmpfs holds does not.
check usr-program-runs allowed "vg-hello: running" "$hello"
check usr-shell-runs allowed usr-shell /usr/bin/sh -c 'echo usr-shell'
cp "$hello" /root/vg-hello
cp "$hello" /tmp/hello
printf '#!/bin/sh\necho rw-root-script-ran\n' > /root/vg-script
chmod +x /root/vg-hello /tmp/hello /root/vg-script
attack rw-root-exec "vg-hello: running" vg-try exec /root/vg-hello
attack rw-root-execveat "vg-hello: running" vg-try execveat /root/vg-hello
attack rw-root-mmap-exec allowed vg-try mmap-exec /root/vg-hello
attack rw-root-script-exec rw-root-script-ran vg-try exec /root/vg-script
attack tmpfs-exec "vg-hello: running" vg-try exec /tmp/hello

# /usr's device is held as a verity root's.
dm_tree_attacks usr

# The names /sys and the /run anchor sit on, removed from a private
# namespace that unmounted its copies: the kernel unmounts what sits on
# them here too, and /sys is on the writable root. With the bpffs (under
# /sys) and the anchor gone, the pins would go, and the gate with them.
# The control (--guards off, which anchors nothing) loses the gate with
# /sys.
if [ "$MODE" = 1 ] && [ "$GUARDS" -gt 0 ]; then
    check private-ns-rmdir-sys denied "" mount-attack --ns private remove-mountpoint rmdir /sys
    check private-ns-rmdir-run-anchor denied "" \
        mount-attack --ns private remove-mountpoint rmdir /run/verigate-pins
    check rw-root-exec-after-rmdir-attack denied "" vg-try exec /root/vg-hello
elif [ "$MODE" = 1 ]; then
    check private-ns-rmdir-sys allowed allowed mount-attack --ns private remove-mountpoint rmdir /sys
    tries=0
    until vg-try exec /root/vg-hello 2>&1 | grep -q "vg-hello: running" || [ $tries -ge 10 ]; do
        sleep 1
        tries=$((tries + 1))
    done
    check rw-root-exec-after-rmdir-attack allowed "vg-hello: running" vg-try exec /root/vg-hello
fi

# A lazy unmount of the writable root takes /sys, and the bpffs with the
# pins, with it. On a control boot it succeeds and leaves this shell in the
# detached root, without /usr: only the static busybox copied there runs.
cp /usr/local/bin/busybox /root/busybox
if [ "$MODE" = 1 ] && [ "$GUARDS" -gt 0 ]; then
    check umount-lazy-rw-root denied "" mount-attack umount-lazy /
    check rw-root-exec-after-attack denied "" vg-try exec /root/busybox
else
    check umount-lazy-rw-root allowed allowed mount-attack umount-lazy /
    # The links go when the bpffs does, shortly after; no sleep(1) is left
    # to wait with, so try again a few times with a shell loop between.
    tries=0
    until /root/busybox true 2> /dev/null || [ $tries -ge 20 ]; do
        i=0
        while [ $i -lt 20000 ]; do i=$((i + 1)); done
        tries=$((tries + 1))
    done
    check rw-root-exec-after-umount allowed busybox-ran /root/busybox echo busybox-ran
fi
