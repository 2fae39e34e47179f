#!/usr/bin/env bash
# Concurrency test (issue 10): P processes (default 4) run mixed reads,
# writes (add/update) and deletes on one vault at the same time, then the
# final vault is checked against every acknowledged operation (no lost
# update, no resurrected delete, nothing unacknowledged) and no process may
# have reported a lock ("database is locked", "stayed locked") or any other error.
#
# Usage: scripts/concurrency-test.sh [operations-per-process (default 2000)] [processes (default 4, max 8)] [rounds (default 1)]
# Env:   SCRATCH_PATH   SwiftPM scratch path (default .build)
#        STRESS         an already built sesame-vault-stress (skips the build)
#        SEED           base seed (default: random; printed, so a failure can be replayed)
#
# Each process `sesame-vault-stress mixed <vault> <id> <ops> <seed>` writes
# and deletes only its own 16 accounts, reads everyone's, and itself checks
# that a read of its own account returns exactly the last value it wrote
# (a lost update fails it at once). Afterwards `sesame-vault-stress verify
# --exact` replays all logs against the vault.
set -euo pipefail

operations=${1:-2000}
processes=${2:-4}
rounds=${3:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=${SCRATCH_PATH:-$root/.build}
seed=${SEED:-$((RANDOM * 32768 + RANDOM))}

cd "$root"
if [[ -n ${STRESS:-} ]]; then
    stress=$STRESS
else
    swift build -c release --product sesame-vault-stress --scratch-path "$scratch" >&2
    stress=$(swift build -c release --product sesame-vault-stress --scratch-path "$scratch" --show-bin-path)/sesame-vault-stress
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sesame-concurrency.XXXXXX")
chmod 700 "$work"
vault=$work/vault/vault.sqlite
"$stress" create "$vault"
echo "seed $seed, $processes processes x $operations operations x $rounds rounds, vault $vault"

start=$(date +%s)
failed=0
for ((round = 1; round <= rounds; round++)); do
    pids=()
    for ((p = 0; p < processes; p++)); do
        "$stress" mixed "$vault" "$p" "$operations" "$((seed + round * 100 + p))" \
            >>"$work/ops-$p.log" 2>"$work/err-$round-$p.log" &
        pids+=($!)
    done
    for p in "${!pids[@]}"; do
        if ! wait "${pids[$p]}"; then
            echo "round $round, process $p failed:" >&2
            cat "$work/err-$round-$p.log" >&2
            failed=1
        fi
    done
    if grep -qiE 'database is locked|stayed locked|SQLITE_BUSY' "$work"/err-$round-*.log; then
        echo "round $round: a process reported a lock:" >&2
        grep -iE 'database is locked|stayed locked|SQLITE_BUSY' "$work"/err-$round-*.log >&2
        failed=1
    fi
    [[ $failed -eq 0 ]] || { echo "work directory kept: $work" >&2; exit 1; }
done
end=$(date +%s)

acknowledged=$(cat "$work"/ops-*.log | wc -l)
puts=$(cat "$work"/ops-*.log | grep -c '^put ' || true)
dels=$(cat "$work"/ops-*.log | grep -c '^del ' || true)
if ! "$stress" verify --exact "$vault" "$work"/ops-*.log; then
    echo "work directory kept: $work" >&2
    exit 1
fi
echo "PASS: $processes processes x $operations operations x $rounds rounds in $((end - start)) s;" \
     "$acknowledged acknowledged writes ($puts put, $dels del), final state matches, no lock errors"
rm -rf "$work"
