#!/usr/bin/env bash
# The upstream test suites of python3-secretstorage and python3-keyring (its
# SecretService backend), run against whatever Secret Service provider owns
# org.freedesktop.secrets on $DBUS_SESSION_BUS_ADDRESS (issue 25).
#
#   scripts/secret-service-conformance.sh prepare
#       Fetches the source of the installed python3-secretstorage and
#       python3-keyring (Debian's source packages, else the upstream sdists
#       that Debian's orig tarballs are, checked against the .dsc's SHA-256)
#       into $SESAME_SECRETSTORAGE_SOURCE and $SESAME_KEYRING_SOURCE. Needs
#       root for apt-get; CI runs it (.ci/run).
#   scripts/secret-service-conformance.sh run secretstorage|keyring
#       Runs that suite (secretstorage's tests/ with unittest, keyring's
#       tests/backends/test_SecretService.py with pytest, both verbose) with
#       Debian's python3 and the installed modules, against the provider on
#       $DBUS_SESSION_BUS_ADDRESS. Exits 3 when the source is not prepared,
#       else with the suite's status.
set -euo pipefail

secretstorage_dir=${SESAME_SECRETSTORAGE_SOURCE:-/var/cache/sesame-ci/secretstorage}
keyring_dir=${SESAME_KEYRING_SOURCE:-/var/cache/sesame-ci/keyring}
# Debian's interpreter: the installed modules are in its dist-packages, and a
# python3 earlier on PATH (pyenv) would not see them.
python=/usr/bin/python3

prepared() {
    case "$1" in
        secretstorage) [ -f "$secretstorage_dir/tests/test_item.py" ] ;;
        keyring) [ -f "$keyring_dir/tests/backends/test_SecretService.py" ] ;;
    esac
}

# fetch BINARY_PACKAGE SOURCE_PACKAGE PYPI_NAME DESTINATION
fetch() {
    local binary=$1 source=$2 pypi=$3 destination=$4
    local version upstream work
    version=$(dpkg-query -W -f='${Version}' "$binary")
    upstream=${version%-*}
    upstream=${upstream#*:}
    work=$(mktemp -d)
    # shellcheck disable=SC2064 # the directory is known now, not at return
    trap "rm -rf '$work'; trap - RETURN" RETURN
    # deb-src in a file of our own (shared with git-credential-conformance.sh);
    # the system's sources are left as they are.
    local list=/etc/apt/sources.list.d/sesame-deb-src.sources
    if [ ! -f "$list" ] && [ -w /etc/apt/sources.list.d ]; then
        sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$list"
        apt-get update -qq || true
    fi
    local fetched=
    if (cd "$work" && apt-get source --download-only -qq "$source=$version" >/dev/null 2>&1 \
            && dpkg-source -x --skip-patches "${source}_"*.dsc tree >/dev/null 2>&1); then
        fetched="$work/tree"
    else
        # Debian's orig tarball of both is the sdist on PyPI: when the archive
        # (or a mirror without sources) fails, the same bytes come from there.
        echo "apt-get source $source failed; downloading $pypi $upstream from PyPI" >&2
        local url expected
        url=$(curl -fsSL "https://pypi.org/simple/$pypi/" | grep -oiE "https://[^\"#]*/$pypi-$upstream\.tar\.gz#sha256=[0-9a-f]{64}" | head -n 1)
        [ -n "$url" ] || { echo "no sdist of $pypi $upstream on PyPI" >&2; return 1; }
        expected=${url##*#sha256=}
        # The .dsc, when apt-get got that far, names the orig tarball's digest.
        local dsc
        dsc=$(ls "$work/${source}_"*.dsc 2>/dev/null | head -n 1 || true)
        if [ -n "$dsc" ]; then
            expected=$(sed -n '/^Checksums-Sha256:/,/^[^ ]/s/^ \([0-9a-f]\{64\}\) [0-9]* .*\.orig\.tar\.[a-z0-9]*$/\1/p' "$dsc" | head -n 1)
        fi
        curl -fsSL "${url%%#*}" -o "$work/sdist.tar.gz"
        echo "$expected  $work/sdist.tar.gz" | sha256sum -c --quiet - \
            || { echo "$pypi $upstream from PyPI is not Debian's orig tarball" >&2; return 1; }
        mkdir "$work/tree"
        tar -C "$work/tree" --strip-components=1 -xzf "$work/sdist.tar.gz"
        fetched="$work/tree"
    fi
    mkdir -p "$(dirname "$destination")"
    rm -rf "$destination"
    mv "$fetched" "$destination"
    echo "$source $version source prepared in $destination"
}

prepare() {
    if prepared secretstorage; then
        echo "secretstorage source already prepared in $secretstorage_dir"
    else
        fetch python3-secretstorage python-secretstorage SecretStorage "$secretstorage_dir"
        prepared secretstorage
    fi
    if prepared keyring; then
        echo "keyring source already prepared in $keyring_dir"
    else
        fetch python3-keyring python-keyring keyring "$keyring_dir"
        prepared keyring
    fi
}

run() {
    local suite=${1:?usage: $0 run secretstorage|keyring}
    case "$suite" in secretstorage|keyring) ;; *) echo "no suite $suite" >&2; exit 2 ;; esac
    if ! prepared "$suite"; then
        echo "no prepared $suite source; run (as root) $0 prepare" >&2
        exit 3
    fi
    [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || { echo "DBUS_SESSION_BUS_ADDRESS is not set" >&2; exit 3; }
    # Only the tests are copied, into a directory of their own: the source's
    # own package must not shadow the installed module under test, and the
    # shared tree stays clean.
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cd "$work"
    case "$suite" in
        secretstorage)
            cp -R "$secretstorage_dir/tests" tests
            "$python" -m unittest discover -v -s tests 2>&1
            ;;
        keyring)
            mkdir -p tests
            cp -R "$keyring_dir/tests/backends" tests/backends
            cp "$keyring_dir/pytest.ini" .
            "$python" -m pytest -v -p no:cacheprovider tests/backends/test_SecretService.py 2>&1
            ;;
    esac
}

case "${1:-}" in
    prepare) prepare ;;
    run) shift; run "$@" ;;
    *) echo "usage: $0 prepare | run secretstorage|keyring" >&2; exit 2 ;;
esac
