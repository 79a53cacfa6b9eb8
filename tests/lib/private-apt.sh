# private-apt.sh (sourced): apt for a Debian suite other than the host's,
# for fetching packages into a cache without installing them.
#
#   private_apt_init SUITE CACHE
#       bookworm: the host's own apt (apt-get update if it knows nothing);
#       any other suite (trixie, sid, bookworm-backports): a private sources
#       list, lists dir, cache dir and empty status file under
#       CACHE/apt-SUITE, pointing at the archive URI of the host's apt
#       sources (tests/lib/host-archive-uri), so no host name is ever
#       written into the repository. Then apt-get update.
#       Sets APT_OPTS (the configuration) and FETCH_OPTS (for downloads).
#       Returns non-zero with a message on stderr.
#
# Packages are then only ever fetched with
#   apt-get "${APT_OPTS[@]}" "${FETCH_OPTS[@]}" download PKG...
# and unpacked with dpkg -x.

private_apt_init() {
    local suite=$1 cache=$2 keyring=/usr/share/keyrings/debian-archive-keyring.gpg uri aptdir
    # As root, apt fetches as the unprivileged _apt user, which usually
    # cannot reach a cache below $HOME (e.g. /root is 0700); apt would then
    # warn and fall back to root anyway. Downloads are still verified
    # against the archive keyring.
    FETCH_OPTS=()
    [ "$(id -u)" -ne 0 ] || FETCH_OPTS=(-o "APT::Sandbox::User=root")
    APT_OPTS=()
    if [ "$suite" = bookworm ]; then
        apt-cache show --no-all-versions linux-image-amd64 > /dev/null 2>&1 ||
            apt-get "${FETCH_OPTS[@]}" update >&2 ||
            { echo "private-apt: host apt-get update failed" >&2; return 1; }
        return 0
    fi
    uri=$("$(dirname "${BASH_SOURCE[0]}")/host-archive-uri") ||
        { echo "private-apt: no bookworm entry in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list" >&2
          return 1; }
    [ -r "$keyring" ] || { echo "private-apt: missing $keyring (install debian-archive-keyring)" >&2; return 1; }
    aptdir=$cache/apt-$suite
    mkdir -p -- "$aptdir/lists/partial" "$aptdir/cache/archives/partial"
    printf 'deb [signed-by=%s] %s %s main\n' "$keyring" "$uri" "$suite" > "$aptdir/sources.list"
    : > "$aptdir/status"
    APT_OPTS=(
        -o "Dir::Etc::SourceList=$aptdir/sources.list"
        -o "Dir::Etc::SourceParts=/dev/null"
        -o "Dir::Etc::Preferences=/dev/null"
        -o "Dir::Etc::PreferencesParts=/dev/null"
        -o "Dir::State::Lists=$aptdir/lists"
        -o "Dir::State::Status=$aptdir/status"
        -o "Dir::State::extended_states=$aptdir/extended_states"
        -o "Dir::Cache=$aptdir/cache"
        -o "APT::Default-Release="
        -o "Acquire::Languages=none"
    )
    echo "private-apt: archive $uri, suite $suite: updating package lists" >&2
    apt-get "${APT_OPTS[@]}" "${FETCH_OPTS[@]}" update >&2 ||
        { echo "private-apt: apt-get update failed for $uri $suite" >&2; return 1; }
}
