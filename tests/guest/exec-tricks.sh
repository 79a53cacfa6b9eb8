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

# A per-process mode that makes every readable mapping executable
# (personality READ_IMPLIES_EXEC): the kernel adds PROT_EXEC before it asks
# the LSMs, so the gate sees an executable mapping of a tmpfs file. The
# control also shows the mapping became executable.
attack read-implies-exec-mmap allowed vg-try read-implies-exec /tmp/hello
attack read-implies-exec-mprotect allowed vg-try read-implies-exec-mprotect /tmp/hello
check image-read-implies-exec allowed allowed vg-try read-implies-exec "$hello"

# binfmt_misc: the kernel itself runs an interpreter for a file it matches,
# and each program it runs is checked as an exec. Three ways in: a trusted
# file (vg-test.fw, on the image) handed to a tmpfs interpreter opened at
# exec time, or at registration (flag F, opened before the exec is asked
# for); and a tmpfs file handed to a trusted interpreter (flag O, which
# gives it the file's fd).
kernel-attack finit-module /usr/local/bin/binfmt_misc.ko > /dev/null 2>&1
binfmt=/proc/sys/fs/binfmt_misc
[ -e $binfmt/register ] || mount -t binfmt_misc binfmt_misc $binfmt 2> /dev/null
cp "$hello" /tmp/interp
chmod +x /tmp/interp
cp "$hello" /tmp/data.vgx
chmod +x /tmp/data.vgx
# binfmt_rule NAME RULE: register RULE (":NAME:E::EXT::INTERP:FLAGS") anew.
binfmt_rule() {
    [ ! -e "$binfmt/$1" ] || echo -1 > "$binfmt/$1"
    echo "$2" > $binfmt/register
}
if [ -e $binfmt/register ]; then
    binfmt_rule vgtest ":vgtest:E::fw::/tmp/interp:"
    attack binfmt-misc-tmpfs-interpreter "vg-hello: running" vg-try exec /usr/local/bin/vg-test.fw
    binfmt_rule vgtest ":vgtest:E::fw::/tmp/interp:F"
    attack binfmt-misc-tmpfs-interpreter-opened-at-registration "vg-hello: running" vg-try exec /usr/local/bin/vg-test.fw
    echo -1 > $binfmt/vgtest
    binfmt_rule vgdata ":vgdata:E::vgx::$hello:O"
    attack binfmt-misc-tmpfs-file-to-trusted-interpreter "vg-hello: running" vg-try exec /tmp/data.vgx
    # The rule works for a file of the image: the trusted interpreter runs.
    binfmt_rule vgtest ":vgtest:E::fw::$hello:F"
    check binfmt-misc-trusted-interpreter allowed "vg-hello: running" vg-try exec /usr/local/bin/vg-test.fw
    echo -1 > $binfmt/vgtest
    echo -1 > $binfmt/vgdata
else
    fail binfmt-misc-tmpfs-interpreter "no $binfmt/register: binfmt_misc neither loaded nor mounted"
fi

# The kernel runs programs of root's choosing itself (usermode helpers):
# modprobe for a module it wants, the core_pattern pipe for a crash, a
# cgroup v1 release agent. Each is pointed at a script on tmpfs (its own
# file, so its own inode) and set off. The controls run it: it leaves a
# mark. Enforcing, the kernel's exec of it is refused, which the denials
# view records with the script's inode: so the helper was asked for.
denials=/sys/fs/bpf/verigate/denials
# helper_refusal: the denials view's last record of a refused exec of the
# script whose inode is $_ino, or nothing.
helper_refusal() {
    grep " verdict=deny hook=exec dev=[0-9:]* ino=$_ino " $denials 2> /dev/null | tail -n 1
}
# helper_run NAME SETUP TRIGGER RESTORE: SETUP points the kernel at the
# script /tmp/helper-NAME, TRIGGER sets it off, RESTORE puts things back.
helper_run() {
    _h=/tmp/helper-$1 _mark=/tmp/helper-$1.ran
    printf '#!/bin/sh\necho ran > %s\n' "$_mark" > "$_h"
    chmod +x "$_h"
    _ino=$(stat -c %i "$_h")
    rm -f "$_mark"
    if ! eval "$2" 2> /dev/null; then
        fail "kernel-helper-$1" "could not point the kernel at $_h: $2"
        return
    fi
    eval "$3" > /dev/null 2>&1
    # Done when it ran, or enforcing when its exec was refused (the helper
    # runs from a kernel worker, after the trigger returns).
    _i=0
    while [ ! -e "$_mark" ] && ! { [ "$MODE" = 1 ] && [ -n "$(helper_refusal)" ]; } &&
        [ $_i -lt 10 ]; do
        sleep 1
        _i=$((_i + 1))
    done
    eval "$4" 2> /dev/null
    _rec=$(helper_refusal)
    if [ "$SURVEY" = 1 ]; then
        if [ -e "$_mark" ]; then
            echo "cell kernel-helper-$1: ran"
        elif [ -n "$_rec" ]; then
            echo "cell kernel-helper-$1: denied errno=EPERM (verigate's record of the helper's exec)"
        else
            echo "cell kernel-helper-$1: not run: it left no mark (a kernel worker's exec: no errno to see)"
        fi
    elif [ "$MODE" != 1 ]; then
        if [ -e "$_mark" ]; then pass "kernel-helper-$1" "ran"; else fail "kernel-helper-$1" "the kernel did not run $_h"; fi
    elif [ -e "$_mark" ]; then
        fail "kernel-helper-$1" "the kernel ran $_h"
    elif [ -n "$_rec" ]; then
        pass "kernel-helper-$1" "its exec refused: $_rec"
    else
        fail "kernel-helper-$1" "$_h did not run, and no refusal of its exec is recorded: not set off?"
    fi
}
modprobe_was=$(cat /proc/sys/kernel/modprobe)
helper_run modprobe 'echo /tmp/helper-modprobe > /proc/sys/kernel/modprobe' \
    'mkdir -p /tmp/nofs && mount -t vgnosuchfs none /tmp/nofs' \
    'echo "$modprobe_was" > /proc/sys/kernel/modprobe'
core_was=$(cat /proc/sys/kernel/core_pattern)
helper_run core-pattern "echo '|/tmp/helper-core-pattern' > /proc/sys/kernel/core_pattern" \
    'sh -c "ulimit -c unlimited; kill -SEGV \$\$"' \
    'echo "$core_was" > /proc/sys/kernel/core_pattern'
mkdir -p /tmp/cgv1
if mount -t cgroup -o none,name=vgtest cgroup /tmp/cgv1 2> /dev/null; then
    helper_run release-agent 'echo /tmp/helper-release-agent > /tmp/cgv1/release_agent && mkdir /tmp/cgv1/x && echo 1 > /tmp/cgv1/x/notify_on_release' \
        'sh -c "echo \$\$ > /tmp/cgv1/x/cgroup.procs"' \
        'rmdir /tmp/cgv1/x; umount /tmp/cgv1'
else
    skip kernel-helper-release-agent "this kernel mounts no cgroup v1 hierarchy"
fi
