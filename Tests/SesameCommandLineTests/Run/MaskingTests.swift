import Foundation
import Testing

/// `sesame run` conceals the values it injected in the command's output.
@Suite("sesame run: masking")
struct MaskingTests {
    private static let mask = "<concealed by sesame>"

    private func prepared() async throws -> VaultHome {
        let home = try VaultHome()
        try await home.createVault()
        try await home.put("api-token", Data("tok-1234567".utf8))
        try await home.put("tok", Data("tok-12".utf8))
        try await home.put("binary", Data([0xff, 0x00, 0x41].prefix(1) + Data("xyz".utf8)))
        return home
    }

    private func run(_ script: String, home: VaultHome, extra: [String] = []) async throws -> SesameBinary.Result {
        try await home.sesame(["run", "--no-interaction", "--env", "TOKEN=api-token", "--env", "SHORT=tok", "--env", "BIN=binary"]
                              + extra + ["--", "/bin/sh", "-c", script])
    }

    @Test("Values on stdout and stderr are concealed, the longest first; other output is untouched")
    func conceals() async throws {
        let home = try await prepared()
        defer { home.remove() }
        let result = try await run(#"echo "a $TOKEN b $SHORT c"; echo "err:$TOKEN" >&2; printf 'tail-%s' "$BIN""#, home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "a \(Self.mask) b \(Self.mask) c\ntail-\(Self.mask)")
        #expect(result.stderr == "err:\(Self.mask)\n")
    }

    @Test("A value split across writes, with a pause between them, is still concealed")
    func splitWrites() async throws {
        let home = try await prepared()
        defer { home.remove() }
        let script = #"printf %s "x${TOKEN%???????}"; sleep 0.5; printf %s "${TOKEN#????}"; sleep 0.3; printf '%s\n' "y""#
        let result = try await run(script, home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "x\(Self.mask)y\n")
    }

    @Test("A prefix of a value that never completes is written at the end, unchanged")
    func incompletePrefix() async throws {
        let home = try await prepared()
        defer { home.remove() }
        let result = try await run(#"printf 'tok-'"#, home: home)
        #expect(result.stdout == "tok-")
    }

    @Test("sesame ends as the command did: its exit code, or the same signal")
    func endsAsTheCommand() async throws {
        let home = try await prepared()
        defer { home.remove() }
        let code = try await run(#"echo "$TOKEN"; exit 42"#, home: home)
        #expect(code.status == 42)
        #expect(code.stdout == Self.mask + "\n")
        let killed = try await run(#"echo "$TOKEN"; kill -TERM $$"#, home: home)
        #expect(killed.status == SIGTERM, "Process reports the signal that ended sesame")
        #expect(killed.stdout == Self.mask + "\n")
        let notFound = try await run("", home: home, extra: []).status
        #expect(notFound == 0)
        let missingCommand = try await home.sesame(["run", "--no-interaction", "--env", "TOKEN=api-token", "--", "/no/such/command"])
        #expect(missingCommand.status == 127)
    }

    @Test("Masked or not, a command is looked up in PATH and reads sesame's standard input; not found exits 127, found but not executable 126",
          arguments: [[], ["--no-masking"]])
    func asFromAShell(masking: [String]) async throws {
        let home = try await prepared()
        defer { home.remove() }
        let environment = home.environment.merging(["PATH": home.home + ":/usr/bin:/bin"]) { $1 }
        func run(_ command: [String], stdin: Data? = nil) async throws -> SesameBinary.Result {
            try await SesameBinary.run(["run", "--no-interaction", "--env", "TOKEN=api-token"] + masking + ["--"] + command,
                                       environment: environment, stdin: stdin)
        }
        let found = try await run(["sh", "-c", #"read line; echo "$line $TOKEN""#], stdin: Data("typed\n".utf8))
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout == "typed " + (masking.isEmpty ? Self.mask : "tok-1234567") + "\n")
        let missing = try await run(["no-such-command-\(UUID().uuidString)"])
        #expect(missing.status == 127 && missing.stderr.contains("command not found"), "\(missing.stderr)")
        // In PATH but not executable, as bash reports it: 126, not "not found".
        #expect(FileManager.default.createFile(atPath: home.file("tool"), contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o600]))
        for command in ["tool", home.file("tool")] {
            let denied = try await run([command])
            #expect(denied.status == 126 && denied.stderr.contains("Permission denied"), "\(command): \(denied.stderr)")
        }
    }

    @Test("SIGTERM and SIGHUP sent to sesame reach the command, which ends as it chooses",
          arguments: ["TERM", "HUP"])
    func forwardsSignals(name: String) async throws {
        let home = try await prepared()
        defer { home.remove() }
        // The command says when it is ready; then sesame (not the command) is signalled.
        let script = #"""
            sesame "$@" > "$OUT" & pid=$!
            i=0; while [ ! -s "$OUT" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
            kill -"$SIGNAL" $pid; wait $pid; echo "status $?"
            """#
        let command = #"trap 'echo "got $1 $TOKEN"; exit 3' "$1"; echo ready; while :; do sleep 0.1; done"#
        let environment = home.environment.merging(["OUT": home.file("out"), "SIGNAL": name,
                                                    "PATH": SesameBinary.url.deletingLastPathComponent().path + ":/usr/bin:/bin"]) { $1 }
        let result = try await SesameBinary.run(
            ["-c", script, "sh", "run", "--no-interaction", "--env", "TOKEN=api-token", "--", "/bin/sh", "-c", command, "sh", name],
            environment: environment, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(result.stdout == "status 3\n", "\(result.stderr)")
        #expect(String(decoding: FileManager.default.contents(atPath: home.file("out")) ?? Data(), as: UTF8.self)
                == "ready\ngot \(name) \(Self.mask)\n")
    }

    @Test("--no-masking hands the output over untouched (the command runs in sesame's place)")
    func noMasking() async throws {
        let home = try await prepared()
        defer { home.remove() }
        let result = try await run(#"echo "$TOKEN""#, home: home, extra: ["--no-masking"])
        #expect(result.stdout == "tok-1234567\n")
    }

    @Test("Output that no longer has a reader does not stop the command")
    func closedOutput() async throws {
        let home = try await prepared()
        defer { home.remove() }
        let script = #"(sesame "$@"; echo "status $?" > "$OUT") | head -c 1 >/dev/null"#
        let environment = home.environment.merging(["OUT": home.file("status"), "PATH": SesameBinary.url.deletingLastPathComponent().path + ":/usr/bin:/bin"]) { $1 }
        _ = try await SesameBinary.run(
            ["-c", script, "sh", "run", "--no-interaction", "--env", "TOKEN=api-token", "--", "/bin/sh", "-c",
             #"for i in $(seq 1 2000); do echo "line $i $TOKEN"; done; touch "$1""#, "sh", home.file("finished")],
            environment: environment, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(home.exists("finished"), "the command ran to its end")
    }

    // MARK: What a command does to a value on its way out (no SPEC rule covers masking; SECURITY.md does)

    private static let sixteen = "s3cr3t-value-16b"
    private static let lines = "line-one-abcdef\nline-two-ghijkl\nshort"

    private func preparedEdges() async throws -> VaultHome {
        let home = try VaultHome()
        try await home.createVault()
        try await home.put("sixteen", Data(Self.sixteen.utf8))
        try await home.put("lines", Data(Self.lines.utf8))
        return home
    }

    private func runEdges(_ script: String, home: VaultHome) async throws -> SesameBinary.Result {
        try await home.sesame(["run", "--no-interaction", "--env", "LONG=sixteen", "--env", "ML=lines", "--", "/bin/sh", "-c", script])
    }

    @Test("a command that prints 15 of a value's 16 bytes and exits shows none of them")
    func cutOffAtTheEnd() async throws {
        let home = try await preparedEdges()
        defer { home.remove() }
        let result = try await runEdges(#"printf 'out:%s' "${LONG%?}"; printf 'err:%s' "${LONG%?}" >&2"#, home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "out:\(Self.mask)")
        #expect(result.stderr == "err:\(Self.mask)")
        // Fewer than 8 bytes of a value at the end are ordinary output (see incompletePrefix).
        #expect(try await runEdges(#"printf '%s' "${LONG%?????????}""#, home: home).stdout == "s3cr3t-")
    }

    @Test("a multi-line value indented as YAML's | block prints is masked line by line")
    func indentedLines() async throws {
        let home = try await preparedEdges()
        defer { home.remove() }
        let result = try await runEdges(#"printf 'key: |\n'; printf '%s\n' "$ML" | sed 's/^/  /'"#, home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("line-one") && !result.stdout.contains("line-two"))
        // A line shorter than 8 bytes is not concealed on its own.
        #expect(result.stdout == "key: |\n  \(Self.mask)\n  \(Self.mask)\n  short\n")
    }

    @Test("a multi-line value printed with CRLF line ends is masked line by line")
    func crlfLines() async throws {
        let home = try await preparedEdges()
        defer { home.remove() }
        let result = try await runEdges(#"printf '%s\n' "$ML" | sed 's/$/\r/'"#, home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("line-one") && !result.stdout.contains("line-two"))
        #expect(result.stdout == "\(Self.mask)\r\n\(Self.mask)\r\nshort\r\n")
        // Unchanged, the whole value is concealed as one.
        #expect(try await runEdges(#"printf '%s' "$ML""#, home: home).stdout == Self.mask)
    }
}
