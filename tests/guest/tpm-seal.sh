# In-guest test: a secret sealed on the host (tests/lib/tpm-seal) to PCR 9
# as an enforcing boot of this image left it, with this boot's TPM. It
# unseals on an enforcing boot only. An audit or off boot measured itself
# first, so root's replay of the enforcing events after that (read from
# /mnt/enforcing-event, as an attacker would copy them from an enforcing
# boot's log) reaches another value and the secret stays sealed. The
# control: the same replay on PCR 16, which nothing measured first (a
# debug PCR root may reset), reaches the value and unseals the same secret
# sealed there.
. /mnt/lib.sh

export TPM2TOOLS_TCTI=device:/dev/tpmrm0
for f in secret seal9.pub seal9.priv seal16.pub seal16.priv enforcing-event; do
    if ! [ -s "/mnt/$f" ]; then
        fail tpm-seal-files "no /mnt/$f: the host did not seal (see tpm-seal.log)"
        exit 0
    fi
done
secret=$(cat /mnt/secret)
event=$(cat /mnt/enforcing-event)

# unseal PCR: the secret sealed to PCR's value, or tpm2's error.
unseal() {
    tpm2 createprimary -Q -C o -c /tmp/primary.ctx &&
        tpm2 load -Q -C /tmp/primary.ctx -u "/mnt/seal$1.pub" -r "/mnt/seal$1.priv" \
            -c "/tmp/seal$1.ctx" &&
        tpm2 unseal -c "/tmp/seal$1.ctx" -p "pcr:sha256:$1"
}
# extend PCR TEXT: in both banks, as the loader does.
extend() {
    tpm2 pcrextend "$1:sha256=$(printf %s "$2" | busybox sha256sum | cut -c 1-64),sha1=$(printf %s "$2" | busybox sha1sum | cut -c 1-40)"
}
refused() {
    case $2 in
        "$secret") fail "$1" "unsealed on a $MODE_NAME boot" ;;
        # TPM_RC_POLICY_FAIL of the first session: the PCR is not the sealed value.
        *"ErrorCode (0x0000099d)"*) pass "$1" "the TPM refused: policy check failed (0x99d)" ;;
        *) fail "$1" "expected the TPM's policy refusal, got: $2" ;;
    esac
}

out=$(unseal 9 2>&1)
if [ "$MODE_NAME" = enforce ]; then
    if [ "$out" = "$secret" ]; then
        pass tpm-unseal-enforcing "the secret sealed to the enforcing PCR 9 unseals"
    else
        fail tpm-unseal-enforcing "expected the secret, got: $out"
    fi
    exit 0
fi
refused "tpm-unseal-refused-$MODE_NAME" "$out"
# Root replays the enforcing boot's two events.
extend 9 "$event" && extend 9 "verigate separator"
refused "tpm-replay-refused-$MODE_NAME" "$(unseal 9 2>&1)"
# The control: the same replay where nothing was measured first.
tpm2 pcrreset 16 && extend 16 "$event" && extend 16 "verigate separator"
out=$(unseal 16 2>&1)
if [ "$out" = "$secret" ]; then
    pass "tpm-replay-control-pcr16-$MODE_NAME" "replayed on PCR 16, the enforcing events unseal the secret sealed there"
else
    fail "tpm-replay-control-pcr16-$MODE_NAME" "expected the replay on PCR 16 to unseal, got: $out"
fi
