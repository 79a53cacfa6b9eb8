# In-guest test of audit mode on a kernel whose active LSMs lack bpf
# (lsm= without bpf): the boot goes on, the loader says why nothing is
# loaded, and nothing is enforced. The same boot in enforce mode must stop
# (tests/check: systemd-no-bpf-lsm).
. /mnt/lib.sh

pin_dir=/sys/fs/bpf/verigate
lsms=$(cat /sys/kernel/security/lsm 2> /dev/null)
case ,$lsms, in
    *,bpf,*) fail bpf-lsm-inactive "the bpf LSM is active: $lsms" ;;
    *) pass bpf-lsm-inactive "active LSMs: $lsms" ;;
esac
why=$(dmesg | grep -o "verigate: the bpf LSM is not active.*" | head -n 1)
[ -n "$why" ] && pass audit-logs-why "$why" ||
    fail audit-logs-why "no 'verigate: the bpf LSM is not active' in dmesg"
[ ! -e "$pin_dir" ] && pass nothing-pinned "no $pin_dir" ||
    fail nothing-pinned "$pin_dir holds: $(ls "$pin_dir" | tr '\n' ' ')"
cp /usr/local/bin/vg-hello /tmp/hello
chmod +x /tmp/hello
check tmpfs-exec-not-gated allowed "vg-hello: running" vg-try exec /tmp/hello
