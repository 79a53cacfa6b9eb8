# In-guest test: files seen through overlayfs, the lower layer being the
# verified root's /usr/local/bin. Where the kernel has bpf_real_data_inode
# (7.2: the status view says "overlay data-layer") a file is judged by the
# layer that holds its data: a program of the verified root runs through
# the overlay, also through an overlay of an overlay, and after a copy-up
# of its metadata alone (metacopy=on); a file written to the upper layer
# (tmpfs), or copied up to it by an open for writing, chmod or touch, is
# refused. Elsewhere ("overlay refused") every exec or PROT_EXEC mapping
# through an overlay is refused. An mprotect to PROT_EXEC of an overlay
# mapping is judged by the data layer on every kernel: the mapping holds
# the layer's file. The controls (audit, off) run it all.
. /mnt/lib.sh

hello=vg-hello
lower=/usr/local/bin
layers=$(sed -n 's/^overlay //p' /sys/fs/bpf/verigate/status 2> /dev/null)
[ "$MODE_NAME" = off ] && layers="(no gate)"
kernel-attack finit-module $lower/overlay.ko > /dev/null 2>&1
has_exec_check=0
vg-script check $lower/$hello > /dev/null 2>&1 && has_exec_check=1

# overlay NAME LOWER [OPTIONS]: a fresh overlay at /tmp/ov-NAME/m, its
# upper layer on tmpfs.
overlay() {
    d=/tmp/ov-$1
    mkdir -p $d/upper $d/work $d/m
    mount -t overlay -o "lowerdir=$2,upperdir=$d/upper,workdir=$d/work${3:+,$3}" overlay $d/m ||
        fail "overlay-$1" "mount -t overlay -o lowerdir=$2${3:+,$3} failed"
}

# A file of the verified root seen through an overlay: runs where the
# data layer decides, refused where the overlay does.
lower_file() {
    gated '[ "$MODE" = 1 ] && [ "$layers" = refused ]' "$@"
}

# through NAME DIR FILE: exec, PROT_EXEC mapping, mprotect and (6.14+)
# AT_EXECVE_CHECK of DIR/FILE, a file of the verified root.
through() {
    lower_file "$1-exec" "vg-hello: running" vg-try exec "$2/$3"
    lower_file "$1-mmap-exec" allowed vg-try mmap-exec "$2/$3"
    check "$1-mprotect-exec" allowed allowed vg-try mprotect-exec "$2/$3"
    [ "$has_exec_check" = 0 ] || lower_file "$1-exec-check" allowed vg-script check "$2/$3"
}

# refused NAME PATH: a file whose data is on tmpfs, refused every way.
refused() {
    attack "$1-exec" "vg-hello: running" vg-try exec "$2"
    attack "$1-mmap-exec" allowed vg-try mmap-exec "$2"
    attack "$1-mprotect-exec" allowed vg-try mprotect-exec "$2"
    [ "$has_exec_check" = 0 ] || attack "$1-exec-check" allowed vg-script check "$2"
}

# Whether PATH's upper copy holds no data blocks (a metadata-only copy-up).
no_data_blocks() { [ "$(stat -c %b "$1")" = 0 ]; }

pass overlay-mode "the status view says: overlay $layers"

overlay plain $lower
through overlay-lower-file /tmp/ov-plain/m $hello
cp $lower/$hello /tmp/ov-plain/m/upper-hello
refused overlay-upper-file /tmp/ov-plain/m/upper-hello

# Copy-up of a lower file: all of it, data included (metacopy is off).
for how in open-write chmod touch; do
    overlay "copy-up-$how" $lower
    f=/tmp/ov-copy-up-$how/m/$hello
    case $how in
        open-write) sh -c ": >> $f" ;;
        chmod) chmod 0755 "$f" ;;
        touch) touch "$f" ;;
    esac
    if [ -f "/tmp/ov-copy-up-$how/upper/$hello" ]; then
        refused "overlay-copied-up-by-$how" "$f"
    else
        fail "overlay-copied-up-by-$how" "no copy in the upper layer after $how"
    fi
done

# metacopy=on: chmod copies up the metadata only; the data stays on the
# verified root, and counts as it (the mode, owner and setuid bits come
# from the upper layer: docs/threat-model.md). A write then copies the data.
overlay metacopy $lower "metacopy=on,redirect_dir=on"
f=/tmp/ov-metacopy/m/$hello
chmod 0750 "$f"
if [ -f /tmp/ov-metacopy/upper/$hello ] && no_data_blocks /tmp/ov-metacopy/upper/$hello; then
    through overlay-metacopy-chmod /tmp/ov-metacopy/m $hello
    sh -c ": >> $f"
    if no_data_blocks /tmp/ov-metacopy/upper/$hello && [ "$(stat -c %s "$f")" != 0 ]; then
        fail overlay-metacopy-write "an open for writing left the data on the lower layer"
    else
        refused overlay-metacopy-written "$f"
    fi
else
    fail overlay-metacopy "chmod did not make a metadata-only copy in the upper layer"
fi

# An overlay of an overlay: the data layer is found through both.
overlay outer /tmp/ov-plain/m
through overlay-nested-lower-file /tmp/ov-outer/m $hello
refused overlay-nested-inner-upper-file /tmp/ov-outer/m/upper-hello
cp $lower/$hello /tmp/ov-outer/m/outer-hello
refused overlay-nested-outer-upper-file /tmp/ov-outer/m/outer-hello

# A lower layer that is not verified: its files are refused too.
mkdir -p /tmp/tmpfs-lower
cp $lower/$hello /tmp/tmpfs-lower/
overlay tmpfs-lower /tmp/tmpfs-lower
refused overlay-unverified-lower-file /tmp/ov-tmpfs-lower/m/$hello

for d in /tmp/ov-outer /tmp/ov-plain /tmp/ov-copy-up-open-write /tmp/ov-copy-up-chmod \
    /tmp/ov-copy-up-touch /tmp/ov-metacopy /tmp/ov-tmpfs-lower; do
    umount $d/m 2> /dev/null
done
