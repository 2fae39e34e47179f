#!/usr/bin/env bash
# The guides' screenshots of Sesame's dialogs, from a real run: the tests of
# PinentryWindowTests show each dialog in Debian's pinentry-gnome3 and
# pinentry-gtk-2 on a private Xvfb and, with SESAME_DIALOG_SCREENSHOTS set,
# dump each window (xwd); this converts the dumps to docs/images/*.png.
# Needs a debug build with tests (swift build --build-tests) and what CI
# installs for those tests (xvfb, x11-utils, x11-apps, the pinentries).
set -euo pipefail
cd "$(dirname "$0")/.."
dumps=$(mktemp -d)
trap 'rm -rf "$dumps"' EXIT
SESAME_DIALOG_SCREENSHOTS=$dumps .build/debug/SesamePackageTests.xctest \
    --testing-library swift-testing --filter PinentryWindowTests
for dump in "$dumps"/*.xwd; do
    image=docs/images/$(basename "${dump%.xwd}").png
    scripts/xwd-to-png.py "$dump" "$image"
    echo "$image: $(stat -c %s "$image") bytes"
done
