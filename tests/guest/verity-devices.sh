# Verity devices set up after boot: trusted on 6.12+ when their root hash is
# on rd.verigate.allow= (or, with rd.verigate.signed=1, signed with a key
# the kernel trusts) and verity serves no unverified block; everything else
# on them refused. Images from tests/lib/build-verity-extras on the
# script disk (/mnt).
. /mnt/lib.sh

VERITY_TRUST=$(loader_field verity_trust)
hello=vg-hello

kernel-attack finit-module /usr/local/bin/loop.ko > /dev/null 2>&1
# table_of NAME: the verity table line for image NAME on fresh loop devices.
table_of() {
    _data=$(losetup -f) && losetup -r "$_data" "/mnt/$1.data" &&
        _hash=$(losetup -f) && losetup -r "$_hash" "/mnt/$1.hash" &&
        read -r _blocks _salt _root < "/mnt/$1.verity" &&
        echo "1 $_data $_hash 4096 4096 $_blocks 1 sha256 $_root $_salt"
}
# The device node of dm device NAME (devtmpfs: no udev makes /dev/mapper links).
node_of() {
    for _d in /sys/block/dm-*; do
        [ "$(cat "$_d/dm/name")" != "$1" ] || { echo "/dev/${_d##*/}"; return; }
    done
}

# 6.1 has no hook that shows the kernel's verity tables, so device-mapper
# stays frozen after boot there; 6.12+ lets new devices be made.
frozen='[ "$MODE" = 1 ] && [ "$GUARDS" -gt 0 ] && [ "$VERITY_TRUST" != yes ]'
gated "$frozen" extra-verity-create allowed dm-attack create-verity vx-a "$(table_of extra-a)"
if eval "$frozen"; then
    exit 0
fi

mkdir -p /tmp/vx-a /tmp/vx-b
mount -o ro "$(node_of vx-a)" /tmp/vx-a || fail extra-verity-mount "mount of vx-a failed"
# The allow-listed image runs where the kernel tells verigate its hash.
gated '[ "$MODE" = 1 ] && ! { [ "$VERITY_TRUST" = yes ] && listed extra-a; }' \
    extra-verity-allow-listed "vg-hello: running" vg-try exec /tmp/vx-a/$hello

# A signed image. On EFI boots the test certificate is in the kernel's
# .platform keyring and dm-verity checks the signature as the table loads;
# verigate trusts such a device with rd.verigate.signed=1 (6.12+).
signed_image_tests() {
    SIGNED=$(cmdline_arg rd.verigate.signed)
    kernel_refuses extra-verity-forged-signature ENOKEY \
        dm-attack create-verity vx-f "$(table_of extra-s)" /mnt/extra-s.forged
    # Debian's 6.1 has no DM_VERITY_VERIFY_ROOTHASH_SIG_PLATFORM_KEYRING:
    # its dm-verity looks in the secondary keyring only.
    case $(uname -r) in
        6.1.*)
            kernel_refuses extra-verity-platform-key-unused ENOKEY \
                dm-attack create-verity vx-s "$(table_of extra-s)" /mnt/extra-s.sig
            echo "SKIP $MODE_NAME/extra-verity-signed: 6.1's dm-verity trusts no .platform key, so no signed device can be made"
            return ;;
    esac
    check extra-verity-create-signed allowed allowed \
        dm-attack create-verity vx-s "$(table_of extra-s)" /mnt/extra-s.sig
    check extra-verity-create-signed-weak allowed allowed \
        dm-attack create-verity vx-sw "$(table_of extra-s) 1 ignore_corruption" /mnt/extra-s.sig
    mkdir -p /tmp/vx-s /tmp/vx-sw
    mount -o ro "$(node_of vx-s)" /tmp/vx-s || fail extra-verity-mount "mount of vx-s failed"
    mount -o ro "$(node_of vx-sw)" /tmp/vx-sw || fail extra-verity-mount "mount of vx-sw failed"
    gated '[ "$MODE" = 1 ] && ! { [ "$VERITY_TRUST" = yes ] && [ "$SIGNED" = 1 ]; }' \
        extra-verity-signed "vg-hello: running" vg-try exec /tmp/vx-s/$hello
    attack extra-verity-signed-ignore-corruption "vg-hello: running" vg-try exec /tmp/vx-sw/$hello
    umount /tmp/vx-s /tmp/vx-sw
    dm-attack remove vx-s > /dev/null
    dm-attack remove vx-sw > /dev/null
}
if [ -d /sys/firmware/efi ] && [ -e /mnt/extra-s.sig ]; then
    signed_image_tests
fi

# An image whose hash is not on the list.
check extra-verity-create-unlisted allowed allowed dm-attack create-verity vx-b "$(table_of extra-b)"
mount -o ro "$(node_of vx-b)" /tmp/vx-b || fail extra-verity-mount "mount of vx-b failed"
attack extra-verity-unlisted "vg-hello: running" vg-try exec /tmp/vx-b/$hello

# The listed hash, with verity told to serve blocks that fail their check.
check extra-verity-create-weak allowed allowed dm-attack create-verity vx-w \
    "$(table_of extra-a) 1 ignore_corruption"
mkdir -p /tmp/vx-w
mount -o ro "$(node_of vx-w)" /tmp/vx-w || fail extra-verity-mount "mount of vx-w failed"
attack extra-verity-ignore-corruption "vg-hello: running" vg-try exec /tmp/vx-w/$hello

# The listed device weakened while live: its trust goes with the old table.
check extra-verity-retable-weak allowed allowed dm-attack retable vx-a same check_at_most_once
attack extra-verity-weakened-live "vg-hello: running" vg-try exec /tmp/vx-a/$hello

# A removed device leaves no trust behind for the next one made.
umount /tmp/vx-a /tmp/vx-w
dm-attack remove vx-a > /dev/null
dm-attack remove vx-w > /dev/null
check extra-verity-create-after-remove allowed allowed dm-attack create-verity vx-c "$(table_of extra-b)"
mkdir -p /tmp/vx-c
mount -o ro "$(node_of vx-c)" /tmp/vx-c || fail extra-verity-mount "mount of vx-c failed"
attack extra-verity-after-remove "vg-hello: running" vg-try exec /tmp/vx-c/$hello
umount /tmp/vx-b /tmp/vx-c

# The root, given a weaker table of its own hash: the DM guard refuses the
# load; where only the verity watch stands (--guards off, 6.12+) it refuses
# the table before it goes live. The old table is put back either way.
# Debian's 6.1 BUGs in dm_ima_measure_on_table_load (mm/slub.c:419) when the
# root's old table is loaded back, so there only the refused load is tried.
root_weakened_refused='[ "$MODE" = 1 ] && { [ "$GUARDS" -gt 0 ] || [ "$VERITY_TRUST" = yes ]; }'
case $(uname -r) in
    6.1.*) eval "$root_weakened_refused" ||
        { echo "SKIP $MODE_NAME/root-verity-weakened: would succeed here and then crash Debian 6.1 in dm_ima_measure_on_table_load"; exit 0; } ;;
esac
gated "$root_weakened_refused" root-verity-weakened allowed dm-attack retable-restore root ignore_corruption
