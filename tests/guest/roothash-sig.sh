# The loader's line says whether the root hash carried a signature it
# checked: "roothash_sig=verified" exactly when the boot asked for one with
# rd.verigate.pubkey=, and "verity_sig=required" exactly when dm-verity
# checked one (dm_verity.require_signatures=1). The boots that fail closed
# on a bad signature are in tests/check.
. /mnt/lib.sh

want=none
[ -z "$(cmdline_arg rd.verigate.pubkey)" ] || want=verified
got=$(loader_field roothash_sig)
if [ "$got" = "$want" ]; then
    pass roothash-sig-reported "roothash_sig=$got"
else
    fail roothash-sig-reported "want roothash_sig=$want, the loader said '$got' ($LOADER_LINE)"
fi

want=no
[ "$(cmdline_arg dm_verity.require_signatures)" != 1 ] || want=required
got=$(loader_field verity_sig)
if [ "$got" = "$want" ]; then
    pass verity-sig-reported "verity_sig=$got"
else
    fail verity-sig-reported "want verity_sig=$want, the loader said '$got' ($LOADER_LINE)"
fi
