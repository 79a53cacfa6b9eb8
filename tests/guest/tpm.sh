# In-guest test of the loader's measurement (run-in-guest --tpm, a software
# TPM with a sha256 and a sha1 bank). PCR 9 holds only what verigate
# extended (the kernel measures an initrd there only when booted through
# its EFI stub, and these boots are not), so its sha256 bank after boot
# must be the replay, from zero, of systemd's userspace event log: first
# the gate as it came up (its mode, the verified hash, the live hooks),
# then the separator. The PCR is printed for tests/check, which compares
# it across boots. Without a TPM: nothing measured, and the loader says so.
. /mnt/lib.sh

log=/run/log/systemd/tpm2-measure.log
bb=$(command -v busybox || echo /usr/local/bin/busybox)
case $MODE_NAME in
    enforce) mode=enforcing ;;
    *) mode=$MODE_NAME ;;
esac

if ! [ -e /dev/tpmrm0 ]; then
    [ "$mode" = off ] && exit 0
    if [ "$(loader_field tpm)" = none ] && ! [ -e $log ]; then
        pass tpm-none-measured "no TPM: the loader line says tpm=none and there is no event log"
    else
        fail tpm-none-measured "no TPM, yet tpm=$(loader_field tpm) and the log is $(ls -l $log 2>&1)"
    fi
    exit 0
fi

# The loader with every PCR extend failing (run-in-guest --fault
# tpm-extend) and rd.verigate.tpm=auto: the measurement failed, the boot
# went on, and says so; nothing was recorded. (With =required the boot
# stops: tests/check's systemd-tpm-required-extend-fails.)
if grep -q 'vg_test.fault=tpm-extend' /proc/cmdline; then
    if [ "$(loader_field tpm)" = failed ] && ! [ -s $log ] &&
        dmesg | grep -q 'verigate: measuring the gate into PCR 9 failed: TPM2_PCR_Extend: injected'; then
        pass tpm-extend-failed-auto-boots "the extend failed and, with rd.verigate.tpm=auto, the boot went on: tpm=failed, no record, the error in the kernel log"
    else
        fail tpm-extend-failed-auto-boots "tpm=$(loader_field tpm), log: $(ls -l $log 2>&1), kernel log: $(dmesg | grep 'verigate: measuring' | head -n 2)"
    fi
    exit 0
fi

if [ "$mode" != off ]; then
    if [ "$(loader_field tpm)" = pcr9 ]; then
        pass tpm-loader-line "the loader line says tpm=pcr9"
    else
        fail tpm-loader-line "tpm=$(loader_field tpm) in: $LOADER_LINE"
    fi
fi

# The records: 0x1E, one line of JSON each.
tr '\036' '\n' < $log | grep -v '^$' > /tmp/records
count=$(wc -l < /tmp/records)
first=$(sed -n 1p /tmp/records | sed -n 's/.*"content":{"string":"\([^"]*\)"}}$/\1/p')
second=$(sed -n 2p /tmp/records | sed -n 's/.*"content":{"string":"\([^"]*\)"}}$/\1/p')
case $count,$first,$second in
    "2,verigate mode=$mode loaded="*",verigate separator")
        pass tpm-log-records "2 records: \"$first\", then \"$second\"" ;;
    *) fail tpm-log-records "$count records: $(cat /tmp/records | head -c 600)" ;;
esac
if [ "$mode" = enforcing ]; then
    case $first in
        *" loaded=yes ${ROOTHASH:+roothash=$ROOTHASH}${USRHASH:+usrhash=$USRHASH} "*" live=$(loader_field live) "*)
            pass tpm-event-names-the-gate "the event names the verified hash and the live hooks ($(loader_field live))" ;;
        *) fail tpm-event-names-the-gate "expected loaded=yes, the hash and live=$(loader_field live) in: $first" ;;
    esac
fi

# Each record's sha256 digest is that of its text, and the PCR is their
# replay from what came before: zero, or under UEFI what the firmware's
# event log gives PCR 9 (the kernel's EFI stub measures the initrd there),
# as a verifier replays both logs. Both banks are in each record.
hex2bin() { echo "$1" | $bb xxd -r -p; }
start=0000000000000000000000000000000000000000000000000000000000000000
firmware_log=/sys/kernel/security/tpm0/binary_bios_measurements
if [ -r $firmware_log ] && command -v tpm2 > /dev/null; then
    fw=$(tpm2 eventlog $firmware_log 2> /dev/null |
        awk '/^pcrs:/ { p = 1 } p && /^  sha256:/ { s = 1; next } p && /^  [a-z0-9]+:/ { s = 0 }
             s && $1 == "9" { print $3 }' | sed 's/^0x//' | tr 'A-F' 'a-f')
    [ -z "$fw" ] || start=$fw
fi
pcr=$start
ok=1
while read -r rec; do
    text=$(echo "$rec" | sed -n 's/.*"content":{"string":"\([^"]*\)"}}$/\1/p')
    digest=$(echo "$rec" | sed -n 's/.*{"hashAlg":"sha256","digest":"\([0-9a-f]*\)"}.*/\1/p')
    echo "$rec" | grep -q '{"hashAlg":"sha1","digest":"[0-9a-f]\{40\}"}' || ok=0
    [ "$(printf %s "$text" | $bb sha256sum | cut -c 1-64)" = "$digest" ] || ok=0
    pcr=$({ hex2bin "$pcr"; hex2bin "$digest"; } | $bb sha256sum | cut -c 1-64)
done < /tmp/records
[ "$ok" = 1 ] && pass tpm-record-digests "each record's sha256 digest is its text's, and it has a sha1 one" ||
    fail tpm-record-digests "a record's digest is not its text's, or it lacks a bank: $(cat /tmp/records | head -c 600)"
actual=$(tr 'A-F' 'a-f' < /sys/class/tpm/tpm0/pcr-sha256/9)
if [ "$actual" = "$pcr" ]; then
    pass tpm-pcr-replays "PCR 9 sha256 $actual, the event log's replay from $([ "$start" = "${start#*[1-9a-f]}" ] && echo zero || echo "the firmware log's $start")"
else
    fail tpm-pcr-replays "PCR 9 sha256 $actual, the log replays to $pcr"
fi
# For tests/check: the PCR, the event, and what the host needs to predict
# them (verigatectl expect --cmdline): the command line and the start.
echo "tpm-pcr9 $actual"
echo "tpm-event $first"
echo "tpm-start $start"
echo "tpm-cmdline $(cat /proc/cmdline)"

# verigatectl: what was measured, and the value to expect for the event.
if [ "$mode" != off ]; then
    out=$(verigatectl status 2>&1)
    case $out in
        *"measured          PCR 9 sha256 "*"\"$first\""*"pcr9_sha256       $actual"*)
            pass tpm-ctl-status "verigatectl status shows both events and PCR 9" ;;
        *) fail tpm-ctl-status "verigatectl status: $(echo "$out" | tail -n 4)" ;;
    esac
fi
expected=$(verigatectl expect --from "$start" "$first")
if [ "$expected" = "$actual" ]; then
    pass tpm-ctl-expect "verigatectl expect computes PCR 9 from the event alone: $expected"
else
    fail tpm-ctl-expect "verigatectl expect says $expected, the TPM $actual"
fi
