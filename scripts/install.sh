#!/bin/sh
# Builds the release `sesame` the fast way and installs it with its man page
# and shell completions.
#
# Usage: scripts/install.sh            (into /usr/local; run with sudo)
#        PREFIX=$HOME/.local scripts/install.sh
#        DESTDIR=/tmp/pkg PREFIX=/usr scripts/install.sh   (staged, for packagers)
#
# The fast way (docs/PERFORMANCE.md, "Process start"): the Swift standard
# library and Foundation linked statically (`--static-swift-stdlib`), so
# starting `sesame` needs no dynamic loading of the Swift runtime's shared
# libraries, their relocations and their symbol lookups; `-Xlinker
# --gc-sections` drops the code nothing calls.
#
#   SESAME_BINARY=/path/to/sesame  installs that binary instead of building.
#   SCRATCH=dir                    the build directory (default .build-install).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PREFIX:-/usr/local}
destdir=${DESTDIR:-}
case "$prefix" in
    /*) ;;
    *) echo "install.sh: PREFIX must be an absolute path (got $prefix)" >&2; exit 2 ;;
esac

if [ -z "${SESAME_BINARY:-}" ]; then
    command -v swift >/dev/null 2>&1 || { echo "install.sh: needs a Swift 6.1+ toolchain (swift.org/install)" >&2; exit 1; }
    scratch=${SCRATCH:-"$root/.build-install"}
    echo "install.sh: building the release sesame (static Swift standard library) in $scratch" >&2
    (cd "$root" && swift build -c release --product sesame --scratch-path "$scratch" \
        --static-swift-stdlib -Xlinker --gc-sections)
    SESAME_BINARY="$scratch/release/sesame"
fi
[ -x "$SESAME_BINARY" ] || { echo "install.sh: no sesame binary at $SESAME_BINARY" >&2; exit 1; }

bin="$destdir$prefix/bin"
man="$destdir$prefix/share/man/man1"
bash_dir="$destdir$prefix/share/bash-completion/completions"
zsh_dir="$destdir$prefix/share/zsh/site-functions"
fish_dir="$destdir$prefix/share/fish/vendor_completions.d"

# Completions come from the binary itself, so they match its commands.
completions=$(mktemp -d "${TMPDIR:-/tmp}/sesame-install-XXXXXX")
trap 'rm -rf "$completions"' EXIT INT TERM
"$SESAME_BINARY" --generate-completion-script bash > "$completions/sesame"
"$SESAME_BINARY" --generate-completion-script zsh > "$completions/_sesame"
"$SESAME_BINARY" --generate-completion-script fish > "$completions/sesame.fish"

install -d -m 0755 "$bin" "$man" "$bash_dir" "$zsh_dir" "$fish_dir"
install -m 0755 "$SESAME_BINARY" "$bin/sesame"
install -m 0644 "$root/docs/man/sesame.1" "$man/sesame.1"
install -m 0644 "$completions/sesame" "$bash_dir/sesame"
install -m 0644 "$completions/_sesame" "$zsh_dir/_sesame"
install -m 0644 "$completions/sesame.fish" "$fish_dir/sesame.fish"

echo "install.sh: installed $prefix/bin/sesame, its man page and bash/zsh/fish completions${destdir:+ under $destdir}" >&2
