# In-guest test: booted from a discoverable disk image (run-in-guest --ddi:
# systemd-boot, the root and its verity partition found by their type and
# by roothash= alone). Nothing but roothash= names the root; the loader
# line and the status view name the partitions verigate trusts.
. /mnt/lib.sh

cmdline=$(cat /proc/cmdline)
case " $cmdline " in
    *" root="* | *" systemd.verity_root_data="* | *" systemd.verity_root_hash="*)
        fail ddi-roothash-alone "the command line names the root: $cmdline" ;;
    *" roothash=$ROOTHASH "*) pass ddi-roothash-alone "only roothash= names the root" ;;
    *) fail ddi-roothash-alone "no roothash= on the command line: $cmdline" ;;
esac
data=$(loader_field data) hash=$(loader_field hash)
case "$data $hash" in
    *,root-x86-64\ *,root-x86-64-verity) pass ddi-loader-names-partitions "data=$data hash=$hash" ;;
    *) fail ddi-loader-names-partitions "want the partitions root-x86-64 and root-x86-64-verity: data=$data hash=$hash" ;;
esac
status=/sys/fs/bpf/verigate/status
if grep -qx "data_device [0-9]*:[0-9]* root-x86-64" $status &&
    grep -qx "hash_device [0-9]*:[0-9]* root-x86-64-verity" $status; then
    pass ddi-status-names-partitions "$(grep -E '^(data|hash)_device' $status | tr '\n' ';')"
else
    fail ddi-status-names-partitions "$(grep -E '^(data|hash)_device' $status | tr '\n' ';')"
fi
