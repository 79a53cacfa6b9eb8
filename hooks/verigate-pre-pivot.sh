#!/bin/sh
# verigate: verify the new root and load the exec gate before switch_root.

type die > /dev/null 2>&1 || . /lib/dracut-lib.sh

# A loader killed part-way (it cannot roll back a SIGKILL) may have pinned
# some of its links: unpin them, so that nothing is left half attached.
verigate_unpin_partial() {
    [ -d /sys/fs/bpf/verigate ] || return 0
    # (the initramfs has no wc: count with the shell)
    set -- /sys/fs/bpf/verigate/*
    [ -e "$1" ] || set --
    _vg_pins=$#
    rm -rf /sys/fs/bpf/verigate || return 1
    warn "verigate: removed a partly installed gate: $_vg_pins pinned link(s) unpinned"
    return 0
}

verigate_load() {
    @LOADER@ --root "${NEWROOT:-/sysroot}" && return 0
    verigate_unpin_partial
    die "verigate: exec gate not loaded; refusing to switch to the real root"
}

verigate_load
