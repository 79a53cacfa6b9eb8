# In-guest test (systemd image): system extensions merged over /usr by the
# guest's own systemd-sysext. The images come from build-verity-extras on
# the script disk (/mnt), each carrying usr/bin/vg-ext-NAME:
#   extra-a  with its verity sidecars (.verity, .roothash): systemd-sysext
#            sets up dm-verity itself; its root hash is on
#            rd.verigate.allow= on the boots that trust it
#   extra-b  with its verity sidecars, on no allow-list
#   extra-s  with its sidecars and the root hash's signature (.roothash.p7s)
#            on the boots with rd.verigate.signed=1 (EFI: the kernel checks
#            it with the test key in .platform)
#   extra-u  as a plain raw image, no verity: mounted unverified
#   vgplain  a directory on tmpfs
# Where overlay files are judged by their data layer (status "overlay
# data-layer", 7.2), after the merge the base /usr keeps running, the
# program of the listed image runs, and the others are refused; the status
# view lists each verity device with its root hash, trusted or not. Where
# every overlay file is refused (6.1, 6.12) the merged /usr is refused
# too, base programs included: that is tested and documented, not hidden.
# After the unmerge /usr is the verified tree again. The controls (audit)
# run everything.
. /mnt/lib.sh

SIGNED=$(cmdline_arg rd.verigate.signed)
layers=$(sed -n 's/^overlay //p' /sys/fs/bpf/verigate/status 2> /dev/null)
status_view=/sys/fs/bpf/verigate/status
kernel-attack finit-module /usr/local/bin/loop.ko > /dev/null 2>&1
kernel-attack finit-module /usr/local/bin/overlay.ko > /dev/null 2>&1

mkdir -p /run/extensions
verity_images="extra-a extra-b"
[ "$SIGNED" != 1 ] || verity_images="$verity_images extra-s"
for name in $verity_images; do
    cp "/mnt/$name.data" "/run/extensions/$name.raw"
    cp "/mnt/$name.hash" "/run/extensions/$name.verity"
    root_of "$name" | tr -d '\n' > "/run/extensions/$name.roothash"
done
[ "$SIGNED" != 1 ] || cp /mnt/extra-s.sig /run/extensions/extra-s.roothash.p7s
cp /mnt/extra-u.data /run/extensions/extra-u.raw
mkdir -p /run/extensions/vgplain/usr/bin /run/extensions/vgplain/usr/lib/extension-release.d
cp /usr/local/bin/vg-hello /run/extensions/vgplain/usr/bin/vg-ext-vgplain
chmod +x /run/extensions/vgplain/usr/bin/vg-ext-vgplain
printf 'ID=debian\nVERSION_ID=12\n' > /run/extensions/vgplain/usr/lib/extension-release.d/extension-release.vgplain

out=$(systemd-sysext merge 2>&1)
if grep -q ' /usr .* - overlay sysext ' /proc/self/mountinfo; then
    pass sysext-merged "systemd-sysext merge: $(echo "$out" | tail -n 1)"
else
    fail sysext-merged "no sysext overlay on /usr after systemd-sysext merge: $out"
    exit 0
fi

# The base /usr through the overlay: its programs come from the verified
# tree, so they run where the data layer decides.
base_refused='[ "$MODE" = 1 ] && [ "$layers" = refused ]'
gated "$base_refused" sysext-base-usr-program "vg-hello: running" vg-try exec /usr/local/bin/vg-hello
gated "$base_refused" sysext-base-usr-true "true ran" sh -c '/usr/bin/true && echo "true ran"'
if [ "$layers" = refused ]; then
    attack sysext-listed-verity-program "vg-hello: running" vg-try exec /usr/bin/vg-ext-extra-a
else
    gated '[ "$MODE" = 1 ] && ! listed extra-a' sysext-listed-verity-program "vg-hello: running" \
        vg-try exec /usr/bin/vg-ext-extra-a
fi
attack sysext-unlisted-verity-program "vg-hello: running" vg-try exec /usr/bin/vg-ext-extra-b
if [ "$SIGNED" = 1 ]; then
    gated "$base_refused" sysext-signed-verity-program "vg-hello: running" vg-try exec /usr/bin/vg-ext-extra-s
fi
attack sysext-unverified-raw-image-program "vg-hello: running" vg-try exec /usr/bin/vg-ext-extra-u
attack sysext-directory-program "vg-hello: running" vg-try exec /usr/bin/vg-ext-vgplain

# The status view names both verity devices systemd-sysext set up, with
# their root hashes, and whether verigate trusts them.
device_line() { grep "^verity_device .* roothash=$(root_of "$1")\$" $status_view; }
if listed extra-a; then want_a=trusted; else want_a=untrusted; fi
signed_ok=1
[ "$SIGNED" != 1 ] || device_line extra-s | grep -q " trusted .*signed=yes " || signed_ok=0
if device_line extra-a | grep -q " $want_a " && device_line extra-b | grep -q " untrusted " &&
    [ "$signed_ok" = 1 ]; then
    pass sysext-status-devices "$(device_line extra-a); $(device_line extra-b)${SIGNED:+; $(device_line extra-s)}"
else
    fail sysext-status-devices "want extra-a $want_a, extra-b untrusted${SIGNED:+, extra-s trusted and signed}, with their root hashes: $(grep '^verity_device' $status_view | tr '\n' ' ')"
fi

out=$(systemd-sysext unmerge 2>&1)
if ! grep -q ' /usr .* - overlay ' /proc/self/mountinfo && ! [ -e /usr/bin/vg-ext-extra-a ]; then
    pass sysext-unmerged "systemd-sysext unmerge: $(echo "$out" | tail -n 1)"
else
    fail sysext-unmerged "/usr is still an overlay after systemd-sysext unmerge: $out"
fi
check sysext-base-usr-after-unmerge allowed "vg-hello: running" vg-try exec /usr/local/bin/vg-hello
rm -rf /run/extensions
