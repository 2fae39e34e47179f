#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for a bounded time on the
# committed corpus (CI-friendly: exits non-zero on a crash, leak or timeout).
#
# Usage: Fuzz/run.sh [seconds per target (default 60)] [extra libFuzzer flags...]
# Targets: FuzzImport (Corpus/import), FuzzRecord (Corpus/record), FuzzCLI (Corpus/cli),
#   FuzzKeyImport (Corpus/keys), FuzzAgent (Corpus/agent), FuzzReferences (Corpus/references),
#   FuzzOTP (Corpus/otp), FuzzGitCredential (Corpus/gitcredential),
#   FuzzSecretService (Corpus/secretservice, Linux: it links SesameLinux),
#   FuzzCTAPHID (Corpus/ctaphid), FuzzCTAP2 (Corpus/ctap2); pick with
#   TARGETS="FuzzImport:import" Fuzz/run.sh 60
# A crash leaves <Target>-crash-<sha1> in Fuzz/artifacts/; reproduce it with
#   Fuzz/.build/release/<Target> Fuzz/artifacts/<Target>-crash-<sha1>
# and, once fixed, commit it to Fuzz/Regressions/<corpus>/ (replayed first on every run).
set -euo pipefail
seconds=${1:-60}
shift || true
cd "$(dirname "$0")"
targets=(${TARGETS:-FuzzImport:import FuzzRecord:record FuzzCLI:cli FuzzKeyImport:keys FuzzAgent:agent FuzzReferences:references FuzzOTP:otp FuzzGitCredential:gitcredential FuzzSecretService:secretservice FuzzCTAPHID:ctaphid FuzzCTAP2:ctap2})
# Release, as users run it: a debug build also compiles ArgumentParser's
# DEBUG-only self-check of the command tree, which re-validates nested option
# groups on every parse. FuzzCLI then spent ~10 s on one completion-script
# request (over libFuzzer's -timeout on a slower machine) and ran ~1 input/s;
# in release the same input takes ~1 s. Sanitizers work the same at -O.
for entry in "${targets[@]}"; do
    swift build --package-path . --scratch-path .build -c release --product "${entry%%:*}" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >&2
done
for entry in "${targets[@]}"; do
    target=${entry%%:*} corpus=${entry##*:}
    bin=.build/release/$target
    mkdir -p artifacts "Regressions/$corpus"
    # Regressions first: every input that ever crashed must now pass.
    if compgen -G "Regressions/$corpus/*" >/dev/null; then
        "$bin" -runs=0 "Regressions/$corpus"/*
    fi
    # New inputs go to a scratch directory, so the committed corpus changes only
    # on purpose (merge with: $bin -merge=1 Corpus/$corpus <scratch>).
    scratch=$(mktemp -d)
    echo "== $target: ${seconds}s on Corpus/$corpus" >&2
    "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -artifact_prefix="artifacts/$target-" "$@" "$scratch" "Corpus/$corpus"
    rm -rf "$scratch"
done
