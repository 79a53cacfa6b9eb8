# In-guest test: rd.verigate.kdump= (a boot with crashkernel=). The loader
# loaded the crash kernel from the verified image before the real init,
# with a command line it chose: this boot's gate options, without the
# crashkernel= and kdump options. Enforcing, root can neither replace nor
# unload it (EPERM), and it stays loaded; on the controls (audit, --guards
# off) root can do both. Runs before kexec.sh, which loads crash kernels
# of its own.
. /mnt/lib.sh

kdump=$(cmdline_arg rd.verigate.kdump)
crash_loaded() { cat /sys/kernel/kexec_crash_loaded; }
line=$(dmesg | grep -o "verigate: crash kernel loaded: .*" | head -n 1)

if [ -z "$kdump" ]; then
    skip kdump-loaded-by-initramfs "no rd.verigate.kdump= on this boot"
    exit 0
fi

crash_cmdline=${line#*cmdline=}
case "$line" in
    "")
        fail kdump-loaded-by-initramfs "the loader logged no crash kernel" ;;
    *)
        if [ "$(crash_loaded)" != 1 ]; then
            fail kdump-loaded-by-initramfs "logged, but kexec_crash_loaded is $(crash_loaded): $line"
        else
            case " $crash_cmdline " in
                *" crashkernel="* | *" rd.verigate.kdump"*)
                    fail kdump-loaded-by-initramfs "its command line keeps this boot's kdump options: $crash_cmdline" ;;
                *" rd.verigate=$MODE "*)
                    case " $crash_cmdline " in
                        *" $TREE_OPTION=$TREE_HASH "*" reset_devices nr_cpus=1 irqpoll ")
                            pass kdump-loaded-by-initramfs "kexec_crash_loaded=1; $line" ;;
                        *) fail kdump-loaded-by-initramfs "its command line lacks $TREE_OPTION= or the crash kernel's options: $crash_cmdline" ;;
                    esac ;;
                *) fail kdump-loaded-by-initramfs "its command line lacks rd.verigate=$MODE: $crash_cmdline" ;;
            esac
        fi ;;
esac

# Root unloads it, then loads a kernel of the verified image in its place.
for step in unload replace; do
    if [ "$step" = replace ]; then
        out=$(kernel-attack kexec-file-crash "$kdump" 2>&1)
    else
        out=$(kernel-attack kexec-crash-unload 2>&1)
    fi
    if guarded; then
        case $out in
            *"denied errno=EPERM"*)
                if [ "$(crash_loaded)" = 1 ]; then
                    pass "kdump-$step-by-root" "denied with EPERM; the initramfs' crash kernel is still loaded"
                else
                    fail "kdump-$step-by-root" "denied, but kexec_crash_loaded is now $(crash_loaded)"
                fi ;;
            *) fail "kdump-$step-by-root" "expected EPERM, got: $out" ;;
        esac
    else
        case $out in
            allowed) pass "kdump-$step-by-root" "it worked on this control (the kernel said so)" ;;
            *) fail "kdump-$step-by-root" "expected it to work on this control, got: $out" ;;
        esac
    fi
done
