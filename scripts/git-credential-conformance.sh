#!/usr/bin/env bash
# Git's own conformance suite for credential helpers, t0303-credential-external.sh,
# run against `git-credential-sesame`.
#
#   scripts/git-credential-conformance.sh prepare
#       Fetches the source of the installed git (Debian's source package, else
#       the matching upstream tarball) into $SESAME_GIT_SOURCE and builds the
#       little the test harness needs next to an installed git (t/helper/test-tool
#       and GIT-BUILD-OPTIONS). Needs root for apt-get; CI runs it (.ci/run).
#   scripts/git-credential-conformance.sh run BIN_DIR
#       Runs t0303 with GIT_TEST_CREDENTIAL_HELPER=sesame, BIN_DIR (holding
#       `sesame` and `git-credential-sesame`) first on PATH, against a private
#       vault. Prints git's TAP output; exits non-zero when any test fails.
set -euo pipefail

source_dir=${SESAME_GIT_SOURCE:-/var/cache/sesame-ci/git}
# What makes a tree "prepared": all three must exist.
prepared() {
    [ -x "$source_dir/t/helper/test-tool" ] && [ -f "$source_dir/GIT-BUILD-OPTIONS" ] && [ -d "$source_dir/templates/blt" ]
}

# Only the harness: the git under test is the installed one
# (GIT_TEST_INSTALLED), so git itself is not built.
build_harness() {
    local flags=(NO_GETTEXT=YesPlease NO_TCLTK=YesPlease NO_PERL=YesPlease NO_PYTHON=YesPlease
                 NO_CURL=YesPlease NO_EXPAT=YesPlease NO_OPENSSL=YesPlease)
    make -C "$source_dir" -j"$(nproc)" "${flags[@]}" t/helper/test-tool GIT-BUILD-OPTIONS >/dev/null
    make -C "$source_dir/templates" "${flags[@]}" >/dev/null
}

prepare() {
    if prepared; then
        echo "git source already prepared in $source_dir"
        return
    fi
    if [ -f "$source_dir/GIT-BUILD-OPTIONS" ]; then
        build_harness
        prepared
        return
    fi
    local version
    version=$(git --version | sed -n 's/^git version \([0-9.]*\).*/\1/p')
    local work
    work=$(mktemp -d)
    trap 'rm -rf "$work"' RETURN
    # deb-src in a file of our own; the system's sources are left as they are.
    local list=/etc/apt/sources.list.d/sesame-deb-src.sources
    if [ ! -f "$list" ] && [ -w /etc/apt/sources.list.d ]; then
        sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$list"
        apt-get update -qq || true
    fi
    local fetched=
    if (cd "$work" && apt-get source --download-only -qq "git=$(dpkg-query -W -f='${Version}' git)" >/dev/null 2>&1 && dpkg-source -x --skip-patches git_*.dsc tree >/dev/null); then
        fetched="$work/tree"
    else
        echo "apt-get source git failed; downloading git-$version from kernel.org" >&2
        curl -fsSL "https://www.kernel.org/pub/software/scm/git/git-$version.tar.xz" -o "$work/git.tar.xz"
        tar -C "$work" -xJf "$work/git.tar.xz"
        fetched="$work/git-$version"
    fi
    mkdir -p "$(dirname "$source_dir")"
    rm -rf "$source_dir"
    mv "$fetched" "$source_dir"
    build_harness
    prepared
    echo "git $version source prepared in $source_dir"
}

run() {
    local bin=${1:?usage: $0 run BIN_DIR}
    if ! prepared; then
        echo "no prepared git source tree in $source_dir; run (as root) $0 prepare" >&2
        exit 3
    fi
    [ -x "$bin/git-credential-sesame" ] && [ -x "$bin/sesame" ] || { echo "no sesame binaries in $bin" >&2; exit 3; }
    home=$(mktemp -d)
    trap 'rm -rf "$home"' EXIT
    export SESAME_VAULT="$home/vault/vault.sqlite"
    # A vault opened by its device key (no prompt per helper call); the
    # passcode slot's low scrypt cost only spares the debug build's time.
    printf 'conformance' | "$bin/sesame" init --passcode-fd 0 --scrypt-log2n 10 --no-interaction 2>"$home/init.log" || { cat "$home/init.log" >&2; exit 1; }
    # The harness writes its trash directory under the test directory; a copy
    # of t/ keeps the shared tree clean and lets runs go in parallel.
    local tests="$home/git"
    mkdir -p "$tests"
    cp -R "$source_dir/t" "$tests/t"
    for file in GIT-BUILD-OPTIONS; do cp "$source_dir/$file" "$tests/$file"; done
    ln -s "$source_dir/templates" "$tests/templates" 2>/dev/null || true
    cd "$tests/t"
    PATH="$bin:$PATH" GIT_TEST_INSTALLED=$(dirname "$(command -v git)") GIT_TEST_CREDENTIAL_HELPER=sesame \
        ./t0303-credential-external.sh -v
}

case "${1:-}" in
    prepare) prepare ;;
    run) shift; run "$@" ;;
    *) echo "usage: $0 prepare | run BIN_DIR" >&2; exit 2 ;;
esac
