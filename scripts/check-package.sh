#!/usr/bin/env bash
# The installed package, as a new user meets it (issue 35): run as root.
#
#   scripts/check-package.sh [dist/sesame_VERSION_ARCH.deb]
#
# Builds the package with scripts/package-deb.sh unless one is given; lintian
# must report no error; `systemd-analyze verify` must accept its units; it is
# installed with apt-get (which pulls in what it Depends on), and
# scripts/check-package-user.sh then runs as a new unprivileged user on private
# session buses that use the standard service folders, with gnome-keyring
# installed as on a desktop; /dev/uhid is the sesame-uhid group's only, and
# adding the user to it is what doctor then finds. Finally the package is
# removed, none of its files may be left, and purging removes the group.
# Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "check-package.sh: run as root (it installs and removes the package)" >&2; exit 2; }

deb=${1:-}
if [ -z "$deb" ]; then
    deb=$(scripts/package-deb.sh | tail -n 1)
fi
[ -f "$deb" ] || { echo "check-package.sh: no package at $deb" >&2; exit 1; }
deb=$(realpath "$deb")
echo "check-package.sh: checking $deb" >&2

# Lintian: no error (the warnings kept are listed, with their reasons, in packaging/lintian-overrides).
lintian --fail-on error,warning --tag-display-limit 0 "$deb"

if dpkg -s sesame >/dev/null 2>&1; then dpkg -r sesame >/dev/null; fi
# Recommends (fprintd, a pinentry, dbus-user-session, tpm2-tss) are what a desktop has; CI installs
# the components its checks use itself (.ci/run), so the result does not hang on a mirror's GTK stack.
apt-get install -y -qq --no-install-recommends "$deb" >/dev/null

user=sesame-pkg-$$
cleanup() {
    pkill -u "$user" 2>/dev/null || true
    sleep 0.2
    userdel -r "$user" 2>/dev/null || true
    if dpkg -s sesame >/dev/null 2>&1; then dpkg -r sesame >/dev/null || true; fi
}
trap cleanup EXIT

# /dev/uhid is opt-in (issue 44): the rule gives it to the sesame-uhid group, which exists and
# holds nobody; not to the seat's user (no uaccess), and no module is loaded at boot for it.
rule=/usr/lib/udev/rules.d/70-sesame-uhid.rules
grep -q 'KERNEL=="uhid".*GROUP="sesame-uhid".*MODE="0660"' "$rule" \
    || { echo "check-package.sh: the udev rule does not give /dev/uhid to the sesame-uhid group (0660)" >&2; exit 1; }
if grep -v "^[[:space:]]*#" "$rule" | grep -q uaccess; then echo "check-package.sh: the udev rule still gives /dev/uhid to the seat's user (uaccess)" >&2; exit 1; fi
[ ! -e /usr/lib/modules-load.d/sesame-uhid.conf ] || { echo "check-package.sh: uhid is loaded at boot for everyone" >&2; exit 1; }
getent group sesame-uhid >/dev/null || { echo "check-package.sh: postinst did not create the sesame-uhid group" >&2; exit 1; }
[ -z "$(getent group sesame-uhid | cut -d: -f4)" ] || { echo "check-package.sh: sesame-uhid has members: $(getent group sesame-uhid)" >&2; exit 1; }
if [ -e /dev/uhid ] && [ -n "$(find /dev/uhid -perm -o+w)" ]; then
    echo "check-package.sh: /dev/uhid is writable by everyone on this machine: $(ls -l /dev/uhid)" >&2; exit 1
fi

# The units, as systemd's user manager would load them (%t needs a runtime folder).
runtime=$(mktemp -d)
XDG_RUNTIME_DIR=$runtime systemd-analyze verify --user /usr/lib/systemd/user/sesame-secret-service.service \
    /usr/lib/systemd/user/sesame-ssh-agent.socket /usr/lib/systemd/user/sesame-ssh-agent.service \
    /usr/lib/systemd/user/sesame-passkey.service
rm -rf "$runtime"

# A new account: its home as Debian's useradd makes it.
useradd -m -s /bin/bash "$user"
home=$(getent passwd "$user" | cut -d: -f6)
install -m 0755 scripts/check-package-user.sh "$home/check-package-user.sh"
runuser -u "$user" -- env -i HOME="$home" USER="$user" LOGNAME="$user" PATH=/usr/bin:/bin LANG=C.UTF-8 \
    bash ${CHECK_TRACE:+-x} "$home/check-package-user.sh"

# The administrator opts the user in, as `sesame setup passkey` told them: at the next login
# doctor finds the membership and no longer asks for it (what is left is the machine's: the module).
usermod -aG sesame-uhid "$user"
passkeys=$(runuser -u "$user" -- env -i HOME="$home" USER="$user" LOGNAME="$user" PATH=/usr/bin:/bin LANG=C.UTF-8 \
    sesame doctor --json | /usr/bin/python3 -c '
import json, sys
for c in json.load(sys.stdin)["checks"]:
    if c["check"] == "passkeys":
        print((c.get("facts") or {}).get("member"), "|", c.get("fix") or "")') || true
case "$passkeys" in
    "true | "*usermod*) echo "check-package.sh: doctor still asks for usermod after it: '$passkeys'" >&2; exit 1 ;;
    "true | "*) ;;
    *) echo "check-package.sh: doctor after usermod -aG sesame-uhid: '$passkeys'" >&2; exit 1 ;;
esac

# Removing it leaves none of its files (folders other packages share excepted); purging, not its group.
pkill -u "$user" 2>/dev/null || true
files=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' | grep -v '/$')
dpkg -r sesame >/dev/null
left=0
for file in $files; do
    if [ -e "$file" ] || [ -L "$file" ]; then echo "check-package.sh: left after dpkg -r: $file" >&2; left=1; fi
done
[ "$left" = 0 ] || exit 1
getent group sesame-uhid >/dev/null || { echo "check-package.sh: dpkg -r removed the sesame-uhid group (only purge does)" >&2; exit 1; }
dpkg -P sesame >/dev/null
if getent group sesame-uhid >/dev/null; then echo "check-package.sh: dpkg -P left the sesame-uhid group" >&2; exit 1; fi
echo "check-package.sh: the package installs, works for a new user, and is removed without a trace" >&2
