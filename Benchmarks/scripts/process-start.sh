#!/bin/bash
# Whole-process start of `sesame get` next to `secret-tool lookup`, in one
# hyperfine run (docs/PERFORMANCE.md, "Process start"): one item in a fresh
# vault and in gnome-keyring on a private session bus, both stopped by PID
# afterwards. Pass one or more sesame binaries (e.g. main's and a branch's,
# each built as scripts/install.sh builds it) to compare them in the same run.
#
# Usage: Benchmarks/scripts/process-start.sh SESAME [SESAME ...]
#   RUNS=200 (default)  ITEMS=1 (default; items in each store, all but one
#   named filler-N)  HYPERFINE_ARGS="--export-markdown out.md"
#   EXTRA_COMMANDS (one command per line, timed in the same run; e.g. the
#   floor programs of Benchmarks/StartFloor/run.sh)
# Prints each command's median and minimum, and its ratio to the lookup.
# Needs hyperfine, secret-tool (libsecret-tools), gnome-keyring, dbus-daemon.
set -eu

[ $# -ge 1 ] || { echo "usage: $0 SESAME [SESAME ...]" >&2; exit 2; }
for tool in hyperfine secret-tool gnome-keyring-daemon dbus-daemon; do
    command -v "$tool" >/dev/null 2>&1 || { echo "process-start.sh: needs $tool" >&2; exit 1; }
done

root=$(mktemp -d "${TMPDIR:-/tmp}/sesame-start-XXXXXX")
bus_pid="" keyring_pid=""
cleanup() {
    [ -z "$keyring_pid" ] || kill "$keyring_pid" 2>/dev/null || true
    [ -z "$bus_pid" ] || kill "$bus_pid" 2>/dev/null || true
    rm -rf "$root"
}
trap cleanup EXIT INT TERM

for directory in home data state config cache run; do mkdir -m 700 "$root/$directory"; done
export HOME="$root/home" XDG_DATA_HOME="$root/data" XDG_STATE_HOME="$root/state" XDG_CONFIG_HOME="$root/config"
export XDG_CACHE_HOME="$root/cache" XDG_RUNTIME_DIR="$root/run" LANG=C.UTF-8
export SESAME_VAULT="$root/vault/vault.sqlite" DBUS_SESSION_BUS_ADDRESS="unix:path=$root/bus"

cat > "$root/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$root/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
CONF
dbus-daemon --config-file="$root/bus.conf" --nofork --nopidfile & bus_pid=$!
while [ ! -S "$root/bus" ]; do sleep 0.02; done
printf 'benchmark-password' | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 & keyring_pid=$!
# Until the daemon owns org.freedesktop.secrets, secret-tool complains on standard error.
tries=0
until [ -z "$(secret-tool lookup sesame-probe 1 2>&1 >/dev/null)" ]; do
    tries=$((tries + 1)); [ $tries -lt 500 ] || { echo "process-start.sh: gnome-keyring did not start" >&2; exit 1; }
    sleep 0.02
done

value=$(head -c 48 /dev/urandom | base64)   # 64 printable bytes, in both stores
printf '%s' "$value" | secret-tool store --label=item service bench name item
mkdir -m 700 "$root/vault"
# The recovery key it prints is a throwaway vault's.
printf 'benchmark-passcode' | "$1" init --scrypt-log2n 10 --passcode-fd 0 --no-interaction >/dev/null 2>&1
printf '%s' "$value" | "$1" put item --service bench --no-interaction
filler=1
while [ "$filler" -lt "${ITEMS:-1}" ]; do
    printf '%s' "$value" | secret-tool store --label="filler-$filler" service bench name "filler-$filler"
    printf '%s' "$value" | "$1" put "filler-$filler" --service bench --no-interaction
    filler=$((filler + 1))
done
for sesame in "$@"; do
    [ "$("$sesame" get item --service bench --no-interaction)" = "$value" ] || { echo "process-start.sh: $sesame get is wrong" >&2; exit 1; }
done
[ "$(secret-tool lookup service bench name item)" = "$value" ] || { echo "process-start.sh: secret-tool lookup is wrong" >&2; exit 1; }

echo "process-start.sh: $(uptime)" >&2
commands=("secret-tool lookup service bench name item")
for sesame in "$@"; do commands+=("$sesame get item --service bench --no-interaction"); done
for sesame in "$@"; do commands+=("$sesame --version"); done
while IFS= read -r extra; do
    [ -z "$extra" ] || commands+=("$extra")
done <<< "${EXTRA_COMMANDS:-}"
# shellcheck disable=SC2086 # HYPERFINE_ARGS is a list of arguments
hyperfine -N --warmup 10 -r "${RUNS:-200}" --export-json "$root/runs.json" ${HYPERFINE_ARGS:-} "${commands[@]}"
# hyperfine's summary is of means; the comparison is of medians.
python3 - "$root/runs.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
lookup = results[0]["median"]
for r in results:
    print(f"{r['median'] * 1000:6.1f} ms median  {r['min'] * 1000:6.1f} ms min  {r['median'] / lookup:5.2f}x lookup  {r['command']}")
PY
echo "process-start.sh: $(uptime)" >&2
