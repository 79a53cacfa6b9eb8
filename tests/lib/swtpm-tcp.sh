# shellcheck shell=bash
# swtpm_tcp STATE RUNDIR: start a software TPM 2.0 (swtpm) on a free local
# TCP port, its state in STATE (absolute: swtpm --daemon leaves the working
# directory), its pid and log in RUNDIR; sets swtpm_port and swtpm_pid.
# Returns 1 when no port could be had.
swtpm_tcp() {
    local port
    swtpm_port="" swtpm_pid=""
    for port in $(shuf -i 20000-40000 -n 20); do
        if swtpm socket --tpm2 --tpmstate dir="$1" \
            --server type=tcp,port="$port",bindaddr=127.0.0.1 \
            --ctrl type=tcp,port=$((port + 1)),bindaddr=127.0.0.1 \
            --flags not-need-init,startup-clear --daemon --pid file="$2/pid" \
            --log file="$2/log" 2> /dev/null; then
            swtpm_port=$port
            swtpm_pid=$(cat "$2/pid")
            return 0
        fi
    done
    return 1
}
