#!/usr/bin/env bash
# The user's half of scripts/check-package.sh: a new account, the installed
# /usr/bin/sesame, private session buses whose service folders are the
# standard ones (so gnome-keyring's activation file is there, as on a
# desktop). Each bus stands for one login. Checks, in order:
#   1. gnome-keyring holds items; `sesame init`, then `sesame setup
#      secret-service` copies them and takes over at once, on a bus that
#      started before ~/.local/share/dbus-1/services existed (a new user's);
#   2. on the next bus `secret-tool lookup` activates /usr/bin/sesame, not
#      gnome-keyring, and reads the copied items;
#   3. git credential approve/fill through `sesame setup git`;
#   4. two shells that each eval `sesame ssh-agent --print-env` get one agent;
#      /dev/uhid is not a new user's: `sesame setup passkey` refuses, and it
#      and doctor name the group an administrator adds the user to;
#   5. `sesame doctor --json` says all that, and reports a broken helper
#      (not on PATH) and a killed agent with their fixes;
#   6. `sesame setup secret-service --undo` gives gnome-keyring (unlocked at
#      login, as PAM does) the item made while Sesame served, and the next
#      bus activates gnome-keyring again.
set -euo pipefail
cd "$HOME"
fail() { echo "check-package-user.sh: $*" >&2; exit 1; }
step() { echo "== $*" >&2; }

export XDG_RUNTIME_DIR=$HOME/.run
mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
sesame=/usr/bin/sesame
[ "$(command -v sesame)" = "$sesame" ] || fail "sesame is not /usr/bin/sesame on PATH"
$sesame --version | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+ \(vault format [0-9]+\)$' || fail "sesame --version: $($sesame --version)"

bus_pid=
new_bus() {
    [ -z "$bus_pid" ] || kill "$bus_pid" 2>/dev/null || true
    local out
    out=$(dbus-daemon --session --fork --print-address=1 --print-pid=1)
    DBUS_SESSION_BUS_ADDRESS=$(echo "$out" | sed -n 1p)
    bus_pid=$(echo "$out" | sed -n 2p)
    export DBUS_SESSION_BUS_ADDRESS
}
# The Secret Service's owner now, as `sesame doctor --json` reports it
# (doctor exits 1 while a role it checks is broken: the JSON is what counts).
doctor_json() { $sesame doctor --json "$@" || true; }
owner() {
    doctor_json | /usr/bin/python3 -c '
import json, sys
for c in json.load(sys.stdin)["checks"]:
    if c["check"] == "secret-service":
        print((c.get("facts") or {}).get("ownerExecutable", ""))'
}
status_of() {
    doctor_json --bus-address "$DBUS_SESSION_BUS_ADDRESS" | /usr/bin/python3 -c '
import json, sys
doc = json.load(sys.stdin)
for c in doc["checks"]:
    if c["check"] == sys.argv[1]:
        print(c["status"], "|", c.get("fix") or "")' "$1" || true
}
stop_owner() {
    local pid
    pid=$(doctor_json | /usr/bin/python3 -c '
import json, sys
for c in json.load(sys.stdin)["checks"]:
    if c["check"] == "secret-service":
        print((c.get("facts") or {}).get("ownerPid", ""))')
    if [ -n "$pid" ]; then kill "$pid"; while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done; fi
}
trap '[ -z "$bus_pid" ] || kill "$bus_pid" 2>/dev/null; pkill -u "$(id -u)" -f "sesame ssh-agent" 2>/dev/null || true' EXIT

step "0. the README's quick start, with the installed sesame"
P=$(mktemp) && printf %s 'correct horse battery' > "$P"
quick=$(SESAME_VAULT=$(mktemp -d)/vault.sqlite bash -c 'sesame init --passcode-only --scrypt-log2n 10 --passcode-fd 3 3<"$0" 2>/dev/null && printf %s s3cr3t-token | sesame put api-token --passcode-fd 3 3<"$0" && sesame get api-token --passcode-fd 3 3<"$0"' "$P")
[ "$quick" = s3cr3t-token ] || fail "the quick start printed '$quick'"
rm -f "$P"

step "1. gnome-keyring holds items; sesame init; sesame setup secret-service copies them"
new_bus
printf 'login-password\n' | gnome-keyring-daemon --foreground --unlock --components=secrets >"$HOME/keyring.log" 2>&1 &
for _ in $(seq 100); do [ "$(owner)" = /usr/bin/gnome-keyring-daemon ] && break; sleep 0.1; done
[ "$(owner)" = /usr/bin/gnome-keyring-daemon ] || fail "gnome-keyring did not take the bus: $(cat "$HOME/keyring.log")"
printf %s 'mail-secret' | secret-tool store --label='Mail' service mail user ana
printf %s 'wifi-secret' | secret-tool store --label='Wi-Fi' service wifi ssid home
[ "$(secret-tool lookup service mail user ana)" = mail-secret ] || fail "gnome-keyring does not hold the item"

printf %s 'correct horse battery' > "$HOME/.passcode" && chmod 600 "$HOME/.passcode"
$sesame init --passcode-fd 3 --no-interaction 3<"$HOME/.passcode" 2>"$HOME/init.log" || fail "sesame init: $(cat "$HOME/init.log")"
[ ! -e "$HOME/.local/share/dbus-1/services" ] || fail "the user's service folder exists before setup: this is not a new user's login"
$sesame setup secret-service --no-interaction | tee "$HOME/setup.log"
grep -q 'took org.freedesktop.secrets from gnome-keyring' "$HOME/setup.log" || fail "setup did not take the name from gnome-keyring"
# This login, at once: the bus that started before the folder existed starts Sesame.
[ "$(owner)" = /usr/bin/sesame ] || fail "after setup the bus has $(owner), not /usr/bin/sesame"
[ "$(secret-tool lookup service mail user ana)" = mail-secret ] || fail "secret-tool lookup through Sesame on the login setup ran in"
$sesame setup secret-service --no-interaction >"$HOME/setup2.log"   # twice: nothing more changes
[ "$($sesame ls --no-interaction | grep -c 'secret-service/')" = 2 ] || fail "the vault does not hold the 2 copied items: $($sesame ls --no-interaction)"
[ -f "$HOME/.local/share/dbus-1/services/org.freedesktop.secrets.service" ] || fail "no user activation file"
grep -q '^Hidden=true' "$HOME/.config/autostart/gnome-keyring-secrets.desktop" || fail "gnome-keyring's secrets autostart is still on"
stop_owner

step "2. the next login: secret-tool activates /usr/bin/sesame and reads the copied items"
new_bus
[ "$(secret-tool lookup service mail user ana)" = mail-secret ] || fail "secret-tool lookup through Sesame"
[ "$(secret-tool lookup service wifi ssid home)" = wifi-secret ] || fail "secret-tool lookup through Sesame (2)"
[ "$(owner)" = /usr/bin/sesame ] || fail "the bus started $(owner), not /usr/bin/sesame"

step "3. git credential approve/fill through credential.helper sesame"
$sesame setup git
[ "$(git config --global credential.helper)" = sesame ] || fail "credential.helper is $(git config --global credential.helper)"
printf 'protocol=https\nhost=example.com\nusername=ana\npassword=git-secret\n\n' | GIT_TERMINAL_PROMPT=0 git credential approve
filled=$(printf 'protocol=https\nhost=example.com\n\n' | GIT_TERMINAL_PROMPT=0 git credential fill)
echo "$filled" | grep -qx 'password=git-secret' || fail "git credential fill gave: $filled"

step "4. two shells that eval --print-env share one agent"
$sesame setup ssh-agent | tee "$HOME/agent-setup.log"
grep -q 'eval "$(sesame ssh-agent --print-env)"' "$HOME/agent-setup.log" || fail "setup ssh-agent did not print the rc line"
$sesame key create deploy --service ssh --algorithm ed25519 --access none --no-interaction >/dev/null
first=$(bash -c 'eval "$(sesame ssh-agent --print-env)"; echo "$SSH_AUTH_SOCK $SSH_AGENT_PID"')
second=$(bash -c 'eval "$(sesame ssh-agent --print-env)"; echo "$SSH_AUTH_SOCK $SSH_AGENT_PID"')
[ "$first" = "$second" ] && [ -n "${first#* }" ] || fail "two shells got '$first' and '$second'"
export SSH_AUTH_SOCK=${first% *} SSH_AGENT_PID=${first#* }
ssh-add -L | grep -q '^ssh-ed25519 ' || fail "ssh-add -L through the shared agent"

step "4b. /dev/uhid is not a new user's: setup passkey refuses, naming the group an administrator adds them to, and records nothing"
[ ! -w /dev/uhid ] || fail "a new user may open /dev/uhid by default: $(ls -l /dev/uhid)"
status=0
$sesame setup passkey 2>"$HOME/passkey-setup.err" || status=$?
[ "$status" = 7 ] || fail "setup passkey without /dev/uhid exited $status: $(cat "$HOME/passkey-setup.err")"
grep -q "not in the sesame-uhid group.*fix: as root.*usermod -aG sesame-uhid $USER" "$HOME/passkey-setup.err" \
    || fail "setup passkey did not name the command that opts the user in: $(cat "$HOME/passkey-setup.err")"
[ ! -e "$HOME/.local/state/sesame/setup/passkey.json" ] || fail "setup passkey recorded a role it refused"
case "$(status_of passkeys)" in "warning | "*"usermod -aG sesame-uhid $USER"*) ;; *) fail "doctor's passkeys check: $(status_of passkeys)" ;; esac

step "5. sesame doctor --json: every role works; then a broken helper and a killed agent, each with its fix"
for check in secret-service ssh-agent git vault; do
    [ "$(status_of $check | cut -d' ' -f1)" = ok ] || fail "doctor: $check is $(status_of $check)"
done
$sesame doctor >/dev/null || fail "doctor exits non-zero with every role working: $($sesame doctor)"
mkdir -p "$HOME/gitonly" && ln -sf /usr/bin/git "$HOME/gitonly/git" && ln -sf /usr/bin/python3 "$HOME/gitonly/python3"
broken=$(PATH=$HOME/gitonly status_of git)
case "$broken" in "failed | "*PATH*) ;; *) fail "doctor without the helper on PATH: $broken" ;; esac
if PATH=$HOME/gitonly $sesame doctor >/dev/null; then fail "doctor exits 0 with git's helper missing"; fi
kill "$SSH_AGENT_PID"; while kill -0 "$SSH_AGENT_PID" 2>/dev/null; do sleep 0.1; done
killed=$(status_of ssh-agent)
case "$killed" in "failed | "*print-env*) ;; *) fail "doctor with the agent killed: $killed" ;; esac

step "6. setup secret-service --undo gives gnome-keyring the item made while Sesame served; the next login's bus activates gnome-keyring"
new_bus
printf %s 'chat-token' | secret-tool store --label='Chat' service chat
[ "$(owner)" = /usr/bin/sesame ] || fail "the item was not made while Sesame served: $(owner)"
# The login daemon PAM starts with the login password; the bus's gnome-keyring joins it.
printf 'login-password\n' | gnome-keyring-daemon --daemonize --login >/dev/null   # the same bytes as step 1's --unlock
# The item is secret-tool's (an app): the owner allows sesame to read it, in the dialog pinentry shows.
printf '#!/bin/sh\necho OK\nwhile read -r line; do case "$line" in BYE*) echo OK; exit 0;; *) echo OK;; esac; done\n' >"$HOME/pinentry-allow"
chmod 700 "$HOME/pinentry-allow"
PINENTRY=$HOME/pinentry-allow DISPLAY=:99 $sesame setup secret-service --undo | tee "$HOME/undo.log"
[ ! -e "$HOME/.local/share/dbus-1/services/org.freedesktop.secrets.service" ] || fail "--undo left the activation file"
grep -q 'gave back "Chat"' "$HOME/undo.log" || fail "--undo did not give back the item made while Sesame served"
[ "$(owner)" = /usr/bin/gnome-keyring-daemon ] || fail "after --undo the bus has $(owner), not gnome-keyring"
[ "$(secret-tool lookup service chat)" = chat-token ] || fail "gnome-keyring does not hold the item given back"
[ "$(secret-tool lookup service mail user ana)" = mail-secret ] || fail "gnome-keyring lost an item it had"
stop_owner
new_bus
secret-tool lookup service none user none >/dev/null 2>&1 || true
[ "$(owner)" = /usr/bin/gnome-keyring-daemon ] || fail "after --undo the bus started $(owner)"
stop_owner
$sesame setup git --undo && $sesame setup ssh-agent --undo
[ -z "$(git config --global --get-all credential.helper || true)" ] || fail "setup git --undo left credential.helper"
echo "check-package-user.sh: all checks passed" >&2
