#!/bin/sh
# verigate: before the root is mounted, check that the verified device (the
# root, or /usr with usrhash=) is the dm-verity device that roothash= or
# usrhash= names, so a mismatch stops the boot with a reason instead of a
# failed mount.

type die > /dev/null 2>&1 || . /lib/dracut-lib.sh

verigate_check_device() {
    # The device verigate trusts: mount.usr= (systemd-fstab-generator's
    # default with usrhash= is /dev/mapper/usr), or root=.
    if getarg usrhash= > /dev/null; then
        _vg_what=/usr
        _vg_dev=$(getarg mount.usr=)
        _vg_dev=${_vg_dev:-/dev/mapper/usr}
    else
        _vg_what=root
        _vg_dev=$(getarg root=)
        _vg_dev=${_vg_dev#block:}
    fi
    [ -n "$_vg_dev" ] || return 0
    # In a systemd initrd this hook may run before the verity device is set
    # up; wait as long as systemd waits for a device by default.
    _vg_wait=180
    while [ ! -b "$_vg_dev" ] && [ "$_vg_wait" -gt 0 ]; do
        sleep 0.5
        _vg_wait=$((_vg_wait - 1))
    done
    [ -b "$_vg_dev" ] || die "verigate: the $_vg_what device $_vg_dev did not appear within 90 s"
    @LOADER@ --check-device "$_vg_dev" \
        || die "verigate: the $_vg_what device $_vg_dev is not the verified one"
    return 0
}

verigate_check_device
