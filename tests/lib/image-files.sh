# Sourced by tests/check and tests/compare (bash), which set $top.
# set_image_files KDIR DIR: the files baked into the test image for the
# guest kernel in KDIR (fetch-kernel), as run-in-guest --add options in the
# array image_files: verigatectl (from the image, as make install puts it
# into a real root), the test programs, that kernel's test modules
# (uncompressed: newer kernels ship .ko.xz) and a firmware file for
# test_firmware (guards.sh), the last two written into DIR.
set_image_files() {
    local kdir=$1 dir=$2 m src p
    mkdir -p "$dir"
    for m in drivers/net/dummy drivers/block/loop fs/overlayfs/overlay fs/binfmt_misc lib/test_firmware; do
        src=$(ls "$kdir"/lib/modules/*/kernel/$m.ko* | head -n 1)
        case $src in
            *.xz) xz -dc "$src" > "$dir/${m##*/}.ko" ;;
            *) cp "$src" "$dir/${m##*/}.ko" ;;
        esac
    done
    echo "verigate test firmware" > "$dir/vg-test.fw"
    set_kexec_kernels "$kdir" "$dir"
    image_files=()
    for p in "$top"/build/verigatectl "$top"/build/progs/* "$top"/build/attacks/* "$dir"/*.ko "$dir/vg-test.fw" \
        "$dir"/vg-kernel-*; do
        image_files+=(--add "$p")
    done
}

# set_kexec_kernels KDIR DIR: DIR/vg-kernel-{distro-signed,unsigned,test-signed}.
set_kexec_kernels() {
    local kdir=$1 dir=$2 key signed
    key=$("$top/tests/lib/efi-test-key")
    signed=$key/kexec/vmlinuz-$(cat "$kdir/kver").test-signed
    cp "$kdir/vmlinuz" "$dir/vg-kernel-distro-signed"
    cp "$kdir/vmlinuz" "$dir/vg-kernel-unsigned"
    sbattach --remove "$dir/vg-kernel-unsigned" > /dev/null
    if [ ! -s "$signed" ]; then
        mkdir -p "${signed%/*}"
        sbsign --key "$key/key.pem" --cert "$key/cert.pem" --output "$signed.tmp" \
            "$dir/vg-kernel-unsigned" > /dev/null
        mv "$signed.tmp" "$signed"
    fi
    cp "$signed" "$dir/vg-kernel-test-signed"
}
