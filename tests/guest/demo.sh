# In-guest part of "make demo": show the gate at work in the real root.
echo "--- kernel log lines written by verigate-loader before switch_root (its TPM measurement, and the gate):"
dmesg | grep -o 'verigate: .*roothash=.*'
echo "--- pinned links and read-only views (the only references to the gate):"
ls /sys/fs/bpf/verigate
echo "--- a program from the verified image:"
echo "\$ /usr/local/bin/vg-hello"
/usr/local/bin/vg-hello
echo "--- the same program copied to tmpfs:"
cp /usr/local/bin/vg-hello /tmp/vg-hello
chmod +x /tmp/vg-hello
echo "\$ /tmp/vg-hello"
/tmp/vg-hello
echo "exit status $? ($(vg-try exec /tmp/vg-hello))"
echo "--- the kernel's trace of that decision:"
grep -m 1 'verigate: deny exec' /sys/kernel/tracing/trace | sed 's/.*verigate:/verigate:/'
echo "--- what verigatectl, run from the verified image, reads from the views:"
echo "\$ verigatectl status"
verigatectl status
echo "\$ verigatectl denials"
verigatectl denials
echo "--- root tries to take the gate away:"
echo "\$ rm /sys/fs/bpf/verigate/verigate_exec; umount -l /sys/fs/bpf; echo 0 > /proc/sys/kernel/ftrace_enabled"
rm -f /sys/fs/bpf/verigate/verigate_exec
umount -l /sys/fs/bpf
echo 0 > /proc/sys/kernel/ftrace_enabled
echo "\$ /tmp/vg-hello"
/tmp/vg-hello
echo "exit status $?: the gate is still closed"
echo "\$ verigatectl check"
verigatectl check
