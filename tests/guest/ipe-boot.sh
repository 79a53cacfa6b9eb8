# Survey boots of tests/compare only: IPE must enforce the policy that the
# initramfs activated before anything else ran (tests/lib/dracut-ipe-policy,
# ipe-policy.p7s signed with the test key that the --efi boot put into the
# .platform keyring), and the initramfs must have run a program under it,
# which only the policy's boot_verified rule allows.
. /mnt/lib.sh

ipe=/sys/kernel/security/ipe
grep -q ' /sys/kernel/security ' /proc/mounts || mount -t securityfs securityfs /sys/kernel/security
name=$(sed -n 's/^policy_name=\([^ ]*\).*/\1/p' /mnt/ipe-policy.txt)
initramfs=$(dmesg | grep -o 'vg-test-ipe: .*')
if [ "$(cat "$ipe/policies/$name/active" 2> /dev/null)" != 1 ] || [ "$(cat "$ipe/enforce")" != 1 ]; then
    echo "FAIL ipe-boot: policy $name not active and enforcing; the initramfs said: ${initramfs:-nothing}"
    exit 1
fi
case $initramfs in
    *"initramfs exec after it: ran"*) ;;
    *)
        echo "FAIL ipe-boot: no initramfs program ran under the policy; the initramfs said: ${initramfs:-nothing}"
        exit 1
        ;;
esac
echo "ok ipe-boot: policy $name active since the initramfs, enforce=1"
pass ipe-initramfs-exec-boot-verified ran
# The root disk's driver is a module the initramfs loaded after the policy
# was active: the policy's KMODULE boot_verified rule let it in.
if [ "$(cat /sys/module/virtio_blk/initstate 2> /dev/null)" = live ] &&
    dmesg | sed -n '/vg-test-ipe: policy/,$p' | grep -q 'virtio_blk virtio'; then
    pass ipe-initramfs-module-boot-verified ran
else
    fail ipe-initramfs-module-boot-verified "virtio_blk was not loaded after the policy"
fi
