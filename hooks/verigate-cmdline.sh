#!/bin/sh
# verigate: reject a bad rd.verigate= (or roothash=) before anything else runs.

type die > /dev/null 2>&1 || . /lib/dracut-lib.sh

verigate_check_cmdline() {
    _vg_reason=$(@LOADER@ --check-cmdline 2>&1 > /dev/null) \
        || die "verigate: ${_vg_reason#verigate: }"
    return 0
}

verigate_check_cmdline
