#!/bin/sh
# Reproduces the side-by-side comparison of docs/PERFORMANCE.md from a fresh
# clone: sesame get/put (release binary, whole process) next to secret-tool
# lookup/store against gnome-keyring in a private session, in one run; also
# `sesame --version`, the peak resident memory of `sesame get` and of
# `secret-tool lookup`, and `sesame get` inside a fingerprint reuse window.
#
# Usage: Benchmarks/scripts/compare.sh [extra `swift package benchmark` arguments]
#   KEYRING_SIZES=100,1000  SESAME_SIZES=100,1000,10000,100000  (defaults)
#   SESAME_BINARY=/path/to/sesame  skips the build and uses that binary.
#
# Installs nothing: it says which apt packages are missing. Without
# gnome-keyring / secret-tool the benchmark still runs and says that it
# skipped those rows.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)   # Benchmarks/
root=$(cd "$here/.." && pwd)             # the Sesame package

missing=""
command -v secret-tool >/dev/null 2>&1 || missing="$missing libsecret-tools"
command -v gnome-keyring-daemon >/dev/null 2>&1 || missing="$missing gnome-keyring"
command -v dbus-daemon >/dev/null 2>&1 || missing="$missing dbus-daemon"
if [ -n "$missing" ]; then
    echo "compare.sh: the gnome-keyring rows need:$missing" >&2
    echo "compare.sh: install them with: sudo apt-get install$missing   (continuing without those rows)" >&2
fi
command -v swift >/dev/null 2>&1 || { echo "compare.sh: needs a Swift 6 toolchain (swift.org/install)" >&2; exit 1; }

if [ -z "${SESAME_BINARY:-}" ]; then
    # Built as scripts/install.sh builds it: the binary users run.
    echo "compare.sh: building the release sesame binary (static Swift standard library; scratch path .build-bench-release)" >&2
    (cd "$root" && swift build -c release --product sesame --scratch-path .build-bench-release \
        --static-swift-stdlib -Xlinker --gc-sections)
    SESAME_BINARY="$root/.build-bench-release/release/sesame"
fi
[ -x "$SESAME_BINARY" ] || { echo "compare.sh: no sesame binary at $SESAME_BINARY" >&2; exit 1; }
export SESAME_BINARY

# Temporary keyrings, vaults and buses go here and are removed afterwards.
TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/sesame-compare-XXXXXX")
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT INT TERM

echo "compare.sh: $(uptime)" >&2
cd "$here"
swift package --scratch-path .build-bench --disable-sandbox benchmark --target KeyringComparisonBenchmark "$@"
echo "compare.sh: $(uptime)" >&2
