# In-guest test: verigatectl check proves that the gate refuses, by trying
# what it must refuse (exec, an AT_EXECVE_CHECK question and an executable
# mapping of a memfd copy of itself, an fd for the exec gate's link by ID) and
# finding each refusal counted. The controls: built without guards the guard
# probe gets its fd (exit 5, while the others are still refused); audit lets
# all of them through and counts them (exit 3); off has nothing to check
# (exit 4). Kernels without AT_EXECVE_CHECK (before 6.14) say that probe was
# not made, and the verdict stands on the other three.
. /mnt/lib.sh

out=$(verigatectl check 2>&1)
rc=$?

if [ "$MODE_NAME" = off ]; then
    case "$rc|$out" in
        "4|verigatectl: verigate is not loaded"*) pass ctl-check-not-loaded "exit 4: $out" ;;
        *) fail ctl-check-not-loaded "expected exit 4, got $rc: $out" ;;
    esac
    exit 0
fi

# probe_is NAME ERE: the check's line for probe NAME is "NAME: " and then
# what the extended regular expression ERE matches, to the end.
probe_is() {
    _line=$(printf '%s\n' "$out" | grep "^$1: ")
    if printf '%s\n' "$_line" | grep -qE "^$1: $2\$"; then
        pass "ctl-check-$1" "$_line"
    else
        fail "ctl-check-$1" "expected '$1: $2', got: '$_line'"
    fi
}

refused_counted() { probe_is "$1" "refused \(EPERM\), count $1 deny \+[1-9][0-9]*"; }
audited() { probe_is "$1" "not refused \(audit mode\): $2, count $1 audit \+[1-9][0-9]*"; }
ran="the memfd copy ran"
may_run="execveat\(AT_EXECVE_CHECK\) said the memfd copy may run"
# exec_check_is MODE: the AT_EXECVE_CHECK probe's line, where this kernel
# has the flag (the loader says execve_check=yes), as MODE wants it.
exec_check_is() {
    if [ "$(loader_field execve_check)" != yes ]; then
        probe_is exec_check "not probed: this kernel has no AT_EXECVE_CHECK \(6\.14\+\)"
    elif [ "$1" = enforce ]; then
        refused_counted exec_check
    else
        audited exec_check "$may_run"
    fi
}
mapped="the memfd copy was mapped executable"
got_fd="BPF_LINK_GET_FD_BY_ID of the exec gate's link \(ID [0-9]+\) gave an fd"

if [ "$MODE" = 1 ] && [ "$GUARDS" -gt 0 ]; then
    want_rc=0 word=passed summary="verigate: check passed"
    refused_counted exec
    exec_check_is enforce
    refused_counted mmap
    refused_counted guard
elif [ "$MODE" = 1 ]; then
    want_rc=5 word=failed summary="verigate: check FAILED: guard"
    refused_counted exec
    exec_check_is enforce
    refused_counted mmap
    probe_is guard "NOT refused: $got_fd, count guard deny \+0"
elif [ "$GUARDS" -gt 0 ]; then
    want_rc=3 word=audit summary="verigate: audit mode: the gate is live but refuses nothing"
    audited exec "$ran"
    exec_check_is audit
    audited mmap "$mapped"
    audited guard "$got_fd"
else
    # Audit without guards: nothing sees the guard probe, so nothing counts it.
    want_rc=5 word=failed summary="verigate: check FAILED: guard"
    audited exec "$ran"
    exec_check_is audit
    audited mmap "$mapped"
    probe_is guard "not refused \(audit mode\): $got_fd, count guard audit \+0: not counted, so verigate did not see it"
fi

last=$(printf '%s\n' "$out" | tail -n 1)
if [ "$rc" = "$want_rc" ] && [ "$last" = "$summary" ] && [ "$(printf '%s\n' "$out" | wc -l)" = 5 ]; then
    pass ctl-check-exit "exit $rc: $last"
else
    fail ctl-check-exit "expected exit $want_rc and '$summary', got $rc: $(printf '%s\n' "$out" | tr '\n' '|')"
fi

want_mode=enforce
[ "$MODE" = audit ] && want_mode=audit
json=$(verigatectl check --json 2>&1)
json_rc=$?
case "$json_rc|$json" in
    "$want_rc|{\"mode\":\"$want_mode\",\"result\":\"$word\",\"exit\":$want_rc,\"summary\":\"$summary\",\"probes\":[{\"probe\":\"exec\","*"{\"probe\":\"exec_check\","*"{\"probe\":\"mmap\","*"{\"probe\":\"guard\","*"}]}")
        pass ctl-check-json "exit $json_rc: $(printf '%s\n' "$json" | cut -c 1-160)..." ;;
    *) fail ctl-check-json "expected exit $want_rc, mode $want_mode, result $word, got $json_rc: $json" ;;
esac
