#!/bin/sh
# verigate: before the root is mounted, check that the root device is the
# dm-verity device that roothash= names, so a mismatch stops the boot with
# a reason instead of a failed mount.

type die > /dev/null 2>&1 || . /lib/dracut-lib.sh

verigate_check_device() {
    _vg_root=$(getarg root=)
    _vg_root=${_vg_root#block:}
    [ -n "$_vg_root" ] || return 0
    @LOADER@ --check-device "$_vg_root" \
        || die "verigate: the root device $_vg_root is not the verified root"
    return 0
}

verigate_check_device
