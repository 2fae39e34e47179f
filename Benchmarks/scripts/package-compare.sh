#!/bin/bash
# Issue 35's benchmark (docs/PERFORMANCE.md, "Issue 35: the installed
# binary, activation and memory next to gnome-keyring"): what a user of the
# Debian package gets from `sesame secret-service`, next to
# gnome-keyring-daemon, measured in one run on the same machine state.
#
#   1. Size: the binary as built, and stripped as scripts/install.sh (and
#      so the package, at /usr/bin/sesame) strips it, next to
#      /usr/bin/gnome-keyring-daemon; and the files (binary and libraries)
#      each running provider maps.
#   2. Activation: a cold `secret-tool lookup` of an item that exists, the
#      provider not running, so the bus starts it from the
#      org.freedesktop.secrets.service file in its service directory
#      (hyperfine's --prepare stops the provider before each run, by the PID
#      the bus gives for the name, and waits until the bus has let the name
#      go). Each provider runs on a private session bus (dbus-daemon) of its
#      own, holding the same items; timed with ITEMS items and with SMALL
#      (a new user's keyring), looking up the middle one (acct-500 of
#      1,000). Three providers:
#        sesame            Exec: `sesame secret-service` (the line of
#                          contrib/dbus/org.freedesktop.secrets.service.in)
#                          on a vault as `sesame init` makes it (a
#                          passcode, which init needs, and the device key in
#                          a file: no TPM here), which opens without a prompt.
#        gnome-keyring     Exec: `gnome-keyring-daemon --foreground
#          --unlock        --components=secrets --unlock`, the login
#                          keyring's password on standard input, as
#                          pam_gnome_keyring gives it at login: the login
#                          keyring is encrypted, as every user's is.
#        gnome-keyring     Exec: Debian's line, `gnome-keyring-daemon
#          Debian line     --start --foreground --components=secrets`
#                          (--start refuses --unlock). So started,
#                          gnome-keyring serves without a prompt only a
#                          keyring stored without a password: the --unlock
#                          login keyring's copy, its password changed to
#                          empty (gnome-keyring's ChangeWithMasterPassword),
#                          so kept in clear text and parsed as such.
#      Each Exec is a /bin/sh script that execs the provider (the same cost
#      for all three). Warm lookups (provider running) are timed in the same
#      hyperfine run, for scale.
#   3. Memory: VmRSS, RssAnon, RssFile, VmHWM, Threads (/proc/PID/status)
#      and Pss, Pss_Anon, Pss_File (/proc/PID/smaps_rollup) of the provider
#      that stored the ITEMS items (CreateItem from one jeepney client) and
#      then served one `secret-tool lookup` of each (ITEMS clients, one after
#      another, every value checked): Sesame and gnome-keyring --unlock. And
#      each provider fresh: after activation and one lookup. No other
#      provider of the run is running when one is measured (Pss shares a
#      page among the processes that map it), and the stripped copy is
#      dropped from the page cache first, so that its pages come in by its
#      own faults as after a reboot.
#
# Prints Markdown tables: the sizes; the lookups (median, min, mean, and
# Sesame / gnome-keyring); where a cold lookup's time goes; the memory; then
# the ratios against issue 35's goals (cold lookup ≤ 1.5×, memory ≤ 2×).
#
# Ratios are Sesame / gnome-keyring. Providers are stopped by the PID the
# bus reports for org.freedesktop.secrets, buses by their own PID;
# everything is written under one temporary directory, removed afterwards
# (KEEP=1 keeps it).
#
# Usage: Benchmarks/scripts/package-compare.sh SESAME
#   SESAME: the sesame binary as built (release, --static-swift-stdlib
#   -Xlinker --gc-sections, as scripts/install.sh builds it). Its stripped
#   copy is what runs: STRIPPED=path (default: in the temporary directory).
#   RUNS=40 ROUNDS=4 ITEMS=1000 SMALL=10 (defaults): RUNS cold lookups of
#   each provider in all, in ROUNDS hyperfine runs (order reversed every
#   other round); RUNS=0 skips the activation timing (memory only).
#   TRACE=10: cold lookups traced with `dbus-monitor --profile` per provider
#   and store size, for where the time goes (0: none).
#   SESAME_ENV='MALLOC_ARENA_MAX=2 ...'  extra environment for the sesame
#     provider (memory investigations; none by default).
#   BREAKDOWN=1  also print where Sesame's resident pages are: by mapping,
#     and the binary's resident pages by ELF section and by module (from
#     /proc/PID/pagemap and the section and symbol tables of SESAME as
#     built).
# Runs as root or as any user, in about 12 minutes with the defaults. Needs
# (Debian 12): apt-get install hyperfine libsecret-tools gnome-keyring
#   dbus-daemon dbus-bin binutils python3-jeepney
set -eu

python=/usr/bin/python3
for tool in hyperfine secret-tool gnome-keyring-daemon dbus-daemon dbus-send dbus-monitor strip readelf nm; do
    command -v "$tool" >/dev/null 2>&1 || { echo "package-compare.sh: needs $tool" >&2; exit 1; }
done
"$python" -c 'import jeepney' 2>/dev/null \
    || { echo "package-compare.sh: needs $python with jeepney (apt-get install python3-jeepney)" >&2; exit 1; }
gkd=$(command -v gnome-keyring-daemon)

built=${1:-}
[ -n "$built" ] && [ -x "$built" ] || { echo "usage: package-compare.sh SESAME (a sesame binary)" >&2; exit 2; }
built=$(cd "$(dirname "$built")" && pwd)/$(basename "$built")
runs=${RUNS:-40} rounds=${ROUNDS:-4} trace=${TRACE:-10} items=${ITEMS:-1000} small=${SMALL:-10}
[ "$items" -ge 2 ] && [ "$small" -ge 2 ] || { echo "package-compare.sh: ITEMS and SMALL must be 2 or more" >&2; exit 2; }

root=$(mktemp -d "${TMPDIR:-/tmp}/sesame-package-compare-XXXXXX")
stripped=${STRIPPED:-$root/bin/sesame}
mkdir -p "$(dirname "$stripped")"
strip --remove-section=.comment --remove-section=.note -o "$stripped" "$built"   # as scripts/install.sh (and dh_strip)
chmod 755 "$stripped"
stripped=$(cd "$(dirname "$stripped")" && pwd)/$(basename "$stripped")
# Out of the page cache, so that the first start reads the copy in by its
# own page faults, as after a reboot, rather than finding the pages strip
# wrote: which pages a fault maps at once (and so the resident file pages)
# depends on how they came into the cache.
"$python" -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY); os.fdatasync(fd); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$stripped"

buses=() daemons=()
address() { echo "unix:path=$root/$1/bus"; }   # $1: a bus's name
provider_pid() {   # $1: bus address; prints the PID that owns org.freedesktop.secrets, if any
    DBUS_SESSION_BUS_ADDRESS=$1 dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus \
        /org/freedesktop/DBus org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets 2>/dev/null \
        | awk '{print $2}'
}
cleanup() {
    local bus pid
    for bus in "${buses[@]}"; do "$root/stop-provider" "$(address "$bus")" 2>/dev/null || true; done
    for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${daemons[@]}"; do
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.02; done
        kill -9 "$pid" 2>/dev/null || true
    done
    if [ "${KEEP:-0}" = 1 ]; then echo "package-compare.sh: kept $root" >&2; else rm -rf "$root"; fi
}
trap cleanup EXIT INT TERM

# Stops the provider on a bus (by the PID the bus gives for the name) and
# waits until it has exited and the bus has let the name go, so that the
# next call activates a new one. hyperfine runs it before each cold lookup.
cat > "$root/stop-provider" <<'SH'
#!/bin/sh
address=$1
pid=$(DBUS_SESSION_BUS_ADDRESS=$address dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus \
    /org/freedesktop/DBus org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets 2>/dev/null \
    | awk '{print $2}')
[ -n "$pid" ] || exit 0
kill "$pid" 2>/dev/null
n=0
while kill -0 "$pid" 2>/dev/null; do
    n=$((n + 1)); [ $n -lt 250 ] || kill -9 "$pid" 2>/dev/null
    sleep 0.01
done
while DBUS_SESSION_BUS_ADDRESS=$address dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus \
    /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets | grep -q true; do
    sleep 0.01
done
SH
chmod 755 "$root/stop-provider"

# One private session bus per provider and store size (all want
# org.freedesktop.secrets), with a service directory holding the
# provider's .service file, and the provider's own HOME and XDG_* in the
# bus's environment (activated services inherit it).
start_bus() {   # $1: name, $2: the Exec script's body
    local dir="$root/$1" d
    mkdir -m 700 "$dir"
    for d in home data state config cache run services; do mkdir -m 700 "$dir/$d"; done
    cat > "$dir/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$dir/bus</listen>
  <servicedir>$dir/services</servicedir>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
CONF
    printf '#!/bin/sh\n%s\n' "$2" > "$dir/provider"
    chmod 755 "$dir/provider"
    printf '[D-BUS Service]\nName=org.freedesktop.secrets\nExec=%s\n' "$dir/provider" \
        > "$dir/services/org.freedesktop.secrets.service"
    env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 HOME="$dir/home" XDG_DATA_HOME="$dir/data" \
        XDG_STATE_HOME="$dir/state" XDG_CONFIG_HOME="$dir/config" XDG_CACHE_HOME="$dir/cache" \
        XDG_RUNTIME_DIR="$dir/run" \
        dbus-daemon --config-file="$dir/bus.conf" --nofork --nopidfile >"$dir/bus.log" 2>&1 &
    daemons+=($!)
    buses+=("$1")
    while [ ! -S "$dir/bus" ]; do sleep 0.02; done
}
unset DBUS_SESSION_BUS_ADDRESS
printf 'benchmark-password' > "$root/password"
exports=""
for assignment in ${SESAME_ENV:-}; do exports="${exports}export $assignment; "; done
for n in "$items" "$small"; do
    # Sesame: a vault as `sesame init` makes it, at the default path
    # (default scrypt cost for the passcode, which the service never uses).
    start_bus "sesame-$n" "${exports}exec $stripped secret-service"
    printf 'benchmark-passcode' | env HOME="$root/sesame-$n/home" XDG_DATA_HOME="$root/sesame-$n/data" \
        XDG_STATE_HOME="$root/sesame-$n/state" XDG_CONFIG_HOME="$root/sesame-$n/config" \
        XDG_RUNTIME_DIR="$root/sesame-$n/run" \
        "$stripped" init --passcode-fd 0 --no-interaction >"$root/sesame-$n/init.log" 2>&1 \
        || { cat "$root/sesame-$n/init.log" >&2; exit 1; }
    start_bus "unlock-$n" "exec $gkd --foreground --components=secrets --unlock < $root/password"
    start_bus "debian-$n" "exec $gkd --start --foreground --components=secrets"
done

# Items 0..N-1, the same in each: service=bench, account=acct-K, a
# 32-character secret, created with CreateItem on the default alias from
# one client in a plain session (the values are throwaway). The first call
# activates the provider.
fill() {   # $1: bus address, $2: how many
    DBUS_SESSION_BUS_ADDRESS=$1 "$python" - "$2" <<'PY'
import sys
from jeepney import DBusAddress, new_method_call
from jeepney.io.blocking import open_dbus_connection
connection = open_dbus_connection(bus="SESSION")
name = "org.freedesktop.secrets"
service = DBusAddress("/org/freedesktop/secrets", bus_name=name, interface="org.freedesktop.Secret.Service")
session = connection.send_and_get_reply(new_method_call(service, "OpenSession", "sv", ("plain", ("s", "")))).body[1]
collection = DBusAddress("/org/freedesktop/secrets/aliases/default", bus_name=name, interface="org.freedesktop.Secret.Collection")
for n in range(int(sys.argv[1])):
    properties = {"org.freedesktop.Secret.Item.Label": ("s", f"bench item {n}"),
                  "org.freedesktop.Secret.Item.Attributes": ("a{ss}", {"service": "bench", "account": f"acct-{n}"})}
    reply = connection.send_and_get_reply(new_method_call(collection, "CreateItem", "a{sv}(oayays)b",
        (properties, (session, b"", f"value-{n:026d}".encode(), "text/plain"), False)))
    assert reply.header.message_type.name == "method_return", reply.body
PY
}
lookup() {   # $1: bus address, $2: item number; the value checked
    local got
    got=$(DBUS_SESSION_BUS_ADDRESS=$1 secret-tool lookup service bench account "acct-$2")
    [ "$got" = "value-$(printf '%026d' "$2")" ] || { echo "package-compare.sh: lookup of acct-$2 on $1 gave '$got'" >&2; exit 1; }
}
memory() {   # $1: label, $2: bus address; one line: the label, the PID and the figures in kB
    local pid
    pid=$(provider_pid "$2")
    [ -n "$pid" ] || { echo "package-compare.sh: no provider on $2" >&2; exit 1; }
    awk -v label="$1" -v pid="$pid" '
        FILENAME ~ /status$/ && /^(VmRSS|RssAnon|RssFile|VmHWM|Threads):/ { sub(":", "", $1); v[$1] = $2 }
        FILENAME ~ /rollup$/ && /^(Pss|Pss_Anon|Pss_File):/ { sub(":", "", $1); v[$1] = $2 }
        END { printf "%s pid=%s VmRSS=%s RssAnon=%s RssFile=%s VmHWM=%s Threads=%s Pss=%s Pss_Anon=%s Pss_File=%s\n",
              label, pid, v["VmRSS"], v["RssAnon"], v["RssFile"], v["VmHWM"], v["Threads"], v["Pss"], v["Pss_Anon"], v["Pss_File"] }' \
        "/proc/$pid/status" "/proc/$pid/smaps_rollup"
}
mapped_files() {   # $1: label, $2: bus address; the distinct files the provider maps, and their total size
    local pid
    pid=$(provider_pid "$2")
    awk '$6 ~ /^\// { print $6 }' "/proc/$pid/maps" | sort -u | xargs stat -L -c %s \
        | awk -v label="$1" '{ total += $1; n++ } END { printf "%s files=%d bytes=%d\n", label, n, total }'
}

started=$(date +%s)
echo "package-compare.sh: $(uptime)" >&2
# The small stores are filled after the memory is read, so that no other
# provider maps the same files then (Pss shares a page among its mappers).
echo "package-compare.sh: storing $items items in Sesame and in gnome-keyring (--unlock)" >&2
fill "$(address "sesame-$items")" "$items"
fill "$(address "unlock-$items")" "$items"
echo "package-compare.sh: looking each of the $items items up once (secret-tool, one process per item)" >&2
for bus in "sesame-$items" "unlock-$items"; do
    for k in $(seq 0 $((items - 1))); do lookup "$(address "$bus")" "$k"; done
done
memory "sesame" "$(address "sesame-$items")" > "$root/memory.txt"
memory "gnome-keyring" "$(address "unlock-$items")" >> "$root/memory.txt"
mapped_files "sesame" "$(address "sesame-$items")" > "$root/mapped.txt"
mapped_files "gnome-keyring" "$(address "unlock-$items")" >> "$root/mapped.txt"
echo "package-compare.sh: the vault at $items items: $(du -k "$root/sesame-$items/data/sesame" | tail -n 1 | cut -f 1) kB;" \
    "gnome-keyring's login keyring: $(du -k "$root/unlock-$items/data/keyrings/login.keyring" | cut -f 1) kB" >&2
if [ "${BREAKDOWN:-0}" = 1 ]; then
    "$python" - "$(provider_pid "$(address "sesame-$items")")" "$built" > "$root/breakdown.txt" <<'PY'
# Resident pages of the provider by mapping, and the binary's resident
# pages by ELF section (the section table of the binary as built: strip
# leaves the addresses as they are).
import collections, re, struct, subprocess, sys
pid, elf = sys.argv[1], sys.argv[2]
rows, current = [], None
for line in open(f"/proc/{pid}/smaps"):
    m = re.match(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) (\S+) \S+ \S+\s*(.*)$", line)
    if m:
        current = {"start": int(m.group(1), 16), "end": int(m.group(2), 16), "perm": m.group(3),
                   "offset": int(m.group(4), 16), "name": m.group(5) or "[anonymous]"}
        rows.append(current)
    elif ":" in line and current is not None:
        key, _, value = line.partition(":")
        if value.strip().endswith("kB"):
            current[key] = int(value.split()[0])
by_name = collections.defaultdict(lambda: [0, 0, 0])
for r in rows:
    name = r["name"]
    if name.startswith("/"):
        base_name = name.rsplit("/", 1)[-1]
        name = "the sesame binary" if base_name == "sesame" else base_name.split(".so")[0]
    by_name[name][0] += r.get("Rss", 0); by_name[name][1] += r.get("Pss", 0); by_name[name][2] += r.get("Anonymous", 0)
print("Sesame's resident memory by mapping (kB): Rss, Pss, of which anonymous")
for name, (rss, pss, anon) in sorted(by_name.items(), key=lambda kv: -kv[1][0])[:16]:
    print(f"  {rss:7d} {pss:7d} {anon:7d}  {name}")
# The binary's sections: (name, address, size); a PIE's addresses start at 0.
sections = []
for line in subprocess.run(["readelf", "-SW", elf], capture_output=True, text=True).stdout.splitlines():
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]{16})\s+[0-9a-f]+\s+([0-9a-f]+)", line)
    if m and int(m.group(2), 16):
        sections.append((m.group(1), int(m.group(2), 16), int(m.group(3), 16)))
binary = [r for r in rows if r["name"].rsplit("/", 1)[-1] == "sesame"]
base = min(r["start"] - r["offset"] for r in binary)
resident, anonymous = collections.Counter(), collections.Counter()
pagemap = open(f"/proc/{pid}/pagemap", "rb")
for r in binary:
    for page in range(r["start"], r["end"], 4096):
        pagemap.seek(page // 4096 * 8)
        entry = struct.unpack("<Q", pagemap.read(8))[0]
        if entry >> 63 & 1:
            address = page - base
            name = next((s[0] for s in sections if s[1] <= address < s[1] + s[2]), "(between sections)")
            resident[name] += 4
            if not entry >> 61 & 1:   # not file-backed: a private copy, written (relocated)
                anonymous[name] += 4
print("The binary's resident pages by section (kB resident, of them anonymous, of kB in the section):")
size = {s[0]: s[2] // 1024 for s in sections}
for name, kb in resident.most_common(14):
    print(f"  {kb:7d} {anonymous[name]:7d} of {size.get(name, 0):7d}  {name}")
# The same pages by the module whose symbols lie on them (nm of the binary
# as built; a page several modules share is split by bytes). A fault maps
# the pages around it too, so a module's neighbours count as well.
import bisect
def module(name):
    m = re.match(r"^\$s(\d+)(\w+)", name)
    if m and not name.startswith(("$ss", "$sS")):
        return m.group(2)[:int(m.group(1))]
    if name.startswith(("$s", "swift", "_swift", "_ZN5swift")) or "swift" in name[:12]:
        return "Swift runtime and standard library"
    if "icu_" in name:
        return "ICU"
    if name.startswith("CCryptoBoringSSL"):
        return "BoringSSL"
    if name.startswith(("__CF", "CF", "_CF")):
        return "CoreFoundation"
    return "other C and C++"
symbols = []
for line in subprocess.run(["nm", "-n", "-S", "--defined-only", elf], capture_output=True, text=True).stdout.splitlines():
    p = line.split()
    if len(p) == 4:
        symbols.append((int(p[0], 16), int(p[1], 16), p[3]))
symbols.sort()
starts = [s[0] for s in symbols]
by_module, of_module = collections.Counter(), collections.Counter()
for address, length, name in symbols:
    of_module[module(name)] += length
for r in binary:
    for page in range(r["start"], r["end"], 4096):
        pagemap.seek(page // 4096 * 8)
        if not struct.unpack("<Q", pagemap.read(8))[0] >> 63 & 1:
            continue
        low, high = page - base, page - base + 4096
        i, owners = max(bisect.bisect_right(starts, low) - 1, 0), collections.Counter()
        while i < len(symbols) and symbols[i][0] < high:
            address, length, name = symbols[i]
            overlap = min(high, address + max(length, 1)) - max(low, address)
            if overlap > 0:
                owners[module(name)] += overlap
            i += 1
        if not owners:
            by_module["no symbol: relocations, dynamic symbols, unwind tables, metadata"] += 4
        for owner, n in owners.items():
            by_module[owner] += 4 * n / sum(owners.values())
if by_module:
    print("The binary's resident pages by module (kB resident, kB of the module's symbols):")
    for name, kb in by_module.most_common(16):
        print(f"  {kb:7.0f} {of_module.get(name, 0) / 1024:7.0f}  {name}")
PY
fi
echo "package-compare.sh: storing $small items in Sesame and in gnome-keyring (--unlock)" >&2
fill "$(address "sesame-$small")" "$small"
fill "$(address "unlock-$small")" "$small"

if [ "$runs" -gt 0 ]; then
    for n in "$items" "$small"; do
        # gnome-keyring as Debian's line starts it: the --unlock login
        # keyring's copy, its password changed to empty (kept in clear,
        # unlocked when loaded). The change is made by a gnome-keyring
        # started by hand on that bus, then stopped.
        cp -a "$root/unlock-$n/data/keyrings" "$root/debian-$n/data/"
        env HOME="$root/debian-$n/home" XDG_DATA_HOME="$root/debian-$n/data" XDG_RUNTIME_DIR="$root/debian-$n/run" \
            DBUS_SESSION_BUS_ADDRESS="$(address "debian-$n")" "$gkd" --foreground --components=secrets --unlock \
            < "$root/password" > "$root/debian-$n/unlock.log" 2>&1 &
        daemons+=($!)
        until [ -n "$(provider_pid "$(address "debian-$n")")" ]; do sleep 0.02; done
        DBUS_SESSION_BUS_ADDRESS=$(address "debian-$n") "$python" - <<'PY'
from jeepney import DBusAddress, new_method_call
from jeepney.io.blocking import open_dbus_connection
connection = open_dbus_connection(bus="SESSION")
name = "org.freedesktop.secrets"
service = DBusAddress("/org/freedesktop/secrets", bus_name=name, interface="org.freedesktop.Secret.Service")
session = connection.send_and_get_reply(new_method_call(service, "OpenSession", "sv", ("plain", ("s", "")))).body[1]
internal = DBusAddress("/org/freedesktop/secrets", bus_name=name, interface="org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface")
reply = connection.send_and_get_reply(new_method_call(internal, "ChangeWithMasterPassword", "o(oayays)(oayays)",
    ("/org/freedesktop/secrets/collection/login", (session, b"", b"benchmark-password", "text/plain"), (session, b"", b"", "text/plain"))))
assert reply.header.message_type.name == "method_return", reply.body
PY
        "$root/stop-provider" "$(address "debian-$n")"
        grep -q '^\[keyring\]' "$root/debian-$n/data/keyrings/login.keyring" \
            || { echo "package-compare.sh: the copied login keyring was not stored in clear" >&2; exit 1; }
        for bus in "sesame-$n" "unlock-$n" "debian-$n"; do
            "$root/stop-provider" "$(address "$bus")"
            lookup "$(address "$bus")" $((n / 2))   # a cold lookup, checked
        done
    done

    # The benchmarks, run in ROUNDS hyperfine runs of RUNS/ROUNDS runs each,
    # every other round in reverse order, so that a change in the machine's
    # load during the run falls on every provider alike; the rounds' times
    # are pooled.
    preps=() names=() commands=()
    for n in "$items" "$small"; do
        for pair in "sesame sesame" "unlock gnome-keyring --unlock" "debian gnome-keyring Debian line"; do
            bus=${pair%% *} label=${pair#* }
            preps+=("$root/stop-provider $(address "$bus-$n")") names+=("cold $label, $n items")
            commands+=("env DBUS_SESSION_BUS_ADDRESS=$(address "$bus-$n") secret-tool lookup service bench account acct-$((n / 2))")
        done
    done
    for pair in "sesame sesame" "unlock gnome-keyring --unlock"; do
        bus=${pair%% *} label=${pair#* }
        preps+=(true) names+=("warm $label, $items items")
        commands+=("env DBUS_SESSION_BUS_ADDRESS=$(address "$bus-$items") secret-tool lookup service bench account acct-$((items / 2))")
    done
    per_round=$(( (runs + rounds - 1) / rounds )); [ "$per_round" -ge 2 ] || per_round=2
    for round in $(seq "$rounds"); do
        echo "package-compare.sh: round $round of $rounds, $per_round runs each; $(uptime)" >&2
        set --
        for i in "${!names[@]}"; do
            [ $((round % 2)) = 1 ] && k=$i || k=$(( ${#names[@]} - 1 - i ))
            set -- "$@" -p "${preps[$k]}" -n "${names[$k]}" "${commands[$k]}"
        done
        hyperfine -N --warmup 1 -r "$per_round" --export-json "$root/runs-$round.json" ${HYPERFINE_ARGS:-} "$@"
    done
    echo "package-compare.sh: $(uptime)" >&2

    # Where a cold lookup's time goes: TRACE cold lookups of each provider
    # under `dbus-monitor --profile` (the bus's own timestamps), the wall
    # clock around secret-tool taken by the shell.
    for n in "$items" "$small"; do
        for bus in sesame unlock; do
            for i in $(seq "$trace"); do
                "$root/stop-provider" "$(address "$bus-$n")"
                DBUS_SESSION_BUS_ADDRESS=$(address "$bus-$n") dbus-monitor --profile > "$root/trace-$bus-$n-$i.txt" 2>/dev/null &
                monitor=$!
                until grep -qs NameLost "$root/trace-$bus-$n-$i.txt"; do sleep 0.01; done   # monitoring
                { date +%s.%N; lookup "$(address "$bus-$n")" $((n / 2)); date +%s.%N; } > "$root/trace-$bus-$n-$i.wall"
                sleep 0.1; kill "$monitor"; wait "$monitor" 2>/dev/null || true
            done
        done
    done

    # Each provider fresh, activated by one lookup, the only one running.
    for bus in "${buses[@]}"; do "$root/stop-provider" "$(address "$bus")"; done
    for n in "$items" "$small"; do
        for bus in sesame unlock debian; do
            lookup "$(address "$bus-$n")" $((n / 2))
            memory "fresh:$bus:$n" "$(address "$bus-$n")" >> "$root/memory.txt"
            "$root/stop-provider" "$(address "$bus-$n")"
        done
    done
fi
echo "package-compare.sh: $(uptime); $(( $(date +%s) - started )) s in all" >&2

"$python" - "$built" "$stripped" "$gkd" "$root/memory.txt" "$root/mapped.txt" "$root" "$items" "$small" <<'PY'
import glob, json, os, statistics, sys
built, stripped, gkd, memory_file, mapped_file, root, items, small = sys.argv[1:]
mb = lambda n: n / 1e6
print()
print("| size | bytes | MB |")
print("| --- | --- | --- |")
for label, path in (("sesame as built", built), ("sesame stripped (installed)", stripped), ("gnome-keyring-daemon", gkd)):
    size = os.path.getsize(path)
    print(f"| {label} | {size:,} | {mb(size):.1f} |")
for line in open(mapped_file):
    label, files, total = line.split()
    total = int(total.split("=")[1])
    print(f"| files mapped by the running {label} ({files.split('=')[1]} files) | {total:,} | {mb(total):.1f} |")
summary = []
times = {}
for runs_file in sorted(glob.glob(os.path.join(root, "runs-*.json"))):
    for r in json.load(open(runs_file))["results"]:
        times.setdefault(r["command"], []).extend(r["times"])
if times:
    order = ["cold", "warm"]
    results = {name: {"median": statistics.median(t), "min": min(t), "mean": statistics.mean(t),
                      "stddev": statistics.stdev(t), "n": len(t)}
               for name, t in sorted(times.items(), key=lambda kv: (order.index(kv[0].split()[0]),
                   -int(kv[0].rsplit(", ", 1)[1].split()[0]), not kv[0].split()[1].startswith("sesame"), kv[0]))}
    print()
    print("| secret-tool lookup | runs | median ms | min ms | mean ± sd ms | Sesame / this, median (min) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, r in results.items():
        kind, rest = name.split(" ", 1)
        count = rest.rsplit(", ", 1)[1]
        base = results[f"{kind} sesame, {count}"]
        ratio = "" if r is base else f"**{base['median'] / r['median']:.2f}×** ({base['min'] / r['min']:.2f}×)"
        print(f"| {name} | {r['n']} | {r['median'] * 1e3:.1f} | {r['min'] * 1e3:.1f} | {r['mean'] * 1e3:.1f} ± {r['stddev'] * 1e3:.1f} | {ratio} |")
        if kind == "cold" and r is not base:
            summary.append(f"cold lookup, Sesame / {rest}: {base['median'] / r['median']:.2f}× median, "
                           f"{base['min'] / r['min']:.2f}× min  (goal: ≤ 1.5×)")
rows = {}
for line in open(memory_file):
    label, *fields = line.split()
    rows[label] = dict(f.split("=") for f in fields)
print()
print("| memory (MB) | VmRSS | RssAnon | RssFile | Pss | Pss_Anon | Pss_File | VmHWM | threads |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for label, v in rows.items():
    if label.startswith("fresh:"):
        _, who, count = label.split(":")
        who = {"sesame": "sesame", "unlock": "gnome-keyring --unlock", "debian": "gnome-keyring Debian line"}[who]
        what = f"{who}, {count} items, fresh (activated by one lookup)"
    else:
        what = f"{label}{' --unlock' if label != 'sesame' else ''}, {items} items stored and each looked up"
    print(f"| {what} | " + " | ".join(f"{int(v[k]) / 1024:.1f}" for k in ("VmRSS", "RssAnon", "RssFile", "Pss", "Pss_Anon", "Pss_File", "VmHWM"))
          + f" | {v['Threads']} |")
s, g = rows["sesame"], rows["gnome-keyring"]
print()
print(f"memory, Sesame / gnome-keyring, {items} items stored and looked up: VmRSS {int(s['VmRSS']) / int(g['VmRSS']):.2f}×, "
      f"Pss {int(s['Pss']) / int(g['Pss']):.2f}×, anonymous {int(s['RssAnon']) / int(g['RssAnon']):.2f}×  (goal: ≤ 2×)")
for count in (items, small):
    s, g = rows.get(f"fresh:sesame:{count}"), rows.get(f"fresh:unlock:{count}")
    if s and g:
        print(f"memory, Sesame / gnome-keyring --unlock, fresh, {count} items: VmRSS {int(s['VmRSS']) / int(g['VmRSS']):.2f}×, "
              f"Pss {int(s['Pss']) / int(g['Pss']):.2f}×, anonymous {int(s['RssAnon']) / int(g['RssAnon']):.2f}×")
traces = {}
for path in sorted(glob.glob(os.path.join(root, "trace-*.txt"))):
    _, bus, count, _ = os.path.basename(path).split("-")
    lines = [l.rstrip("\n").split("\t") for l in open(path) if not l.startswith("#")]
    try:
        call = next(l for l in lines if l[0] == "mc" and l[-1] == "StartServiceByName")
        client, asked = call[3], float(call[1])
        started = next(float(l[1]) for l in lines if l[0] == "mr" and l[4] == client and l[5] == call[2])
        hello = next(l for l in lines if l[0] == "mc" and l[-1] == "Hello" and float(l[1]) > asked)
        provider = next(l[4] for l in lines if l[0] == "mr" and float(l[1]) >= float(hello[1]) and l[3] == "org.freedesktop.DBus")
        last = max(float(l[1]) for l in lines if l[0] in ("mr", "err") and l[3] == provider and l[4] == client)
        begin, end = map(float, open(path[:-4] + ".wall").read().split())
    except (StopIteration, ValueError):
        continue
    traces.setdefault((bus, count), []).append((asked - begin, float(hello[1]) - asked, started - float(hello[1]),
                                                last - started, end - last, end - begin))
if traces:
    print()
    print("| cold lookup, median of traced runs (ms) | secret-tool start to StartServiceByName | to the provider's Hello (its start) "
          "| to the name's owner (StartServiceByName's reply) | the lookup's calls, to the last reply | to secret-tool's exit | wall |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for (bus, count), rows in sorted(traces.items(), key=lambda kv: (-int(kv[0][1]), kv[0][0] != "sesame")):
        who = "sesame" if bus == "sesame" else "gnome-keyring --unlock"
        print(f"| {who}, {count} items ({len(rows)} runs) | " + " | ".join(f"{statistics.median(r[i] for r in rows) * 1e3:.1f}" for i in range(6)) + " |")
for line in summary:
    print(line)
PY
if [ -f "$root/breakdown.txt" ]; then echo; cat "$root/breakdown.txt"; fi
exit 0
