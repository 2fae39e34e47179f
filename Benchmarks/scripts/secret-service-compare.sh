#!/bin/bash
# Issue 25's benchmark (docs/PERFORMANCE.md, "Issue 25: the Secret Service
# next to gnome-keyring"): `sesame secret-service` next to
# gnome-keyring-daemon, each alone on a private session bus of its own, in
# one run.
#   - `secret-tool lookup` of one item and `secret-tool store` of a new one,
#     each provider holding the same 1,000 items (one hyperfine run);
#   - SearchItems for one attribute pair, timed inside one D-Bus client, on
#     Sesame at 100 and at 10,000 items (and on both at 1,000).
# Ratios are Sesame / gnome-keyring. Both providers are stopped by PID and
# everything is written under one temporary directory, removed afterwards.
#
# Usage: Benchmarks/scripts/secret-service-compare.sh [SESAME]
#   SESAME (or $SESAME_BINARY): a sesame binary; without one it is built as
#   scripts/install.sh builds it (scratch path .build-bench-release).
#   RUNS=200  SEARCH_CALLS=300  SMALL=100  ITEMS=1000  LARGE=10000  (defaults)
#   OLD=PATH: another sesame binary (an older build) served beside them, on
#   a bus and vault of its own, in the same hyperfine run.
# The item looked up is one secret-tool made (SPEC D13: a lookup by the app
# that made the item needs no one's word); the others are made by python.
# Needs hyperfine, secret-tool (libsecret-tools), gnome-keyring, dbus-daemon
# and /usr/bin/python3 with jeepney (python3-jeepney).
set -eu

here=$(cd "$(dirname "$0")/../.." && pwd)   # the Sesame package
python=/usr/bin/python3
for tool in hyperfine secret-tool gnome-keyring-daemon dbus-daemon; do
    command -v "$tool" >/dev/null 2>&1 || { echo "secret-service-compare.sh: needs $tool" >&2; exit 1; }
done
"$python" -c 'import jeepney' 2>/dev/null \
    || { echo "secret-service-compare.sh: needs $python with jeepney (apt-get install python3-jeepney)" >&2; exit 1; }

sesame=${1:-${SESAME_BINARY:-}}
if [ -z "$sesame" ]; then
    echo "secret-service-compare.sh: building the release sesame binary (scratch path .build-bench-release)" >&2
    (cd "$here" && swift build -c release --product sesame --scratch-path .build-bench-release \
        --static-swift-stdlib -Xlinker --gc-sections)
    sesame="$here/.build-bench-release/release/sesame"
fi
[ -x "$sesame" ] || { echo "secret-service-compare.sh: no sesame binary at $sesame" >&2; exit 1; }
sesame=$(cd "$(dirname "$sesame")" && pwd)/$(basename "$sesame")

runs=${RUNS:-200} calls=${SEARCH_CALLS:-300}
small=${SMALL:-100} items=${ITEMS:-1000} large=${LARGE:-10000}

root=$(mktemp -d "${TMPDIR:-/tmp}/sesame-ss-compare-XXXXXX")
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.02; done
        kill -9 "$pid" 2>/dev/null || true
    done
    rm -rf "$root"
}
trap cleanup EXIT INT TERM

for directory in home data state config cache run control vault; do mkdir -m 700 "$root/$directory"; done
export HOME="$root/home" XDG_DATA_HOME="$root/data" XDG_STATE_HOME="$root/state" XDG_CONFIG_HOME="$root/config"
export XDG_CACHE_HOME="$root/cache" XDG_RUNTIME_DIR="$root/run" LANG=C.UTF-8
export SESAME_VAULT="$root/vault/vault.sqlite"
unset DBUS_SESSION_BUS_ADDRESS

# One private bus per provider: both want org.freedesktop.secrets.
start_bus() {   # $1: the bus's name; prints its address
    cat > "$root/$1.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$root/$1.bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
CONF
    dbus-daemon --config-file="$root/$1.conf" --nofork --nopidfile >/dev/null 2>&1 &
    pids+=($!)
    while [ ! -S "$root/$1.bus" ]; do sleep 0.02; done
}
wait_for_provider() {   # $1: bus address; until a provider owns the name, secret-tool complains
    local tries=0
    until [ -z "$(DBUS_SESSION_BUS_ADDRESS=$1 secret-tool lookup sesame-probe 1 2>&1 >/dev/null)" ]; do
        tries=$((tries + 1)); [ $tries -lt 1000 ] || { echo "secret-service-compare.sh: no provider on $1" >&2; exit 1; }
        sleep 0.02
    done
}
gnome="unix:path=$root/gnome.bus" vault="unix:path=$root/sesame.bus" old="unix:path=$root/old.bus"
start_bus gnome
start_bus sesame
[ -z "${OLD:-}" ] || start_bus old

# --unlock reads the login keyring's password on standard input and creates
# that keyring unlocked; it is the default collection.
printf 'benchmark-password' | DBUS_SESSION_BUS_ADDRESS=$gnome \
    gnome-keyring-daemon --foreground --components=secrets --unlock --control-directory="$root/control" >"$root/gnome-keyring.log" 2>&1 &
pids+=($!)
wait_for_provider "$gnome"

# A fresh vault at the lowest scrypt cost; the recovery key it prints is a
# throwaway vault's. Items that clients create get no access control (the
# default), so nothing prompts.
printf 'benchmark-passcode' | "$sesame" init --scrypt-log2n 10 --passcode-fd 0 --no-interaction >/dev/null 2>&1
DBUS_SESSION_BUS_ADDRESS=$vault "$sesame" secret-service --no-interaction >"$root/sesame.log" 2>&1 &
pids+=($!)
wait_for_provider "$vault"
if [ -n "${OLD:-}" ]; then
    mkdir -m 700 "$root/vault-old"
    printf 'benchmark-passcode' | SESAME_VAULT="$root/vault-old/vault.sqlite" "$OLD" init --scrypt-log2n 10 --passcode-fd 0 --no-interaction >/dev/null 2>&1
    DBUS_SESSION_BUS_ADDRESS=$old SESAME_VAULT="$root/vault-old/vault.sqlite" "$OLD" secret-service --no-interaction >"$root/old.log" 2>&1 &
    pids+=($!)
    wait_for_provider "$old"
fi

# Items number FROM..TO-1 of the same set in both: service=bench,
# account=acct-N, a 32-character secret. Created through one client with
# CreateItem on the default alias in a plain session (the values are
# throwaway): python-secretstorage's create_item first reads the
# collection's Locked property, and Sesame answers a Get by computing every
# property, Items included, which opens every item (O(n) per create).
fill() {   # $1: bus address, $2: from, $3: to
    DBUS_SESSION_BUS_ADDRESS=$1 "$python" - "$2" "$3" <<'PY'
import sys
from jeepney import DBusAddress, new_method_call
from jeepney.io.blocking import open_dbus_connection
connection = open_dbus_connection(bus="SESSION")
name = "org.freedesktop.secrets"
service = DBusAddress("/org/freedesktop/secrets", bus_name=name, interface="org.freedesktop.Secret.Service")
session = connection.send_and_get_reply(new_method_call(service, "OpenSession", "sv", ("plain", ("s", "")))).body[1]
collection = DBusAddress("/org/freedesktop/secrets/aliases/default", bus_name=name, interface="org.freedesktop.Secret.Collection")
for n in range(int(sys.argv[1]), int(sys.argv[2])):
    properties = {"org.freedesktop.Secret.Item.Label": ("s", f"bench item {n}"),
                  "org.freedesktop.Secret.Item.Attributes": ("a{ss}", {"service": "bench", "account": f"acct-{n}"})}
    reply = connection.send_and_get_reply(new_method_call(collection, "CreateItem", "a{sv}(oayays)b",
        (properties, (session, b"", f"value-{n:026d}".encode(), "text/plain"), False)))
    assert reply.header.message_type.name == "method_return", reply.body
PY
}
# SearchItems({"account": "acct-50"}), one match, CALLS times over one
# connection after 20 unmeasured calls: median, minimum and 90th percentile.
search() {   # $1: bus address, $2: what to call the row
    DBUS_SESSION_BUS_ADDRESS=$1 "$python" - "$calls" "$2" <<'PY'
import statistics, sys, time
from jeepney import DBusAddress, new_method_call
from jeepney.io.blocking import open_dbus_connection
calls, name = int(sys.argv[1]), sys.argv[2]
connection = open_dbus_connection(bus="SESSION")
service = DBusAddress("/org/freedesktop/secrets", bus_name="org.freedesktop.secrets", interface="org.freedesktop.Secret.Service")
def call():
    reply = connection.send_and_get_reply(new_method_call(service, "SearchItems", "a{ss}", ({"account": "acct-50"},)))
    unlocked, locked = reply.body
    assert len(unlocked) + len(locked) == 1, reply.body
for _ in range(20): call()
times = []
for _ in range(calls):
    start = time.perf_counter(); call(); times.append(time.perf_counter() - start)
times.sort()
print(f"SearchItems {name}: median {statistics.median(times) * 1000:.3f} ms  min {times[0] * 1000:.3f} ms  "
      f"p90 {times[int(len(times) * 0.9)] * 1000:.3f} ms  ({calls} calls)")
PY
}

started=$(date +%s)
echo "secret-service-compare.sh: filling gnome-keyring with $items items and Sesame with $small" >&2
fill "$gnome" 0 "$items"
fill "$vault" 0 "$small"
search "$vault" "sesame at $small items" | tee "$root/search.txt"
echo "secret-service-compare.sh: filling Sesame up to $items items" >&2
fill "$vault" "$small" "$items"
providers=("$gnome" "$vault")
if [ -n "${OLD:-}" ]; then fill "$old" 0 "$items"; providers+=("$old"); fi

# The item looked up: made by secret-tool, the program that looks it up.
printf 'maker-value' > "$root/maker-secret"
for address in "${providers[@]}"; do
    DBUS_SESSION_BUS_ADDRESS=$address secret-tool store --label=maker service bench account maker-item < "$root/maker-secret"
    got=$(DBUS_SESSION_BUS_ADDRESS=$address secret-tool lookup service bench account maker-item)
    [ "$got" = "maker-value" ] || { echo "secret-service-compare.sh: lookup on $address gave '$got'" >&2; exit 1; }
done
head -c 24 /dev/urandom | base64 > "$root/new-secret"   # stdin of each store, never an argument

echo "secret-service-compare.sh: $(uptime)" >&2
# lookup: SearchItems for two pairs, OpenSession, GetSecrets; store:
# OpenSession, CreateItem with replace (the first run creates bench-new,
# later runs replace it, as a user's repeated store does).
old_commands=()
if [ -n "${OLD:-}" ]; then
    old_commands=(-n "lookup sesame-old" "env DBUS_SESSION_BUS_ADDRESS=$old secret-tool lookup service bench account maker-item"
                  -n "store sesame-old" "sh -c 'DBUS_SESSION_BUS_ADDRESS=$old exec secret-tool store --label=new service bench account bench-new < $root/new-secret'")
fi
hyperfine -N --warmup 10 -r "$runs" --export-json "$root/runs.json" ${HYPERFINE_ARGS:-} \
    -n "lookup gnome-keyring" "env DBUS_SESSION_BUS_ADDRESS=$gnome secret-tool lookup service bench account maker-item" \
    -n "lookup sesame" "env DBUS_SESSION_BUS_ADDRESS=$vault secret-tool lookup service bench account maker-item" \
    -n "store gnome-keyring" "sh -c 'DBUS_SESSION_BUS_ADDRESS=$gnome exec secret-tool store --label=new service bench account bench-new < $root/new-secret'" \
    -n "store sesame" "sh -c 'DBUS_SESSION_BUS_ADDRESS=$vault exec secret-tool store --label=new service bench account bench-new < $root/new-secret'" \
    "${old_commands[@]}"
echo "secret-service-compare.sh: $(uptime)" >&2
for address in "${providers[@]}"; do
    got=$(DBUS_SESSION_BUS_ADDRESS=$address secret-tool lookup service bench account bench-new)
    [ "$got" = "$(cat "$root/new-secret")" ] || { echo "secret-service-compare.sh: store on $address did not hold" >&2; exit 1; }
done

search "$gnome" "gnome-keyring at $items items" | tee -a "$root/search.txt"
search "$vault" "sesame at $items items" | tee -a "$root/search.txt"
echo "secret-service-compare.sh: filling Sesame up to $large items" >&2
fill "$vault" "$items" "$large"
search "$vault" "sesame at $large items" | tee -a "$root/search.txt"
echo "secret-service-compare.sh: $(uptime); $(( $(date +%s) - started )) s in all" >&2

# hyperfine's summary is of means; the comparison is of medians.
"$python" - "$root/runs.json" "$root/search.txt" "$small" "$large" <<'PY'
import json, re, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
print()
for name in ("lookup", "store"):
    g, s = results[f"{name} gnome-keyring"], results[f"{name} sesame"]
    for label, r in (("gnome-keyring", g), ("sesame", s)):
        print(f"{name:6} {label:13} median {r['median'] * 1000:6.2f} ms  min {r['min'] * 1000:6.2f} ms")
    print(f"{name:6} ratio sesame / gnome-keyring: {s['median'] / g['median']:.2f}x (median)  {s['min'] / g['min']:.2f}x (min)")
    if f"{name} sesame-old" in results:
        o = results[f"{name} sesame-old"]
        print(f"{name:6} sesame-old    median {o['median'] * 1000:6.2f} ms  min {o['min'] * 1000:6.2f} ms")
        print(f"{name:6} ratio sesame / sesame-old: {s['median'] / o['median']:.2f}x (median); sesame-old / gnome-keyring {o['median'] / g['median']:.2f}x")
medians = {}
for line in open(sys.argv[2]):
    m = re.match(r"SearchItems (.*): median ([0-9.]+) ms", line)
    medians[m.group(1)] = float(m.group(2))
small, large = f"sesame at {sys.argv[3]} items", f"sesame at {sys.argv[4]} items"
print(f"SearchItems sesame {sys.argv[4]} / {sys.argv[3]} items: {medians[large] / medians[small]:.2f}x (median)")
PY
