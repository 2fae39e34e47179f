#!/usr/bin/env bash
# Builds the DocC catalog of every library module (Sources/<Module>/<Module>.docc
# with the symbols' own documentation) and fails on any DocC warning, such as
# a symbol link that no longer resolves. Archives land in
# .build/plugins/Swift-DocC/outputs/.
#
# Links across modules are written as code spans (`Vault`), not symbol links:
# DocC resolves ``Symbol`` links only inside the module being built.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=()
for module in Sesame SesameLinux SesameSSH SesameSecretsInUse SesameSecretService SesameApple SesameTesting; do
    targets+=(--target "$module")
done
swift package generate-documentation "${targets[@]}" --warnings-as-errors
