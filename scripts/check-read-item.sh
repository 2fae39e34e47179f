#!/usr/bin/env bash
# Examples/read-item, a separate package on the library alone, against vaults
# that the `sesame` CLI made (issue 28): it must print what `sesame put`
# stored from a file-key vault and from a TPM-key vault (swtpm), and a copy of
# that TPM vault on another TPM must print nothing and exit non-zero. Without
# a terminal it must never prompt: a passcode-only vault fails at once with
# the library's message.
#
# Needs swtpm (CI's .ci/run installs it). Builds `sesame` and the example.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

swift build --product sesame >/dev/null
sesame="$(swift build --show-bin-path)/sesame"
swift build --package-path Examples/read-item >/dev/null
read_item="$(swift build --package-path Examples/read-item --show-bin-path)/read-item"

work=$(mktemp -d "${TMPDIR:-/tmp}/sesame-read-item-XXXXXX")
swtpm_pids=()
cleanup() {
    for pid in "${swtpm_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
for directory in home data state config cache run; do mkdir -m 700 "$work/$directory"; done
export HOME="$work/home" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config"
export XDG_CACHE_HOME="$work/cache" XDG_RUNTIME_DIR="$work/run" SESAME_REUSE_SCOPE="read-item-$$"
# No TPM unless a case names one: the file-key case must not find the host's.
export SESAME_TPM_TCTI="swtpm:host=127.0.0.1,port=1"

fail() { echo "check-read-item.sh: $*" >&2; exit 1; }

# Starts a swtpm with a state of its own and prints its TCTI; the ports are
# retried when another process took them first.
start_swtpm() {
    local state="$work/swtpm-$1" port pid tries
    mkdir -m 700 "$state"
    for tries in 1 2 3 4 5 6 7 8; do
        port=$((20000 + RANDOM % 20000 * 2))
        swtpm socket --tpm2 --server "type=tcp,port=$port,bindaddr=127.0.0.1" \
            --ctrl "type=tcp,port=$((port + 1)),bindaddr=127.0.0.1" --tpmstate "dir=$state" \
            --flags not-need-init,startup-clear --log "file=$state/swtpm.log" >/dev/null 2>&1 &
        pid=$!
        for _ in $(seq 100); do
            if ! kill -0 "$pid" 2>/dev/null; then break; fi
            if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
                swtpm_pids+=("$pid")
                TCTI="swtpm:host=127.0.0.1,port=$port"
                return 0
            fi
            sleep 0.1
        done
        kill "$pid" 2>/dev/null || true
    done
    fail "swtpm did not start: $(cat "$state/swtpm.log" 2>/dev/null)"
}

# make_vault DIR KIND: a vault made and filled by the CLI.
make_vault() {
    export SESAME_VAULT="$work/$1/vault.sqlite"
    printf 'the vault passcode' | "$sesame" init --device-key "$2" --scrypt-log2n 10 --passcode-fd 0 --no-interaction >/dev/null 2>&1 \
        || fail "sesame init --device-key $2 failed"
    printf 'value of %s' "$1" | "$sesame" put greeting --no-interaction || fail "sesame put failed ($1)"
}

expect_value() {
    local got
    got=$("$read_item" greeting </dev/null) || fail "read-item exited $? for $SESAME_VAULT"
    [ "$got" = "$1" ] || fail "read-item printed '$got', expected '$1'"
}

expect_refusal() {
    local out status=0
    out=$("$read_item" greeting </dev/null 2>"$work/stderr") || status=$?
    [ "$status" -ne 0 ] || fail "$1: read-item exited 0"
    [ -z "$out" ] || fail "$1: read-item printed '$out'"
    grep -q "$2" "$work/stderr" || fail "$1: read-item's message lacks '$2': $(cat "$work/stderr")"
    echo "check-read-item.sh: $1: exit $status, $(cat "$work/stderr")"
}

# A file key.
make_vault file-vault file
expect_value "value of file-vault"
echo "check-read-item.sh: file key: read-item printed the item sesame put"

# A key sealed to a TPM, and the passcode bound to it.
start_swtpm first; first=$TCTI
export SESAME_TPM_TCTI=$first
make_vault tpm-vault tpm
[ -f "$work/tpm-vault/device/device.tpm" ] && [ ! -e "$work/tpm-vault/device/device.key" ] || fail "the TPM vault has no sealed key"
expect_value "value of tpm-vault"
echo "check-read-item.sh: TPM key: read-item printed the item sesame put"

# The same vault directory copied to a machine with another TPM.
cp -a "$work/tpm-vault" "$work/copied-vault"
start_swtpm second
export SESAME_TPM_TCTI=$TCTI SESAME_VAULT="$work/copied-vault/vault.sqlite"
expect_refusal "TPM vault copied to another TPM" "passcode"

# A passcode-only vault, without a terminal: no prompt, the library's message.
export SESAME_TPM_TCTI=$first SESAME_VAULT="$work/passcode-vault/vault.sqlite"
printf 'the vault passcode' | "$sesame" init --passcode-only --scrypt-log2n 10 --passcode-fd 0 --no-interaction >/dev/null 2>&1 \
    || fail "sesame init --passcode-only failed"
expect_refusal "passcode-only vault, no terminal" "no terminal to ask on"

# A missing item.
export SESAME_VAULT="$work/file-vault/vault.sqlite"
out=$("$read_item" nothing-here </dev/null 2>"$work/stderr") && fail "read-item of a missing item exited 0"
grep -q "nothing-here\|not found\|No item" "$work/stderr" || fail "missing item: $(cat "$work/stderr")"
echo "check-read-item.sh: all cases passed"
