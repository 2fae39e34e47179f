#!/usr/bin/env bash
# Crash test (issue 10): kill -9 a vault writer at random points, N times,
# and check after each kill that the vault opens and every item the writer
# acknowledged (printed) is present with its value.
#
# Usage: scripts/crash-test.sh [iterations (default 500)] [max-delay-ms (default 400)]
# Env:   SCRATCH_PATH   SwiftPM scratch path (default .build)
#        STRESS         an already built sesame-vault-stress (skips the build)
#        ROTATE         iterations per vault (default 25)
#        KEEP=1         keep the work directory (printed at the end)
#
# A vault is reused for ROTATE iterations, so later kills land on a vault
# with a longer history (a writer acknowledges several hundred items per
# 100 ms, so one vault grows to ~15,000 items), then checked in full and
# replaced by a fresh one. Each iteration: start `sesame-vault-stress <vault> i<n>
# 1000000`, sleep a random 0..max-delay ms (so some kills land while the
# writer is still opening the vault), SIGKILL it, then
# `sesame-vault-stress verify <vault> <its output>`. When a vault is
# retired, every item acknowledged into it is verified once more. Exits 1 on
# the first loss, 0 when all iterations pass.
set -euo pipefail

iterations=${1:-500}
max_delay_ms=${2:-400}
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=${SCRATCH_PATH:-$root/.build}

cd "$root"
if [[ -n ${STRESS:-} ]]; then
    stress=$STRESS
else
    swift build -c release --product sesame-vault-stress --scratch-path "$scratch" >&2
    stress=$(swift build -c release --product sesame-vault-stress --scratch-path "$scratch" --show-bin-path)/sesame-vault-stress
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sesame-crash.XXXXXX")
chmod 700 "$work"
rotate=${ROTATE:-25}
new_vault() {
    generation=$1
    vault=$work/vault-$generation/vault.sqlite
    acks=$work/acks-$generation
    mkdir -p "$acks"
    "$stress" create "$vault"
}
retire_vault() {
    if ! result=$("$stress" verify "$vault" "$acks"/*.log 2>&1); then
        echo "full check of $vault: LOSS" >&2
        echo "$result" >&2
        echo "work directory kept: $work" >&2
        exit 1
    fi
    echo "vault $generation retired: $result"
    [[ ${KEEP:-0} == 1 ]] || rm -rf "$(dirname "$vault")" "$acks"
}
new_vault 1

start=$(date +%s)
total_acked=0
zero_acks=0
for ((i = 1; i <= iterations; i++)); do
    if ((i > 1 && (i - 1) % rotate == 0)); then
        retire_vault
        new_vault $(((i - 1) / rotate + 1))
    fi
    log=$acks/$i.log
    "$stress" "$vault" "i$i" 1000000 >"$log" 2>"$work/writer.err" &
    pid=$!
    delay_ms=$((RANDOM % (max_delay_ms + 1)))
    sleep "$(printf '0.%03d' "$delay_ms")"
    kill -9 "$pid" 2>/dev/null || true
    status=0
    wait "$pid" 2>/dev/null || status=$?
    if [[ $status -ne 137 ]]; then
        echo "iteration $i: writer ended with status $status before the kill:" >&2
        cat "$work/writer.err" >&2
        echo "work directory kept: $work" >&2
        exit 1
    fi
    # Only complete lines count (verify ignores a cut-off last line).
    acked=$(grep -c '' "$log" || true)
    [[ $acked -eq 0 ]] && zero_acks=$((zero_acks + 1))
    total_acked=$((total_acked + acked))
    if ! result=$("$stress" verify "$vault" "$log" 2>&1); then
        echo "iteration $i (killed after ${delay_ms} ms, $acked acknowledged): LOSS" >&2
        echo "$result" >&2
        echo "work directory kept: $work" >&2
        exit 1
    fi
    if ((i % 50 == 0)); then
        echo "iteration $i/$iterations ok (last: killed after ${delay_ms} ms, $acked acknowledged; $result)"
    fi
done

retire_vault
end=$(date +%s)
echo "PASS: $iterations/$iterations kills, $total_acked acknowledged items all present" \
     "($zero_acks kills before the first acknowledgement), $((end - start)) s"
if [[ ${KEEP:-0} == 1 ]]; then echo "work directory: $work"; else rm -rf "$work"; fi
