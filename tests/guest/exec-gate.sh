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
# ld.so does not print errno; the trace line is written exactly when the
# mmap hook returns -EPERM.
ldso_out=$("$ldso" /tmp/hello 2>&1)
if [ "$MODE" = 1 ]; then
    case $ldso_out in
        *"failed to map segment"*)
            if grep -q 'verigate: deny mmap .*comm=ld-linux-x86-64' /sys/kernel/tracing/trace; then
                pass ldso-maps-tmpfs-program "mmap refused with EPERM"
            else
                fail ldso-maps-tmpfs-program "ld.so failed, but verigate logged no mmap denial"
            fi ;;
        *) fail ldso-maps-tmpfs-program "expected a refused mmap, got: $ldso_out" ;;
    esac
else
    check ldso-maps-tmpfs-program allowed "vg-hello: running" echo "$ldso_out"
fi
attack mmap-exec-tmpfs-file allowed vg-try mmap-exec /tmp/hello
attack mprotect-exec-tmpfs-file allowed vg-try mprotect-exec /tmp/hello
attack memfd-fexecve "vg-hello: running" vg-try memfd-exec "$hello"
# A System V shared memory segment is a file of the kernel's own, as a memfd
# is: code written into it is refused by either door, shmat with SHM_EXEC
# (mmap_file) or mprotect (file_mprotect); on the controls the code runs.
attack shm-exec allowed vg-try shm-exec
attack shm-mprotect-exec allowed vg-try shm-mprotect

anon_attack anon-mmap-exec allowed vg-try mmap-exec -
anon_attack anon-mprotect-exec allowed vg-try mprotect-exec -
anon_attack writable-exec-mapping-of-image-file allowed vg-try mmap-wx "$hello"
anon_attack written-image-page-made-exec allowed vg-try cow-mprotect "$hello"
# Made writable and executable before any write (no copied page yet), then
# filled with code and called: the code runs on the controls.
anon_attack image-mapping-made-wx allowed vg-try wx-mprotect "$hello"
# Code planted in read-only text by a tracer, with no mmap or mprotect.
anon_attack ptrace-poke-text allowed vg-inject ptrace-poke
anon_attack traceme-poke-text allowed vg-inject traceme-poke
# Kernels that force no write through /proc/self/mem (built with
# PROC_MEM_FORCE_PTRACE, as Debian's 7.2, or booted with
# proc_mem.force_override=never) refuse it themselves: EIO from pwrite,
# after the open succeeded. There the loader leaves file_open alone
# (proc_mem_write=not-forced); elsewhere verigate refuses the open.
out=$(vg-inject proc-self-mem 2>&1)
field=$(loader_field proc_mem_write)
case $MODE,$ANON,$field,$out in
    1,deny,refused,*) check proc-self-mem-write denied "" echo "$out" ;;
    *,"denied errno=OTHER:EIO (pwrite /proc/self/mem: "*)
        pass proc-self-mem-write "opened; the kernel itself refuses the forced write: $out" ;;
    1,deny,*) fail proc-self-mem-write "proc_mem_write=$field, yet not the kernel's EIO: $out" ;;
    *) check proc-self-mem-write allowed allowed echo "$out" ;;
esac
if [ "$MODE" = 1 ] && [ "$ANON" = deny ]; then
    case $field,$([ -e /sys/fs/bpf/verigate/verigate_mem_write ] && echo pinned) in
        refused,pinned | not-forced,)
            pass mem-write-program-where-needed "proc_mem_write=$field: verigate_mem_write on file_open $([ "$field" = refused ] && echo is || echo is not) attached" ;;
        *) fail mem-write-program-where-needed "proc_mem_write=$field, verigate_mem_write pin: $(ls /sys/fs/bpf/verigate/verigate_mem_write 2>&1)" ;;
    esac
fi
