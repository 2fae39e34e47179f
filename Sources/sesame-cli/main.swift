// The `sesame` command. Its commands live in the SesameCommandLine library,
// so that the fuzzers can drive the very same argument parsing.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SesameCommandLine

// `--version` alone answers before the command tree is built: ArgumentParser's
// reflection over every command costs more than the rest of the process
// (docs/PERFORMANCE.md, "Process start"). Anything else goes to the parser.
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--version" {
    print(SesameCommand.version)
    exit(0)
}

// The package installs `git-credential-sesame` as a link to this binary, not
// a second 70 MB copy: under that name it is `sesame git-credential`.
if let invoked = CommandLine.arguments.first, invoked.split(separator: "/").last == "git-credential-sesame" {
    await SesameCommand.runFromCommandLine(["git-credential"] + CommandLine.arguments.dropFirst())
}

await SesameCommand.runFromCommandLine()
