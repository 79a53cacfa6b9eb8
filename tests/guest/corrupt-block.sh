# Boot tests/run-in-guest --corrupt vg-hello: the image has one byte
# flipped in vg-hello's first data block, under the same roothash. dm-verity
# must fail every read of that block (EIO), so nothing of it runs, while the
# rest of the verified root keeps working. The control is every other boot,
# where the same vg-hello runs.
. /mnt/lib.sh

kernel_refuses corrupt-block-exec EIO vg-try exec /usr/local/bin/vg-hello
if cat /usr/local/bin/vg-hello > /dev/null 2> /tmp/cat.err; then
    fail corrupt-block-read "the corrupted block was read"
else
    pass corrupt-block-read "read refused: $(cat /tmp/cat.err)"
fi
if dmesg | grep -q 'device-mapper: verity: .*data block .* is corrupted'; then
    pass corrupt-block-logged "$(dmesg | grep -m 1 -o 'device-mapper: verity: .*is corrupted')"
else
    fail corrupt-block-logged "no dm-verity corruption line in the kernel log"
fi
check corrupt-block-others-still-run allowed "usage" vg-try exec /usr/local/bin/vg-inject
if [ "$MODE" = 1 ]; then
    check corrupt-block-gate-still-closed denied "" vg-try exec /mnt/vg-hello
fi
