# Survey boots of tests/compare only: root against IPE itself, with the
# policy of ipe-boot.sh active. Each attack is undone before the next.
. /mnt/lib.sh

ipe=/sys/kernel/security/ipe
name=$(sed -n 's/^policy_name=\([^ ]*\).*/\1/p' /mnt/ipe-policy.txt)
cp /usr/local/bin/vg-hello /tmp/ipe-hello
chmod +x /tmp/ipe-hello
# write FILE TEXT-FILE: one write(2) of TEXT-FILE's bytes into FILE.
write() { cat "$2" > "$1" && echo allowed; }

# Switch IPE to permissive, then run a program from tmpfs.
echo 0 > /tmp/zero
check ipe-set-permissive allowed allowed write "$ipe/enforce" /tmp/zero
check ipe-permissive-exec-from-tmpfs allowed "vg-hello: running" vg-try exec /tmp/ipe-hello
echo 1 > "$ipe/enforce"

# A new policy that allows everything: unsigned, and signed with a key no
# keyring holds.
check ipe-unsigned-policy allowed allowed write "$ipe/new_policy" /mnt/ipe-permissive.txt
check ipe-forged-policy allowed allowed write "$ipe/new_policy" /mnt/ipe-permissive.forged.p7s

# Take the active policy away.
echo 1 > /tmp/one
check ipe-delete-active-policy allowed allowed write "$ipe/policies/$name/delete" /tmp/one
check ipe-still-enforcing-after-attacks allowed "vg-hello: running" vg-try exec /tmp/ipe-hello
