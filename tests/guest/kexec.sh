# In-guest test: no other kernel starts without going through the firmware.
# Enforcing with the guards, every kexec load is refused with EPERM and
# recorded as "kexec", whatever the image's signature and whatever device it
# is on: the guest kernel as Debian signed it, unsigned, and signed by the
# test key that an --efi boot's UEFI db holds (the kernel then has it in
# .platform, and kexec's own signature check passes). Crash kernels too.
# The controls (off, audit, --guards off) load each one; a control locked
# down by the kernel (lockdown=integrity, as under Secure Boot) loads the
# kernel that the firmware's key signed and no other: the way out that the
# kernel alone leaves open. Last, the EFI boot variables stay writable
# (threat-model.md: the next boot).
. /mnt/lib.sh

bin=/usr/local/bin
denials=/sys/fs/bpf/verigate/denials
efi=no
[ -d /sys/firmware/efi ] && efi=yes
lockdown=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' /sys/kernel/security/lockdown 2> /dev/null)
crash_size=$(cat /sys/kernel/kexec_crash_size 2> /dev/null || echo 0)
locked_down() { [ -n "$lockdown" ] && [ "$lockdown" != none ]; }
# A crash kernel the loader kept (rd.verigate.kdump=, kdump.sh): the kernel
# then refuses later crash loads itself, before verigate is asked, and on
# kernels without kexec_load_limit_panic every kexec load.
kept=$(dmesg | sed -n 's/.*verigate: crash kernel loaded: .* kept=\([^ ]*\) .*/\1/p' | head -n 1)
# latched CRASH: whether the kernel's own latch refuses this load first.
latched() {
    case $kept in
        */kexec_load_disabled) return 0 ;;
        */kexec_load_limit_panic) [ "$1" = crash ] ;;
        *) return 1 ;;
    esac
}

# refused_by_kernel NAME OUTPUT: a control boot whose locked-down kernel
# must refuse the attack itself.
refused_by_kernel() {
    case $2 in
        *"denied errno=EPERM"*) pass "$1" "the locked-down kernel refused it itself: $2" ;;
        *) fail "$1" "expected the locked-down kernel to refuse it, got: $2" ;;
    esac
}

# The kexec refusal among the records verigate made since there were $_seq
# (a load whose signature fails is also asked about lockdown, after it).
kexec_record() {
    tail -n "$((${_new:-0} - ${_seq:-0}))" "$denials" 2> /dev/null | grep " what=kexec$" | tail -n 1
}

# kexec_case NAME KERNEL_TRUSTS CMD...: CMD loads an image. Enforcing with
# guards it must be refused with EPERM and recorded (or by the kernel's
# latch, when the loader kept a crash kernel); on the audit boot it
# loads and the audit is recorded; on the other controls it loads, unless
# the kernel is locked down and does not trust the image (KERNEL_TRUSTS:
# yes or no), when the kernel itself refuses it with EPERM.
kexec_case() {
    _name=$1 _trusts=$2
    shift 2
    _seq=$(sed -n 's/^denials //p' /sys/fs/bpf/verigate/status 2> /dev/null)
    _out=$("$@" 2>&1)
    _new=$(sed -n 's/^denials //p' /sys/fs/bpf/verigate/status 2> /dev/null)
    if [ "$SURVEY" = 1 ]; then
        [ "$_out" = allowed ] && _out=ran
        echo "cell $_name: $(echo "$_out" | head -n 1)"
        return
    fi
    case "$*" in *crash*) _kind=crash ;; *) _kind=kernel ;; esac
    if guarded && latched "$_kind"; then
        case $_out in
            *"denied errno=EPERM"*) pass "$_name" "denied with EPERM by the kernel's latch ($kept), before verigate is asked" ;;
            *) fail "$_name" "expected the kernel's latch ($kept) to refuse it, got: $_out" ;;
        esac
    elif guarded; then
        case $_out in
            *"denied errno=EPERM"*)
                if [ "$_new" != "$_seq" ] && [ -n "$(kexec_record)" ]; then
                    pass "$_name" "denied with EPERM, recorded: $(kexec_record)"
                else
                    fail "$_name" "EPERM, but no kexec refusal was recorded (denials $_seq -> $_new)"
                fi ;;
            *) fail "$_name" "expected EPERM, got: $_out" ;;
        esac
    elif locked_down && [ "$_trusts" = no ]; then
        refused_by_kernel "$_name" "$_out"
    elif [ "$MODE" = audit ] && [ "$GUARDS" -gt 0 ]; then
        case $_out in
            allowed)
                if [ -n "$(kexec_record)" ]; then
                    pass "$_name" "it worked, and the audit was recorded: $(kexec_record)"
                else
                    fail "$_name" "it worked, but no kexec audit was recorded"
                fi ;;
            *) fail "$_name" "expected it to work on the audit boot, got: $_out" ;;
        esac
    else
        case $_out in
            allowed) pass "$_name" "it worked (a load: the kernel said so, then it was unloaded)" ;;
            *) fail "$_name" "expected it to work on this control, got: $_out" ;;
        esac
    fi
}

# Which images this kernel trusts by their signature: the test key's only
# on an EFI boot (.platform); Debian's key is in no keyring of the guest
# (no shim passes it on).
test_signed_trusted=no
[ "$efi" = yes ] && test_signed_trusted=yes

kexec_case kexec-file-test-signed "$test_signed_trusted" kernel-attack kexec-file "$bin/vg-kernel-test-signed"
kexec_case kexec-file-distro-signed no kernel-attack kexec-file "$bin/vg-kernel-distro-signed"
kexec_case kexec-file-unsigned no kernel-attack kexec-file "$bin/vg-kernel-unsigned"
# A crash kernel needs memory set aside (crashkernel=); without it the
# kernel refuses the load after the file is read, so only the guarded boots
# can judge it.
if [ "$crash_size" -gt 0 ] || guarded; then
    kexec_case kexec-file-crash "$test_signed_trusted" kernel-attack kexec-file-crash "$bin/vg-kernel-test-signed"
else
    skip kexec-file-crash "no crashkernel= on this boot: a crash kernel cannot load anywhere"
fi
# kexec_load takes the image from memory: no signature, refused by a
# locked-down kernel; with no segments it unloads, which the guards refuse
# like any kexec_load.
kexec_case kexec-load-crash no kernel-attack kexec-load-crash

# The EFI boot variables: not guarded (the ESP is as writable, and the
# firmware's db decides what can boot). BootNext is written and removed
# again, with the gate enforcing as on the controls.
if [ "$efi" = yes ]; then
    vars=/sys/firmware/efi/efivars
    grep -q " $vars efivarfs " /proc/mounts || mount -t efivarfs efivarfs "$vars"
    var=$vars/BootNext-8be4df61-93ca-11d2-aa0d-00e098032b8c
    # One write: the attributes (non-volatile, boot and runtime) and entry 0.
    printf '\007\000\000\000\000\000' > /tmp/bootnext
    if dd if=/tmp/bootnext of="$var" bs=6 count=1 2> /tmp/efivar.err &&
        [ "$(od -An -tx1 "$var" | tr -d ' \n')" = 070000000000 ]; then
        rm -f "$var"
        [ "$SURVEY" = 1 ] && echo "cell efi-boot-variable-write: ran" ||
            pass efi-boot-variable-write "BootNext written and removed (efivarfs: verigate does not guard it)"
    else
        fail efi-boot-variable-write "could not write BootNext: $(cat /tmp/efivar.err)"
    fi
else
    skip efi-boot-variable-write "not an EFI boot"
fi

# Hibernation hands over to a kernel image too: the one written to swap, or
# one that user space writes into /dev/snapshot and restores. Both are
# refused by the lockdown guard (LOCKDOWN_HIBERNATION). The hibernation
# itself runs as the kernel's freezer test (pm_test): it freezes every
# task, thaws them and returns, so a control boot goes on.
hibernation_case() {
    _name=$1
    shift
    if [ "$SURVEY" != 1 ] && ! guarded && locked_down; then
        refused_by_kernel "$_name" "$("$@" 2>&1)"
    else
        guard_attack "$_name" allowed "$@"
    fi
}
hibernation_case hibernate-image-restore kernel-attack snapshot-restore
if [ -w /sys/power/pm_test ]; then
    echo freezer > /sys/power/pm_test
    hibernation_case hibernate kernel-attack hibernate
    echo none > /sys/power/pm_test
else
    skip hibernate "no /sys/power/pm_test: a real hibernation would stop the guest"
fi
