#!/bin/bash
# verigate: allow only programs from the verified dm-verity root to run.
# The loader path below is filled in by "make install".

check() {
    # Never included by default: only with "dracut --add verigate".
    return 255
}

depends() {
    if dracut_module_included "systemd"; then
        echo dm systemd-veritysetup
    else
        echo dm
    fi
    return 0
}

installkernel() {
    hostonly='' instmods dm_mod dm_verity
}

install() {
    # verigate_loader (dracut.conf) names another build of the loader to install.
    inst_binary "${verigate_loader:-@LOADER@}" "@LOADER@"
    # verigate_pubkey (dracut.conf): a PEM public key, installed where
    # rd.verigate.pubkey=/etc/verigate/pubkey.pem finds it.
    if [ -n "${verigate_pubkey:-}" ]; then
        if [ ! -r "$verigate_pubkey" ]; then
            dfatal "verigate: verigate_pubkey=$verigate_pubkey: cannot read the key file"
            exit 1
        fi
        inst_simple "$verigate_pubkey" /etc/verigate/pubkey.pem
    fi
    # verigate_required=yes (dracut.conf): this initramfs refuses to boot
    # unless the command line enforces (and, with verigate_pubkey, has the
    # root hash signed by that key). Recovery then needs another initramfs.
    case ${verigate_required:-no} in
        yes) mkdir -p "$initdir/etc/verigate" && : > "$initdir/etc/verigate/required" ;;
        no) ;;
        *)
            dfatal "verigate: verigate_required=$verigate_required: use yes or no"
            exit 1
            ;;
    esac
    inst_hook cmdline 10 "$moddir/verigate-cmdline.sh"
    inst_hook pre-mount 90 "$moddir/verigate-pre-mount.sh"
    inst_hook pre-pivot 90 "$moddir/verigate-pre-pivot.sh"
    if dracut_module_included "systemd"; then
        inst_simple "$moddir/initrd-switch-root-verigate.conf" \
            "$systemdsystemunitdir/initrd-switch-root.service.d/50-verigate.conf"
    else
        inst_multiple veritysetup
        inst_hook cmdline 11 "$moddir/verigate-discoverable.sh"
        inst_hook initqueue/settled 50 "$moddir/verigate-verity-open.sh"
    fi
}
