#!/bin/sh
# Builds the release `sesame` the fast way and installs it with everything
# around it: git-credential-sesame (a symlink; sesame acts on the name it is
# run by), the man pages, bash/zsh/fish completions, the systemd user units
# and the D-Bus activation file for the Secret Service.
#
# Usage: sudo scripts/install.sh                    (into /usr/local)
#        PREFIX=$HOME/.local scripts/install.sh     (for yourself)
#        DESTDIR=/tmp/pkg PREFIX=/usr scripts/install.sh   (staged, for packagers;
#                                        scripts/package-deb.sh does this)
#        scripts/install.sh --uninstall    (same PREFIX and DESTDIR: removes
#                                        what this script installs there)
#
# The fast way (docs/PERFORMANCE.md, "Process start"): the Swift standard
# library and Foundation linked statically (`--static-swift-stdlib`), so
# starting `sesame` needs no dynamic loading of the Swift runtime's shared
# libraries, their relocations and their symbol lookups; `-Xlinker
# --gc-sections` drops the code nothing calls. The installed copy is
# stripped (about half the size; nothing looks its symbols up at run
# time) and loses SwiftPM's RUNPATH.
#
#   SESAME_BINARY=/path/to/sesame  installs that binary instead of building.
#   SCRATCH=dir                    the build directory (default .build-install).
#
# Where things go, below PREFIX: bin/, share/man/man1/, the completions'
# usual share/ folders (zsh: share/zsh/vendor-completions for /usr, as
# Debian's zsh reads, else share/zsh/site-functions), the units in
# lib/systemd/user (share/systemd/user for ~/.local, the folder systemd
# --user reads there), and the D-Bus file in share/sesame/dbus-1/services,
# where no bus looks: a user opts in with `sesame setup secret-service`
# (see contrib/dbus). The paths inside the units and the D-Bus file are
# this PREFIX's bin/.
set -eu

me=install.sh
umask 022  # folders made on the way (share/fish, …) must be readable by all
say() { echo "$me: $*" >&2; }
die() { say "$*"; exit 1; }

action=install
case "${1:-}" in
    "") ;;
    --uninstall) action=uninstall ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) say "unknown argument: $1 (try --help)"; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PREFIX:-/usr/local}
destdir=${DESTDIR:-}
case "$prefix" in
    *[[:space:]]*) say "PREFIX must not contain spaces (got '$prefix')"; exit 2 ;;
    /*) ;;
    *) say "PREFIX must be an absolute path (got $prefix)"; exit 2 ;;
esac
# One spelling for the comparisons below: no trailing slash.
while [ "$prefix" != / ] && [ "${prefix%/}" != "$prefix" ]; do prefix=${prefix%/}; done

bindir=$prefix/bin
mandir=$prefix/share/man/man1
bash_dir=$prefix/share/bash-completion/completions
case "$prefix" in
    /usr) zsh_dir=$prefix/share/zsh/vendor-completions ;;
    *) zsh_dir=$prefix/share/zsh/site-functions ;;
esac
fish_dir=$prefix/share/fish/vendor_completions.d
if [ -n "${HOME:-}" ] && [ "$prefix" = "${HOME%/}/.local" ]; then
    unit_dir=$prefix/share/systemd/user
else
    unit_dir=$prefix/lib/systemd/user
fi
sesame_share=$prefix/share/sesame
dbus_dir=$sesame_share/dbus-1/services
units="sesame-secret-service.service sesame-ssh-agent.service sesame-ssh-agent.socket sesame-passkey.service"
dbus_file=org.freedesktop.secrets.service

# Every installed file, as PREFIX paths (DESTDIR is added when used).
# git-credential-sesame is a symlink and is handled on its own.
files="$bindir/sesame $mandir/sesame.1 $mandir/git-credential-sesame.1
$bash_dir/sesame $zsh_dir/_sesame $fish_dir/sesame.fish $dbus_dir/$dbus_file"
for unit in $units; do files="$files $unit_dir/$unit"; done

if [ "$action" = uninstall ]; then
    removed=0
    link=$destdir$bindir/git-credential-sesame
    if [ -L "$link" ] && [ "$(readlink "$link")" = sesame ]; then
        rm -f "$link"; say "removed $link"; removed=$((removed + 1))
    elif [ -e "$link" ] || [ -L "$link" ]; then
        say "kept $link: not the symlink to sesame this script makes"
    fi
    for file in $files; do
        if [ -f "$destdir$file" ] || [ -L "$destdir$file" ]; then
            rm -f "$destdir$file"; say "removed $destdir$file"; removed=$((removed + 1))
        fi
    done
    # Only Sesame's own folders; bin/, share/man and the like are shared.
    for dir in "$dbus_dir" "${dbus_dir%/services}" "$sesame_share"; do
        if [ -d "$destdir$dir" ] && rmdir "$destdir$dir" 2>/dev/null; then
            say "removed $destdir$dir/"
        fi
    done
    if [ "$removed" -eq 0 ]; then
        say "nothing of sesame's was installed under $destdir$prefix"
    else
        say "removed $removed files under $destdir$prefix"
    fi
    exit 0
fi

if [ -z "${SESAME_BINARY:-}" ]; then
    command -v swift >/dev/null 2>&1 || die "needs a Swift 6.1+ toolchain (swift.org/install)"
    scratch=${SCRATCH:-"$root/.build-install"}
    say "building the release sesame (static Swift standard library) in $scratch"
    (cd "$root" && swift build -c release --product sesame --scratch-path "$scratch" \
        --static-swift-stdlib -Xlinker --gc-sections) >&2
    SESAME_BINARY="$scratch/release/sesame"
fi
if [ ! -f "$SESAME_BINARY" ] || [ ! -x "$SESAME_BINARY" ]; then die "no sesame binary at $SESAME_BINARY"; fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sesame-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

cp "$SESAME_BINARY" "$work/sesame"
if command -v strip >/dev/null 2>&1; then
    # As Debian's dh_strip does for programs.
    strip --remove-section=.comment --remove-section=.note "$work/sesame"
else
    say "no strip (binutils): installing the binary with its symbols"
fi
# SwiftPM links RUNPATH=$ORIGIN for shared libraries beside the binary;
# the static build has none, and an installed program should not look in
# its own folder for libraries (Debian: lintian custom-library-search-path).
# A build linking the Swift runtime dynamically needs its RUNPATH: kept.
runpath=$(readelf -d "$work/sesame" 2>/dev/null | sed -n 's/.*(RUNPATH).*\[\(.*\)\]$/\1/p')
if [ "$runpath" = "\$ORIGIN" ]; then
    if command -v chrpath >/dev/null 2>&1; then
        chrpath -d "$work/sesame" >/dev/null
    elif command -v patchelf >/dev/null 2>&1; then
        patchelf --remove-rpath "$work/sesame"
    else
        say "no chrpath or patchelf: the binary keeps its RUNPATH (\$ORIGIN)"
    fi
fi
"$work/sesame" --version >/dev/null || die "the stripped sesame does not run"

# Completions come from the binary itself, so they match its commands.
# bash sources its completions: the generated `#!/bin/bash` goes.
"$work/sesame" --generate-completion-script bash > "$work/generated.bash"
sed '1{/^#!/d;}' "$work/generated.bash" > "$work/sesame.bash"
"$work/sesame" --generate-completion-script zsh > "$work/_sesame"
"$work/sesame" --generate-completion-script fish > "$work/sesame.fish"

for name in $units $dbus_file; do
    case "$name" in
        "$dbus_file") template=$root/contrib/dbus/$name.in ;;
        *) template=$root/contrib/systemd/$name.in ;;
    esac
    sed "s|@bindir@|$bindir|g" "$template" > "$work/$name"
done

install -d -m 0755 "$destdir$bindir" "$destdir$mandir" "$destdir$bash_dir" \
    "$destdir$zsh_dir" "$destdir$fish_dir" "$destdir$unit_dir" "$destdir$dbus_dir"
put() { # mode source target
    install -m "$1" "$2" "$destdir$3"
    say "installed $destdir$3"
}
put 0755 "$work/sesame" "$bindir/sesame"
ln -sfn sesame "$destdir$bindir/git-credential-sesame"
say "installed $destdir$bindir/git-credential-sesame -> sesame"
put 0644 "$root/docs/man/sesame.1" "$mandir/sesame.1"
put 0644 "$root/docs/man/git-credential-sesame.1" "$mandir/git-credential-sesame.1"
put 0644 "$work/sesame.bash" "$bash_dir/sesame"
put 0644 "$work/_sesame" "$zsh_dir/_sesame"
put 0644 "$work/sesame.fish" "$fish_dir/sesame.fish"
for unit in $units; do put 0644 "$work/$unit" "$unit_dir/$unit"; done
put 0644 "$work/$dbus_file" "$dbus_dir/$dbus_file"

case "$unit_dir" in
    /usr/lib/systemd/user|/usr/local/lib/systemd/user|"${HOME:-/nonexistent}"/.local/share/systemd/user) ;;
    *) say "note: systemd --user does not read $unit_dir; link the units into ~/.config/systemd/user to use them" ;;
esac
say "installed sesame into ${destdir:+$destdir}$prefix; remove with: ${destdir:+DESTDIR=$destdir }PREFIX=$prefix $0 --uninstall"
