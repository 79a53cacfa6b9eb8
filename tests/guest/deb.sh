# In-guest test: verigate installed from its Debian package (make deb,
# tests/run-in-guest --deb): the initramfs was built from the package's
# module and loader, and the package's files are in the verified image.
. /mnt/lib.sh

missing=""
for f in /usr/bin/verigatectl /usr/lib/verigate/verigate-loader \
    /usr/lib/dracut/modules.d/50verigate/module-setup.sh \
    /usr/lib/dracut/dracut.conf.d/50-verigate.conf \
    /usr/share/man/man7/verigate.7.gz /usr/share/man/man8/verigatectl.8.gz; do
    [ -e "$f" ] || missing="$missing $f"
done
if [ -z "$missing" ]; then
    pass deb-files-installed "verigatectl, loader, dracut module and snippet, man pages"
else
    fail deb-files-installed "missing:$missing"
fi
# The snippet changes nothing until edited: every line is a comment.
if ! grep -qv '^#' /usr/lib/dracut/dracut.conf.d/50-verigate.conf; then
    pass deb-dracut-snippet-off "only comments"
else
    fail deb-dracut-snippet-off "$(grep -v '^#' /usr/lib/dracut/dracut.conf.d/50-verigate.conf)"
fi
out=$(/usr/bin/verigatectl status 2>&1)
rc=$?
case "$rc|$out" in
    "0|verigate: enforcing"*) pass deb-verigatectl-status "exit 0: $(echo "$out" | head -n 1)" ;;
    *) fail deb-verigatectl-status "exit $rc: $(echo "$out" | head -n 3)" ;;
esac
