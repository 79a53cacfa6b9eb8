#!/bin/bash
# Test builds only (tests/compare's IPE boot): an initramfs that makes IPE
# enforce a signed policy before anything else runs, so that the policy's
# boot_verified rules, not a later login, decide what the initramfs may run.
# build-initrd --ipe-policy FILE sets vg_test_ipe_policy.

check() {
    return 255
}

depends() {
    echo systemd
    return 0
}

install() {
    [ -r "$vg_test_ipe_policy" ] || die "vg-test-ipe-policy: cannot read vg_test_ipe_policy '$vg_test_ipe_policy'"
    inst_simple "$vg_test_ipe_policy" /etc/vg-test/ipe-policy.p7s
    inst_script "$moddir/ipe-policy-load.sh" /usr/lib/vg-test/ipe-policy-load
    inst_simple "$moddir/vg-test-ipe-policy.service" \
        "$systemdsystemunitdir/vg-test-ipe-policy.service"
    ln_r "$systemdsystemunitdir/vg-test-ipe-policy.service" \
        "$systemdsystemunitdir/sysinit.target.wants/vg-test-ipe-policy.service"
}
