# Survey boots of tests/compare only: make IPE enforce the policy on the
# script disk (ipe-policy.p7s, signed with the test key that the --efi boot
# put into the .platform keyring). Debian's kernels have no IPE boot policy,
# so until this runs IPE allows everything.
ipe=/sys/kernel/security/ipe
grep -q ' /sys/kernel/security ' /proc/mounts || mount -t securityfs securityfs /sys/kernel/security
name=$(sed -n 's/^policy_name=\([^ ]*\).*/\1/p' /mnt/ipe-policy.txt)
if ! cat /mnt/ipe-policy.p7s > "$ipe/new_policy"; then
    echo "FAIL ipe-enable: IPE refused the signed policy (is the test key in .platform?)"
    exit 1
fi
echo 1 > "$ipe/policies/$name/active"
if [ "$(cat "$ipe/policies/$name/active")" != 1 ] || [ "$(cat "$ipe/enforce")" != 1 ]; then
    echo "FAIL ipe-enable: policy $name not active and enforcing"
    exit 1
fi
echo "ok ipe-enable: policy $name active, enforce=1"
