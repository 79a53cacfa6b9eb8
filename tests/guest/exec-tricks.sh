# In-guest test: other doors to code from outside the image. The trusted
# root is only trusted as itself: bind mounts, loop mounts and fd tricks
# all show the kernel another superblock. (Overlays: overlay.sh.)
. /mnt/lib.sh

hello=/usr/local/bin/vg-hello
cp "$hello" /tmp/hello
cp "$hello" /tmp/deleted
chmod +x /tmp/hello /tmp/deleted
mkdir -p /tmp/bind
cp "$hello" /tmp/bind/hello
chmod +x /tmp/bind/hello

attack execveat-empty-path-on-o-path "vg-hello: running" vg-try execveat /tmp/hello
attack exec-proc-self-fd-of-deleted-file "vg-hello: running" vg-try exec-deleted /tmp/deleted

# A tmpfs directory bind-mounted over a directory of the verified root.
if mount --bind /tmp/bind /srv; then
    attack bind-mount-over-trusted-path "vg-hello: running" vg-try exec /srv/hello
    umount /srv
else
    fail bind-mount-over-trusted-path "mount --bind failed"
fi

# A filesystem image on tmpfs, loop-mounted.
kernel-attack finit-module /usr/local/bin/loop.ko > /dev/null 2>&1
dd if=/dev/zero of=/tmp/fs.img bs=1M count=4 2> /dev/null
mkdir -p /tmp/loop
dev=$(losetup -f)
if losetup "$dev" /tmp/fs.img && mke2fs -q "$dev" > /dev/null 2>&1 &&
    mount "$dev" /tmp/loop; then
    cp "$hello" /tmp/loop/hello
    chmod +x /tmp/loop/hello
    attack loop-mounted-image "vg-hello: running" vg-try exec /tmp/loop/hello
    umount /tmp/loop
else
    fail loop-mounted-image "could not make or loop-mount an ext2 image on $dev"
fi
losetup -d "$dev" 2> /dev/null
