#!/bin/sh
# Builds the Debian package dist/sesame_<version>_<arch>.deb and prints its
# path as the last line of standard output (everything else goes to
# standard error).
#
# Usage: scripts/package-deb.sh
#        sudo apt install ./dist/sesame_<version>_<arch>.deb
#
#   SESAME_BINARY=/path/to/sesame  packages that binary instead of building
#                                  the release one (as scripts/install.sh).
#   SCRATCH=dir                    the build directory (default .build-install).
#   MAINTAINER="Name <address>"    the Maintainer field instead of packaging/control.in's.
#
# The file layout is scripts/install.sh's (DESTDIR=staging PREFIX=/usr), so
# the package and a from-source install never differ; this script adds what
# Debian asks of a package: compressed man pages, the copyright and
# changelog files, md5sums, the control file and the maintainer scripts
# (postinst/postrm: the sesame-uhid group), from packaging/. The
# version is the one `sesame --version` prints. Depends is what the binary
# links (dpkg-shlibdeps) plus the libraries its core loads with dlopen
# (libpam, libsystemd); those only some features load (tpm2-tss, OpenSSL
# for the Secret Service's encrypted sessions) are Recommends.
# Needs dpkg-dev (dpkg-shlibdeps), binutils (strip) and chrpath.
set -eu

me=package-deb.sh
say() { echo "$me: $*" >&2; }
die() { say "$*"; exit 1; }
umask 022

root=$(cd "$(dirname "$0")/.." && pwd)
for tool in dpkg-deb dpkg-shlibdeps dpkg-parsechangelog strip readelf gzip md5sum; do
    command -v "$tool" >/dev/null 2>&1 || die "needs $tool (apt install dpkg-dev binutils)"
done
command -v chrpath >/dev/null 2>&1 || command -v patchelf >/dev/null 2>&1 \
    || die "needs chrpath or patchelf to drop the binary's RUNPATH (apt install chrpath)"

arch=$(dpkg --print-architecture)
# Reproducible dates: the commit's time, unless the caller set one.
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)
fi
export SOURCE_DATE_EPOCH

work=$(mktemp -d "${TMPDIR:-/tmp}/sesame-deb-XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
stage=$work/root
mkdir -m 0755 "$stage"

# install.sh builds the release binary unless SESAME_BINARY names one: one build command.
DESTDIR=$stage PREFIX=/usr sh "$root/scripts/install.sh"

# "0.1.0" or "0.2.0 (vault format 7)": the first x.y.z.
version=$("$stage/usr/bin/sesame" --version | grep -Eo '[0-9]+\.[0-9]+\.[0-9]+' | head -n 1) || true
[ -n "$version" ] || die "'sesame --version' printed no x.y.z version"

# Only the static build belongs in a package: no Swift runtime to depend
# on, and no RUNPATH (install.sh drops the $ORIGIN one such a build has).
if readelf -d "$stage/usr/bin/sesame" | grep -Eq '\((RPATH|RUNPATH)\)|NEEDED.*libswift'; then
    die "${SESAME_BINARY:-the release build} is not a --static-swift-stdlib build (it has a RUNPATH or needs libswift*)"
fi

# The passkey authenticator's /dev/uhid, opened only by the members of the
# sesame-uhid group, whom an administrator adds (contrib/udev says why);
# no module is loaded at boot: opening the node loads uhid.
install -D -m 0644 "$root/contrib/udev/70-sesame-uhid.rules" "$stage/usr/lib/udev/rules.d/70-sesame-uhid.rules"

# The Secret portal's backend (contrib/xdg-desktop-portal says why): the
# desktop portal sends sandboxed apps' RetrieveSecret to the Secret Service.
install -D -m 0644 "$root/contrib/xdg-desktop-portal/sesame.portal" "$stage/usr/share/xdg-desktop-portal/portals/sesame.portal"

# Debian policy 12.1: man pages compressed with gzip -9 (-n: no name or date).
gzip -9n "$stage/usr/share/man/man1/"*.1

doc=$stage/usr/share/doc/sesame
install -d -m 0755 "$doc"
install -m 0644 "$root/packaging/copyright" "$doc/copyright"
# A native package (the version has no Debian revision), so the changelog
# is changelog.gz (policy 12.7). Its newest entry must be this version;
# when the binary's version moved on without an entry, one is made up here.
changelog=$root/packaging/changelog
if [ "$(dpkg-parsechangelog -l "$changelog" -S Version)" != "$version" ]; then
    say "warning: packaging/changelog has no entry for $version; add one (a stub is used)"
    {
        printf 'sesame (%s) unstable; urgency=medium\n\n' "$version"
        printf '  * Release %s.\n\n' "$version"
        printf ' -- %s  %s\n\n' "$(dpkg-parsechangelog -l "$changelog" -S Maintainer)" \
            "$(date -u -R -d "@$SOURCE_DATE_EPOCH")"
        cat "$changelog"
    } > "$work/changelog"
    changelog=$work/changelog
fi
gzip -9n -c "$changelog" > "$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"

if [ -f "$root/packaging/lintian-overrides" ]; then
    install -d -m 0755 "$stage/usr/share/lintian/overrides"
    install -m 0644 "$root/packaging/lintian-overrides" "$stage/usr/share/lintian/overrides/sesame"
fi

# What the binary links, with the versions the libraries' symbols files
# ask for; dpkg-shlibdeps wants a source tree's debian/control to run in.
mkdir -p "$work/src/debian"
printf 'Source: sesame\n\nPackage: sesame\nArchitecture: any\n' > "$work/src/debian/control"
shlibs=$(cd "$work/src" && dpkg-shlibdeps -O "$stage/usr/bin/sesame" 2>"$work/shlibdeps.log") \
    || { cat "$work/shlibdeps.log" >&2; die "dpkg-shlibdeps failed"; }
linked=${shlibs#shlibs:Depends=}
# Loaded with dlopen, and core: PAM checks the login password, sd-bus
# talks to fprintd and serves the Secret Service. The versions are those
# of the newest symbols Sesame resolves (pam_start_confdir is optional).
# adduser: postinst creates the sesame-uhid group with addgroup.
depends="$linked, adduser, libpam0g (>= 0.99.7.1), libsystemd0 (>= 222)"

size=$(du -sk "$stage" | cut -f1)
install -d -m 0755 "$stage/DEBIAN"
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@INSTALLED_SIZE@|$size|" \
    -e "s|@DEPENDS@|$depends|" "$root/packaging/control.in" > "$stage/DEBIAN/control"
if [ -n "${MAINTAINER:-}" ]; then
    sed -i "s|^Maintainer: .*|Maintainer: $MAINTAINER|" "$stage/DEBIAN/control"
fi
(cd "$stage" && find usr -type f | LC_ALL=C sort | xargs md5sum) > "$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
# The sesame-uhid group: made on configure, removed on purge.
install -m 0755 "$root/packaging/postinst" "$root/packaging/postrm" "$stage/DEBIAN/"

mkdir -p "$root/dist"
deb=$root/dist/sesame_${version}_${arch}.deb
dpkg-deb --root-owner-group --build "$stage" "$deb" >&2
say "built $deb (Depends: $depends)"
echo "$deb"
