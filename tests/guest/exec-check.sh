# In-guest test: execveat(AT_EXECVE_CHECK) (kernels 6.14+), the question a
# script interpreter asks before it runs a script, gets the answer a real
# exec of the same file gets: EPERM off the verified root when enforcing,
# 0 on it; in audit mode 0, with the refusal logged and counted; with
# rd.verigate=0 whatever the kernel says without verigate. An interpreter
# that honours SECBIT_EXEC_RESTRICT_FILE (tests/progs/vg-script) then
# refuses the script. Where the kernel lacks the flag, the loader says so
# and attaches nothing for it.
. /mnt/lib.sh

printf 'print hello from a script\n' > /tmp/script.vg
chmod +x /tmp/script.vg
cp /usr/local/bin/vg-hello /tmp/hello
chmod +x /tmp/hello
trusted=/usr/local/bin/vg-hello
status_view=/sys/fs/bpf/verigate/status

probe=$(vg-script check $trusted 2>&1)
case $probe in
    *"errno=OTHER:EINVAL"*)
        # The kernel has no AT_EXECVE_CHECK (before 6.14).
        if [ "$MODE_NAME" = off ]; then
            pass exec-check-absent "the kernel has no AT_EXECVE_CHECK ($probe)"
        elif [ "$(loader_field execve_check)" = no ] &&
            grep -qx "execve_check no" $status_view &&
            ! grep -q verigate_exec_check $status_view; then
            pass exec-check-absent "the kernel refuses the flag ($probe); loader line execve_check=no, status execve_check no, verigate_exec_check not attached"
        else
            fail exec-check-absent "the kernel refuses the flag, but the loader line says execve_check=$(loader_field execve_check) and the status: $(grep -E 'execve_check|^programs' $status_view 2>&1 | tr '\n' ' ')"
        fi
        exit 0
        ;;
esac

if [ "$MODE_NAME" != off ]; then
    if [ "$(loader_field execve_check)" = yes ] && grep -qx "execve_check yes" $status_view &&
        grep -q verigate_exec_check $status_view; then
        pass exec-check-attached "loader line execve_check=yes; the status view lists verigate_exec_check"
    else
        fail exec-check-attached "the kernel has AT_EXECVE_CHECK, but the loader line says execve_check=$(loader_field execve_check) and the status: $(grep -E 'execve_check|^programs' $status_view 2>&1 | tr '\n' ' ')"
    fi
fi

# A file on the verified root may run, by either way of asking.
check exec-check-trusted-file allowed allowed vg-script check $trusted
check exec-check-trusted-file-real-exec allowed "vg-hello: running" vg-try exec $trusted

denied_before=$(status_count exec_check deny) audit_before=$(status_count exec_check audit)
# A fresh window of the log's rate limit (bpf/decide.h: 5 s), so that the
# suites before this one cannot have used it up.
[ "$MODE_NAME" = off ] || sleep 6
kmsg_mark exec-check
if [ "$MODE" = 1 ]; then
    # Off the verified root: the question and a real exec get EPERM alike,
    # for a script and for a program.
    check exec-check-tmpfs-script denied "" vg-script check /tmp/script.vg
    check exec-check-tmpfs-program denied "" vg-script check /tmp/hello
    check exec-check-tmpfs-program-real-exec denied "" vg-try exec /tmp/hello
    check exec-check-refusing-interpreter denied "" vg-script restrict /tmp/script.vg
    # Without the securebit the interpreter only asks: the answer binds
    # only interpreters that are told to obey it.
    check exec-check-interpreter-without-securebit allowed "hello from a script" vg-script run /tmp/script.vg
    # Four questions were refused: the interpreter without the bit asked too.
    denied_after=$(status_count exec_check deny)
    if [ "${denied_after:-0}" = $((${denied_before:-0} + 4)) ]; then
        pass exec-check-counted "count exec_check deny $denied_before -> $denied_after"
    else
        fail exec-check-counted "count exec_check deny $denied_before -> $denied_after, want 4 more"
    fi
else
    # The controls: audit and off let the same steps through.
    check exec-check-tmpfs-script allowed allowed vg-script check /tmp/script.vg
    check exec-check-tmpfs-program allowed allowed vg-script check /tmp/hello
    check exec-check-refusing-interpreter allowed "hello from a script" vg-script restrict /tmp/script.vg
fi
check exec-check-trusted-file-restricted allowed "vg-script: ran" vg-script restrict $trusted

# Which interpreters of the image honour SECBIT_EXEC_RESTRICT_FILE: none
# (docs/how-it-works.md). Each runs the tmpfs script that the kernel
# refuses; should one start to refuse it, this fails and the docs change.
if [ "$MODE" = 1 ]; then
    printf 'echo shell-ran\n' > /tmp/script.sh
    printf 'BEGIN { print "awk-ran" }\n' > /tmp/script.awk
    printf 'print "perl-ran\\n";\n' > /tmp/script.pl
    for run in "sh:/tmp/script.sh:shell-ran" "bash:/tmp/script.sh:shell-ran" \
        "dash:/tmp/script.sh:shell-ran" "awk:-f /tmp/script.awk:awk-ran" "perl:/tmp/script.pl:perl-ran"; do
        prog=${run%%:*} args=${run#*:}
        marker=${args#*:} args=${args%:*}
        command -v "$prog" > /dev/null || continue
        # shellcheck disable=SC2086
        check "exec-check-$prog-ignores-securebit" allowed "$marker" vg-script secure-exec "$prog" $args
    done
fi

[ "$MODE_NAME" = off ] && exit 0
# Each refusal (audit: each one let through) is logged as exec-check.
verdict=$([ "$MODE" = 1 ] && echo deny || echo audit)
line="verigate: $verdict exec-check dev=[0-9]*:[0-9]* ino=$(stat -c %i /tmp/script.vg) pid=[0-9]* comm=vg-script"
if since_mark exec-check | grep -q "$line"; then
    pass exec-check-logged "$(since_mark exec-check | grep -o "verigate: $verdict exec-check .*" | head -n 1)"
else
    fail exec-check-logged "no '$line' in the kernel log: $(since_mark exec-check | tail -n 3 | tr '\n' ' ')"
fi
if [ "$MODE_NAME" = audit ]; then
    audit_after=$(status_count exec_check audit)
    if [ "${audit_after:-0}" = $((${audit_before:-0} + 3)) ]; then
        pass exec-check-audit-counted "count exec_check audit $audit_before -> $audit_after"
    else
        fail exec-check-audit-counted "count exec_check audit $audit_before -> $audit_after, want 3 more"
    fi
fi
