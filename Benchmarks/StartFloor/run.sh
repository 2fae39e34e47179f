#!/bin/bash
# The floor under `sesame get`, in the same hyperfine run as `secret-tool
# lookup` and `sesame get` (docs/PERFORMANCE.md, "Issue 24: the floor of
# the stack"). Builds this package as scripts/install.sh builds `sesame`
# (release, static Swift runtime, --gc-sections), writes its one-item
# database, then runs Benchmarks/scripts/process-start.sh with the floor's
# programs added.
#
# Usage: Benchmarks/StartFloor/run.sh SESAME [SESAME ...]   (RUNS, ITEMS as process-start.sh)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
(cd "$here" && swift build -c release --scratch-path .build-floor --static-swift-stdlib -Xlinker --gc-sections >&2)
bin="$here/.build-floor/release"
work=$(mktemp -d "${TMPDIR:-/tmp}/start-floor-XXXXXX")
trap 'rm -rf "$work"' EXIT
"$bin/start-floor" item --vault "$work/floor.sqlite" --prepare
[ "$("$bin/start-floor" item --vault "$work/floor.sqlite")" = "$(printf 'x%.0s' $(seq 64))" ] || { echo "run.sh: start-floor read the wrong value" >&2; exit 1; }
export EXTRA_COMMANDS="$bin/start-floor item --vault $work/floor.sqlite
$bin/start-floor-parse item
$bin/start-floor-store $work/floor.sqlite item
$bin/start-floor-hello"
"$here/../scripts/process-start.sh" "$@"
