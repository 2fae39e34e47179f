#!/usr/bin/env bash
# Lints the hand-written man pages (mandoc and groff, no warning), then
# builds the DocC catalog of every library module (Sources/<Module>/<Module>.docc
# with the symbols' own documentation) and fails on any DocC warning, such as
# a symbol link that no longer resolves. Archives land in
# .build/plugins/Swift-DocC/outputs/.
#
# Links across modules are written as code spans (`Vault`), not symbol links:
# DocC resolves ``Symbol`` links only inside the module being built.
set -euo pipefail
cd "$(dirname "$0")/.."
# The man pages are written by hand: any warning of mandoc or groff (what man shows users) fails.
for page in docs/man/sesame.1 docs/man/git-credential-sesame.1; do
    warnings=$(mandoc -T lint -W warning "$page" 2>&1; groff -ww -mandoc -z "$page" 2>&1) || true
    if [ -n "$warnings" ]; then
        printf '%s\n' "$warnings" >&2
        echo "check-docs: $page has mdoc warnings" >&2
        exit 1
    fi
done
targets=()
for module in Sesame SesameLinux SesameSSH SesameSecretsInUse SesameSecretService SesamePasskeys SesameApple SesameTesting SesameLinuxTesting; do
    targets+=(--target "$module")
done
swift package generate-documentation "${targets[@]}" --warnings-as-errors
