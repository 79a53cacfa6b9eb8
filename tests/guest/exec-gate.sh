# In-guest test: what may run. Programs from the verified image always run;
# code from anywhere else is refused when enforcing and runs otherwise.
. /mnt/lib.sh

hello=/usr/local/bin/vg-hello
ldso=/lib64/ld-linux-x86-64.so.2
cp "$hello" /tmp/hello
cp "$hello" /dev/shm/hello
printf '#!/bin/sh\necho script-ran\n' > /tmp/script.sh
chmod +x /tmp/hello /dev/shm/hello /tmp/script.sh

check image-static-busybox allowed busybox-ran sh -c 'busybox echo busybox-ran'
check image-dynamic-program allowed "vg-hello: running" "$hello"
check image-via-ldso allowed "vg-hello: running" "$ldso" "$hello"
check image-mmap-exec allowed allowed vg-try mmap-exec "$hello"
check image-mprotect-exec allowed allowed vg-try mprotect-exec "$hello"

attack exec-from-tmpfs "vg-hello: running" vg-try exec /tmp/hello
attack exec-from-dev-shm "vg-hello: running" vg-try exec /dev/shm/hello
attack exec-from-second-disk "vg-hello: running" vg-try exec /mnt/vg-hello
attack shebang-script-on-tmpfs script-ran vg-try exec /tmp/script.sh
attack ldso-maps-tmpfs-program "vg-hello: running" "$ldso" /tmp/hello
attack mmap-exec-tmpfs-file allowed vg-try mmap-exec /tmp/hello
attack mprotect-exec-tmpfs-file allowed vg-try mprotect-exec /tmp/hello
attack memfd-fexecve "vg-hello: running" vg-try memfd-exec "$hello"

anon_attack anon-mmap-exec allowed vg-try mmap-exec -
anon_attack anon-mprotect-exec allowed vg-try mprotect-exec -
anon_attack writable-exec-mapping-of-image-file allowed vg-try mmap-wx "$hello"
anon_attack written-image-page-made-exec allowed vg-try cow-mprotect "$hello"
