#!/bin/sh
# Test builds only: load and activate /etc/vg-test/ipe-policy.p7s, then
# run one program from the initramfs, which under the policy's DEFAULT
# action=DENY only its boot_verified rule allows. The outcome goes to the
# kernel log for tests/guest/ipe-boot.sh.
ipe=/sys/kernel/security/ipe
log() { echo "vg-test-ipe: $*" > /dev/kmsg; }

if ! cat /etc/vg-test/ipe-policy.p7s > "$ipe/new_policy"; then
    log "IPE refused the policy of the initramfs"
    exit 1
fi
for policy in "$ipe"/policies/*; do
    echo 1 > "$policy/active" || exit 1
    name=${policy##*/}
done
if sh -c 'exit 0'; then
    log "policy $name active in the initramfs; initramfs exec after it: ran"
else
    log "policy $name active in the initramfs; initramfs exec after it: refused ($?)"
    exit 1
fi
