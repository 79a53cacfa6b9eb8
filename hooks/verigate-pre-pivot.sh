#!/bin/sh
# verigate: verify the new root and load the exec gate before switch_root.

type die > /dev/null 2>&1 || . /lib/dracut-lib.sh

verigate_load() {
    @LOADER@ --root "${NEWROOT:-/sysroot}" \
        || die "verigate: exec gate not loaded; refusing to switch to the real root"
    return 0
}

verigate_load
