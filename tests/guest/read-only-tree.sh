# In-guest test: the verified tree cannot be written while it runs. dm-verity
# tables are read-only, so the kernel itself refuses a read-write remount
# and writes to the device, with and without verigate (the off boots show
# that it is not verigate's doing; nothing of verigate needs to stop them).
. /mnt/lib.sh

if [ "$TREE_OPTION" = usrhash ]; then
    dir=/usr dev=/dev/mapper/usr
else
    dir=/ dev=/dev/mapper/root
fi

# refused NAME CMD...: CMD must fail, on every boot, with the errno the
# kernel gives for a read-only device.
refused() {
    _name=$1
    shift
    _out=$("$@" 2>&1)
    case $_out in
        "denied errno="*) pass "$_name" "the kernel refused it: $_out" ;;
        *) fail "$_name" "expected a refusal, got: $_out" ;;
    esac
}

refused verified-tree-remount-rw write-attack remount-rw "$dir"
refused verified-device-write write-attack write-dev "$dev"
if [ "$(stat -f -c %T "$dir" 2> /dev/null)" = ext2/ext3 ] &&
    grep -qE "^[^ ]+ $dir [^ ]+ ro[, ]" /proc/mounts; then
    pass verified-tree-still-read-only "$dir is mounted read-only"
else
    fail verified-tree-still-read-only "$(grep -E "^[^ ]+ $dir " /proc/mounts)"
fi
