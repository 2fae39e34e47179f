#!/bin/bash
# Times the real fprintd-verify on a private fprintd (the colleague's shell
# harness recipe), for comparison with the FprintdSensor benchmark.
# Each run: fprintd-verify claims, lists, verifies, releases; the scan is
# sent as soon as the reader's socket accepts. Uses hyperfine when present.
#   Benchmarks/scripts/fprintd-verify.sh [runs]
set -euo pipefail
RUNS=${1:-50}
DIR=$(mktemp -d /tmp/sesame-fprintd-bench-XXXXXX)
chmod 755 "$DIR"
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.02; done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$DIR"
}
trap cleanup EXIT

cat > "$DIR/bus.conf" <<CONF
<busconfig><type>system</type><listen>unix:path=$DIR/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_type="method_call"/><allow send_type="signal"/>
<allow send_requested_reply="true" send_type="method_return"/><allow send_requested_reply="true" send_type="error"/>
<allow receive_type="method_call"/><allow receive_type="method_return"/><allow receive_type="error"/><allow receive_type="signal"/>
</policy></busconfig>
CONF
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$DIR/bus
dbus-daemon --config-file="$DIR/bus.conf" --nofork --nopidfile >"$DIR/dbus.log" 2>&1 & PIDS+=($!)
for _ in $(seq 250); do [ -S "$DIR/bus" ] && break; sleep 0.02; done
setsid /usr/bin/python3 -m dbusmock --system --template polkitd >"$DIR/polkit.log" 2>&1 </dev/null & PIDS=($! "${PIDS[@]}")
PY='import dbus,sys,time
for _ in range(500):
    try:
        dbus.SystemBus().get_object("org.freedesktop.PolicyKit1","/org/freedesktop/PolicyKit1/Authority").SetAllowed(
            ["net.reactivated.fprint.device.verify","net.reactivated.fprint.device.enroll"],dbus_interface="org.freedesktop.DBus.Mock"); break
    except dbus.exceptions.DBusException: time.sleep(0.02)'
/usr/bin/python3 -c "$PY"
mkdir -m 700 "$DIR/state" "$DIR/runtime"
FP_VIRTUAL_DEVICE=$DIR/dev FP_DRIVERS_WHITELIST=virtual_device STATE_DIRECTORY=$DIR/state RUNTIME_DIRECTORY=$DIR/runtime \
  setsid /usr/libexec/fprintd -t >"$DIR/fprintd.log" 2>&1 </dev/null & PIDS=($! "${PIDS[@]}")

send() {  # one command per connection, no newline; retry until the reader is claimed
  for _ in $(seq 500); do
    printf '%s' "$1" | socat - "UNIX-CONNECT:$DIR/dev" 2>/dev/null && return 0
    sleep 0.005
  done
  return 1
}
for _ in $(seq 250); do fprintd-list root >/dev/null 2>&1 && break; sleep 0.02; done
fprintd-enroll -f right-index-finger >/dev/null & E=$!
for _ in 1 2 3 4 5; do send "SCAN owner"; done
wait $E
sleep 0.2   # let fprintd finish releasing the enrolment claim

# The scan is sent once fprintd-verify reports "Verify started": the virtual
# reader drops a command that reaches it while a claim is being set up.
one() {
  fprintd-verify >"$DIR/verify.out" 2>&1 & local v=$!
  until grep -q "Verify started" "$DIR/verify.out" 2>/dev/null; do kill -0 "$v" 2>/dev/null || break; done
  send "SCAN owner"
  wait $v
}
export -f send one; export DIR
if command -v hyperfine >/dev/null; then
  hyperfine --warmup 3 --runs "$RUNS" -N "bash -c one"
else
  total=0; min=; max=0
  for i in $(seq "$RUNS"); do
    t0=$(date +%s%N); one; t1=$(date +%s%N)
    ms=$(( (t1 - t0) / 1000 ))
    total=$((total + ms)); [ -z "$min" ] || [ "$ms" -lt "$min" ] && min=$ms; [ "$ms" -gt "$max" ] && max=$ms
  done
  printf 'fprintd-verify (claim, list, verify, release + socat scan), %d runs: mean %d.%03d ms, min %d.%03d ms, max %d.%03d ms\n' \
    "$RUNS" $((total / RUNS / 1000)) $((total / RUNS % 1000)) $((min / 1000)) $((min % 1000)) $((max / 1000)) $((max % 1000))
fi
