#!/bin/sh
# verigate (non-systemd initrd): roothash= without the verity devices named
# is how a discoverable disk image boots: its partitions are found by their
# type and the root hash, which only systemd's generators do. With
# verigate asked for, stop before dracut's own parsing of root= does, and
# say which initrd can.

type die > /dev/null 2>&1 || . /lib/dracut-lib.sh

verigate_needs_named_devices() {
    case $(getarg rd.verigate=) in
        "" | 0) return 0 ;;
    esac
    getarg roothash= > /dev/null || return 0
    [ -n "$(getarg systemd.verity_root_data=)" ] && [ -n "$(getarg systemd.verity_root_hash=)" ] &&
        return 0
    die "verigate: roothash= without systemd.verity_root_data= and systemd.verity_root_hash=: finding the partitions of a discoverable disk image needs the systemd initrd (dracut --add systemd); this initramfs is dracut's shell flavour"
}

verigate_needs_named_devices
