#!/bin/sh
# verigate (non-systemd initrd): open the dm-verity root from systemd's
# options roothash= systemd.verity_root_data= systemd.verity_root_hash=,
# as systemd-veritysetup-generator does in a systemd initrd.

type die > /dev/null 2>&1 || . /lib/dracut-lib.sh

verigate_verity_open() {
    [ -b /dev/mapper/root ] && return 0
    _vg_hash=$(getarg roothash=) || return 0
    _vg_data=$(getarg systemd.verity_root_data=) || return 0
    _vg_tree=$(getarg systemd.verity_root_hash=) || return 0
    _vg_data=$(label_uuid_to_dev "$_vg_data")
    _vg_tree=$(label_uuid_to_dev "$_vg_tree")
    # Not there yet: the initqueue calls again once udev has settled.
    [ -b "$_vg_data" ] && [ -b "$_vg_tree" ] || return 0
    veritysetup open "$_vg_data" root "$_vg_tree" "$_vg_hash" \
        || die "verigate: veritysetup open $_vg_data root $_vg_tree roothash=$_vg_hash failed"
    return 0
}

verigate_verity_open
