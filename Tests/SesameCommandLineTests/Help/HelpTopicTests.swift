import Foundation
import Testing

/// `sesame help <topic>` pages and shell completions, from the built binary.
@Suite("sesame help topics and completions")
struct HelpTopicTests {
    private let environment = ["HOME": NSTemporaryDirectory(), "PATH": "/usr/bin:/bin"]

    @Test("`help exit-codes` gives every exit status the README documents")
    func exitCodes() async throws {
        let page = try await SesameBinary.run(["help", "exit-codes"], environment: environment)
        #expect(page.status == 0, "\(page.stderr)")
        for (code, words) in [(0, "ok"), (1, "error"), (2, "usage"), (3, "no such item"), (4, "authentication failed"),
                              (5, "cancelled"), (6, "locked out"), (7, "not available"), (8, "item invalidated"),
                              (9, "vault damaged"), (10, "not interactive"), (11, "invalid name"), (12, "untrusted"),
                              (13, "session locked")] {
            #expect(page.stdout.contains("  \(code)\t\(words)"), "exit \(code)")
        }
    }

    @Test("`help access-flags` explains every --access flag, both joiners and the accessibility classes")
    func accessFlags() async throws {
        let page = try await SesameBinary.run(["help", "access-flags"], environment: environment)
        #expect(page.status == 0, "\(page.stderr)")
        for flag in ["user-presence", "biometry-any", "biometry-current-set", "device-passcode", "app-password",
                     "when-unlocked", "after-first-unlock", "-this-device-only", "`,`", "`+`"] {
            #expect(page.stdout.contains(flag), "\(flag)")
        }
    }

    @Test("`help security` says what a fingerprint on Linux does not defend against")
    func security() async throws {
        let page = try await SesameBinary.run(["help", "security"], environment: environment)
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout.contains("malware running as your user"))
        #expect(page.stdout.contains("--passcode-fd"))
    }

    @Test("the root help lists the topics; topics are not shown as commands")
    func rootHelp() async throws {
        let help = try await SesameBinary.run(["--help"], environment: environment)
        #expect(help.status == 0)
        #expect(help.stdout.contains("sesame help exit-codes"))
        let subcommands = help.stdout.components(separatedBy: "SUBCOMMANDS:").last ?? ""
        #expect(!subcommands.contains("access-flags"))
    }

    @Test("bash, zsh and fish completion scripts name the commands", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) async throws {
        let script = try await SesameBinary.run(["--generate-completion-script", shell], environment: environment)
        #expect(script.status == 0, "\(script.stderr)")
        for command in ["status", "authenticate", "init", "put", "get", "ls", "rm"] {
            #expect(script.stdout.contains(command), "\(shell): \(command)")
        }
    }

    @Test("the hand-written man page has a section for every command `sesame --help` lists")
    func manPageHasEveryCommand() async throws {
        let help = try await SesameBinary.run(["--help"], environment: environment)
        let listing = help.stdout.components(separatedBy: "SUBCOMMANDS:").last ?? ""
        let commands = listing.split(separator: "\n").compactMap { line -> String? in
            // A command's line starts with two spaces and its name; wrapped
            // abstracts are indented further.
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }.filter { $0 != "See" }
        #expect(commands.count >= 13, "\(commands)")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let manual = try String(contentsOf: root.appendingPathComponent("docs/man/sesame.1"), encoding: .utf8)
        // Each command is a subsection of COMMANDS whose heading line is
        // exactly `.Ss sesame COMMAND`.
        for command in commands {
            #expect(manual.contains(".Ss sesame \(command)\n"), "docs/man/sesame.1 lacks \(command): docs/man/sesame.1 is written by hand; add a section for the new command (`.Ss sesame \(command)` under COMMANDS, then mandoc -T lint -W warning and groff -ww -mandoc -z on it)")
        }
    }

    /// The subcommands a `--help` page lists, as full argument paths.
    private func subcommands(of path: [String]) async throws -> [[String]] {
        let page = try await SesameBinary.run(path + ["--help"], environment: environment)
        guard let listing = page.stdout.components(separatedBy: "SUBCOMMANDS:").dropFirst().first else { return [] }
        return listing.split(separator: "\n").compactMap { line -> [String]? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first, name != "See" else { return nil }
            return path + [String(name)]
        }
    }

    @Test("Every command's help: no run of spaces inside a sentence, integer defaults shown as integers, no pointer to the README")
    func helpTextIsClean() async throws {
        var pending = try await subcommands(of: [])
        var seen = 0
        while let path = pending.popLast() {
            seen += 1
            pending += try await subcommands(of: path)
            let page = try await SesameBinary.run(path + ["--help"], environment: environment.merging(["COLUMNS": "100"]) { $1 })
            #expect(page.status == 0, "\(path): \(page.stderr)")
            // The overview and discussion come before USAGE; the option
            // columns after it are aligned with spaces on purpose.
            let prose = page.stdout.components(separatedBy: "USAGE:").first ?? ""
            for line in prose.split(separator: "\n") where !line.hasPrefix(" ") {
                #expect(line.range(of: #"\S {2,}\S"#, options: .regularExpression) == nil, "sesame \(path.joined(separator: " ")): \(line)")
            }
            #expect(page.stdout.range(of: #"default: \d+\.0\)"#, options: .regularExpression) == nil, "sesame \(path.joined(separator: " "))")
            // An installed binary has no README beside it: help names the man page or a guide.
            #expect(!page.stdout.contains("README"), "sesame \(path.joined(separator: " ")) points at the README")
        }
        #expect(seen >= 30, "walked \(seen) commands")
    }

    @Test("help NOSUCH is a usage error (exit 2) naming the word; a topic's page shows its own usage line")
    func unknownTopic() async throws {
        let environment = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"]
        let unknown = try await SesameBinary.run(["help", "nosuch"], environment: environment)
        #expect(unknown.status == 2 && unknown.stderr.contains("no command or help topic \"nosuch\""), "\(unknown.status) \(unknown.stderr)")
        let command = try await SesameBinary.run(["help", "key"], environment: environment)
        #expect(command.status == 0, "\(command.stderr)")
        for topic in ["exit-codes", "access-flags", "security"] {
            let page = try await SesameBinary.run(["help", topic], environment: environment)
            #expect(page.status == 0 && page.stdout.contains("USAGE: sesame help \(topic)"), "\(topic): \(page.stdout.suffix(300))")
        }
    }
}
