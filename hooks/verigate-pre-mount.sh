#!/bin/sh
# verigate: before the root is mounted, check that the root device is the
# dm-verity device that roothash= names, so a mismatch stops the boot with
# a reason instead of a failed mount.

type die > /dev/null 2>&1 || . /lib/dracut-lib.sh

verigate_check_device() {
    _vg_root=$(getarg root=)
    _vg_root=${_vg_root#block:}
    [ -n "$_vg_root" ] || return 0
    # In a systemd initrd this hook may run before the verity device is set
    # up; wait as long as systemd waits for a device by default.
    _vg_wait=180
    while [ ! -b "$_vg_root" ] && [ "$_vg_wait" -gt 0 ]; do
        sleep 0.5
        _vg_wait=$((_vg_wait - 1))
    done
    [ -b "$_vg_root" ] || die "verigate: the root device $_vg_root did not appear within 90 s"
    @LOADER@ --check-device "$_vg_root" \
        || die "verigate: the root device $_vg_root is not the verified root"
    return 0
}

verigate_check_device
