#!/usr/bin/env python3
"""Builds every Swift example of the documentation as a new package would.

Each ```swift block of the given Markdown files becomes the main.swift of an
executable target of its own, in a throw-away package that depends on Sesame
by path: the code runs through the compiler exactly as a newcomer's
`main.swift` would (top-level code, Swift 6 language mode, warnings are
errors). A block may be preceded by a marker naming what it needs:

    <!-- example: prelude=authenticators,vault -->
    <!-- example: library -->          (a file of a library target, not main.swift)
    <!-- example: skip (reason) -->    (never built; say why)

A prelude is scripts/examples/NAME.swift: declarations the fragment assumes
(the names an earlier block made, or placeholders such as `myPrompt`), put
before the block. Exits non-zero when a block does not build.

Usage: scripts/check-examples.py [FILE.md ...]

By default every documentation file with examples: README.md, then every
docs/**/*.md, then every Sources/**/*.docc/**/*.md (each group sorted, so the
order, and the ExampleNN names, are the same on every machine). The examples
depend on the library products Sesame, SesameLinux, SesameSSH,
SesameSecretsInUse, SesamePasskeys, SesameTesting and SesameLinuxTesting, those of them that Package.swift
declares.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PRELUDES = os.path.join(ROOT, "scripts", "examples")
MARKER = re.compile(r"<!--\s*example:\s*(.*?)\s*-->")
PRODUCTS = ("Sesame", "SesameLinux", "SesameSSH", "SesameSecretsInUse", "SesamePasskeys", "SesameTesting", "SesameLinuxTesting")


def documentation_files():
    """README.md, docs/**/*.md and the DocC catalogs' articles, in a fixed order."""
    def under(pattern):
        return sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True))
    return [os.path.join(ROOT, "README.md")] + under("docs/**/*.md") + under("Sources/**/*.docc/**/*.md")


def library_products():
    """The products of PRODUCTS that the package declares."""
    manifest = open(os.path.join(ROOT, "Package.swift"), encoding="utf-8").read()
    return [p for p in PRODUCTS if re.search(r'\.library\(\s*name:\s*"' + p + '"', manifest)]


def blocks(path):
    """Yields (line, marker attributes, code) for each swift block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    marker, i = None, 0
    while i < len(lines):
        line = lines[i]
        found = MARKER.search(line)
        if found:
            marker = found.group(1)
        elif line.strip() == "```swift":
            start, code = i + 1, []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                code.append(lines[i])
                i += 1
            yield start, marker or "", "\n".join(code) + "\n"
            marker = None
        elif line.strip():
            marker = None  # a marker applies to the very next block only
        i += 1


def attributes(marker):
    result = {}
    for part in marker.split():
        key, _, value = part.partition("=")
        result[key] = value
    return result


def main(argv):
    files = argv[1:] or documentation_files()
    work = tempfile.mkdtemp(prefix="sesame-examples-")
    targets = []
    for path in files:
        for line, marker, code in blocks(path):
            attrs = attributes(marker)
            where = f"{os.path.relpath(path, ROOT)}:{line}"
            if "skip" in attrs:
                print(f"examples: {where} not built: {marker}")
                continue
            name = f"Example{len(targets) + 1:02d}"
            source = []
            for prelude in filter(None, attrs.get("prelude", "").split(",")):
                source.append(open(os.path.join(PRELUDES, prelude + ".swift"), encoding="utf-8").read())
            # A #sourceLocation points diagnostics at the Markdown file itself.
            source.append(f'#sourceLocation(file: "{os.path.abspath(path)}", line: {line + 1})\n{code}#sourceLocation()\n')
            directory = os.path.join(work, "Sources", name)
            os.makedirs(directory)
            filename = "Example.swift" if "library" in attrs else "main.swift"
            with open(os.path.join(directory, filename), "w", encoding="utf-8") as out:
                out.write("\n".join(source))
            targets.append((name, "library" in attrs, where))
    if not targets:
        print("examples: no swift block found", file=sys.stderr)
        return 1

    identity = os.path.basename(ROOT).lower()  # SwiftPM names a path dependency by its folder
    dependencies = ', '.join(f'.product(name: "{p}", package: "{identity}")' for p in library_products())
    declarations = "\n".join(
        f'        .{"target" if library else "executableTarget"}(name: "{name}", dependencies: [{dependencies}], '
        f'swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]),'
        for name, library, _ in targets
    )
    with open(os.path.join(work, "Package.swift"), "w", encoding="utf-8") as out:
        out.write(f"""// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SesameExamples",
    dependencies: [.package(path: "{ROOT}")],
    targets: [
{declarations}
    ],
    swiftLanguageModes: [.v6]
)
""")
    scratch = os.environ.get("SESAME_EXAMPLES_SCRATCH", os.path.join(ROOT, ".build-examples"))
    print(f"examples: building {len(targets)} blocks ({', '.join(w for _, _, w in targets)})", flush=True)
    result = subprocess.run(["swift", "build", "--package-path", work, "--scratch-path", scratch])
    if result.returncode != 0:
        print("examples: a documentation example does not build (see the errors above)", file=sys.stderr)
        return 1
    print(f"examples: {len(targets)} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
