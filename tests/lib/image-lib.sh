# shellcheck shell=bash disable=SC2154
# Sourced by build-image and build-systemd-image: filling the image tree
# $root and sealing it into a dm-verity image.

# The shared libraries (and ld.so) a dynamically linked FILE needs; the
# image's own copy wins where it has one.
copy_libs() {
    local lib
    for lib in $(ldd "$1" 2> /dev/null | grep -o '/[^ ]*'); do
        [ -e "$root$lib" ] || install -D -m 0755 "$(readlink -f "$lib")" "$root$lib"
    done
}

# add_program FILE DIR: FILE into the image's DIR, with its libraries.
add_program() {
    install -D -m 0755 "$1" "$root$2/${1##*/}"
    copy_libs "$1"
}

# ima_sign_tree KEYDIR: an IMA signature (security.ima, evmctl, SHA-256)
# on every regular file of $root, by KEYDIR/key.pem (tests/lib/ima-test-key);
# mkfs.ext4 -d copies it into the image.
ima_sign_tree() {
    local f out
    while IFS= read -r -d '' f; do
        out=$(evmctl ima_sign --key "$1/key.pem" -a sha256 "$f" 2>&1) ||
            { echo "${0##*/}: evmctl could not sign $f: $out" >&2; exit 1; }
    done < <(find "$root" -type f -print0)
}

# seal_image OUTDIR SIZE_MB: OUTDIR/root.img (ext4, 4 KiB blocks) made from
# $root, OUTDIR/hash.img (its dm-verity hash tree) and OUTDIR/roothash.
seal_image() {
    mkdir -p "$1"
    truncate -s "$2M" "$1/root.img"
    mkfs.ext4 -q -F -b 4096 -L vgroot -d "$root" "$1/root.img" "$2M"
    veritysetup format "$1/root.img" "$1/hash.img" |
        sed -n 's/^Root hash:[[:space:]]*//p' > "$1/roothash"
    [ -s "$1/roothash" ] || { echo "${0##*/}: veritysetup format failed" >&2; exit 1; }
}

# seal_usr_image OUTDIR: the same tree split for a verity /usr on a writable
# root (a merged-/usr tree): OUTDIR/usr.img (ext4 of $root/usr),
# OUTDIR/usr-hash.img, OUTDIR/usrhash, and OUTDIR/rwroot.img (ext4, the rest
# of the tree with an empty /usr, for a writable root). Empties $root/usr.
seal_usr_image() {
    local usr_mb root_mb
    usr_mb=$(($(du -sm "$root/usr" | cut -f1) * 11 / 10 + 32))
    truncate -s "${usr_mb}M" "$1/usr.img"
    mkfs.ext4 -q -F -b 4096 -L vgusr -d "$root/usr" "$1/usr.img" "${usr_mb}M"
    veritysetup format "$1/usr.img" "$1/usr-hash.img" |
        sed -n 's/^Root hash:[[:space:]]*//p' > "$1/usrhash"
    [ -s "$1/usrhash" ] || { echo "${0##*/}: veritysetup format of /usr failed" >&2; exit 1; }
    rm -rf --one-file-system "${root:?}/usr"
    mkdir -m 0755 "$root/usr"
    root_mb=$(($(du -sm "$root" | cut -f1) + 64))
    truncate -s "${root_mb}M" "$1/rwroot.img"
    mkfs.ext4 -q -F -b 4096 -L vgrwroot -d "$root" "$1/rwroot.img" "${root_mb}M"
}

# The test runner both inits share (tests/lib/guest-run-test).
add_test_runner() {
    install -D -m 0755 "$here/guest-run-test" "$root/usr/local/lib/verigate-test/run-test"
}
