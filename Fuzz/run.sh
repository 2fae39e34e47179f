#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for a bounded time on the
# committed corpus (CI-friendly: exits non-zero on a crash, leak or timeout).
#
# Usage: Fuzz/run.sh [seconds per target (default 60)] [extra libFuzzer flags...]
# A crash leaves crash-<sha1> in Fuzz/artifacts/; reproduce it with
#   Fuzz/.build/debug/FuzzImport Fuzz/artifacts/crash-<sha1>
# and commit it to Fuzz/Regressions/import/ (replayed by this script on every run).
set -euo pipefail
seconds=${1:-60}
shift || true
cd "$(dirname "$0")"
swift build --package-path . --scratch-path .build -c debug --product FuzzImport \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >&2
bin=.build/debug/FuzzImport
mkdir -p artifacts Regressions/import
# Regressions first: every input that ever crashed must now pass.
if compgen -G "Regressions/import/*" >/dev/null; then
    "$bin" -runs=0 Regressions/import/*
fi
# New inputs go to a scratch copy, so the committed corpus only changes on purpose
# (merge them with: .build/debug/FuzzImport -merge=1 Corpus/import <scratch>).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -artifact_prefix=artifacts/ "$@" "$scratch" Corpus/import
