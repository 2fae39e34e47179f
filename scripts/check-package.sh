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
# installed as on a desktop. Finally the package is removed and none of its
# files may be left. Exits non-zero on the first failure.
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

# The passkey authenticator's device access: the udev rule and the module.
grep -q 'KERNEL=="uhid".*TAG+="uaccess"' /usr/lib/udev/rules.d/70-sesame-uhid.rules \
    || { echo "check-package.sh: no uaccess rule for /dev/uhid" >&2; exit 1; }
grep -qx uhid /usr/lib/modules-load.d/sesame-uhid.conf || { echo "check-package.sh: uhid is not loaded at boot" >&2; exit 1; }

# Removing it leaves none of its files (folders other packages share excepted).
pkill -u "$user" 2>/dev/null || true
files=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' | grep -v '/$')
dpkg -r sesame >/dev/null
left=0
for file in $files; do
    if [ -e "$file" ] || [ -L "$file" ]; then echo "check-package.sh: left after dpkg -r: $file" >&2; left=1; fi
done
[ "$left" = 0 ] || exit 1
echo "check-package.sh: the package installs, works for a new user, and is removed without a trace" >&2
