import Foundation
import Testing

/// `sesame run`: items into the command's environment, then exec. No
/// fingerprint reader here; items without access control need none.
@Suite("sesame run")
struct RunCommandTests {
    /// Not UTF-8, with `=`, a space and a trailing newline: the command must
    /// see exactly these bytes.
    private let token = Data([0x74, 0x6f, 0x6b, 0x3d, 0x20, 0xff, 0x65, 0x6e, 0x0a])

    @Test("--env puts the exact bytes into the command's environment, and nowhere in sesame's output")
    func exactBytes() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        try await home.put("api-token", token)

        let result = try await home.sesame(["run", "--no-interaction", "--env", "TOKEN=api-token", "--",
                                            "/bin/sh", "-c", #"printf %s "$TOKEN" > "$1""#, "sh", home.file("out")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: home.file("out")) == token)
        #expect(result.output.isEmpty)
        #expect(!Data(result.stderr.utf8).contains(token.prefix(4)))
    }

    @Test("The command's exit code is passed through, with and without a vault")
    func exitCode() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        let bare = try await home.sesame(["run", "--", "/bin/sh", "-c", "exit 42"])
        #expect(bare.status == 42, "nothing needs the vault: none is opened")

        try await home.createVault()
        try await home.put("api-token", token)
        let withItem = try await home.sesame(["run", "--no-interaction", "--env", "T=api-token", "--", "/bin/sh", "-c", #"test -n "$T" && exit 7"#])
        #expect(withItem.status == 7, "\(withItem.stderr)")
    }

    @Test("A missing item exits 3 and the command does not run")
    func missingItem() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        try await home.put("api-token", token)
        let result = try await home.sesame(["run", "--no-interaction", "--env", "A=api-token", "--env", "B=missing", "--",
                                            "/bin/sh", "-c", #"touch "$1""#, "sh", home.file("ran")])
        #expect(result.status == 3)
        #expect(result.stderr.contains("no item missing"))
        #expect(!home.exists("ran"))
    }

    @Test("Bad variable names, a repeated variable, a passcode on descriptors 0-2 and a missing command are usage errors (2)",
          arguments: [
              ["--env", "1X=api-token"], ["--env", "A-B=api-token"], ["--env", "=api-token"], ["--env", "NOEQUALS"],
              ["--env", "X="], ["--env", "X=api-token", "--env", "X=api-token"], ["--passcode-fd", "0"],
          ])
    func usage(arguments: [String]) async throws {
        let home = try VaultHome()
        defer { home.remove() }
        let result = try await home.sesame(["run", "--no-interaction"] + arguments + ["--", "/bin/sh", "-c", #"touch "$1""#, "sh", home.file("ran")])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(!home.exists("ran"))
    }

    @Test("No command at all is a usage error (2)", arguments: [["run"], ["run", "--"], ["run", "--env", "T=api-token", "--"]])
    func noCommand(arguments: [String]) async throws {
        let home = try VaultHome()
        defer { home.remove() }
        let result = try await home.sesame(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains("no command given"))
    }

    @Test("A command that is not found exits 127, one that cannot be executed 126")
    func notRunnable() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        let missing = try await home.sesame(["run", "--", "no-such-command-\(UUID().uuidString)"])
        #expect(missing.status == 127)
        #expect(missing.stderr.contains("command not found"))

        #expect(FileManager.default.createFile(atPath: home.file("script"), contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o600]))
        let notExecutable = try await home.sesame(["run", "--", home.file("script")])
        #expect(notExecutable.status == 126)
        #expect(notExecutable.stderr.contains("Permission denied"))
    }

    @Test("An item holding a NUL byte is refused (exit 1) rather than cut short, and the command does not run")
    func nulByte() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        try await home.put("binary", Data([0x61, 0x00, 0x62]))
        let result = try await home.sesame(["run", "--no-interaction", "--env", "B=binary", "--", "/bin/sh", "-c", #"touch "$1""#, "sh", home.file("ran")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("NUL"))
        #expect(!home.exists("ran"))
    }

    @Test("The command starts as from a shell: same blocked and ignored signals, no descriptor to the passcode file or the vault",
          arguments: [[], ["--no-masking"]])
    func cleanStart(masking: [String]) async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        try await home.put("api-token", token)
        // grep and ls inherit what sesame exec'd into: sh changes neither.
        let probe = #"grep -E '^Sig(Blk|Ign)' /proc/self/status; ls -l /proc/self/fd"#
        let direct = try await SesameBinary.runCommand(["/bin/sh", "-c", probe], environment: home.environment)
        let viaSesame = try await home.sesame(["run", "--no-interaction", "--passcode-fd", "3", "--env", "T=api-token"] + masking + ["--", "/bin/sh", "-c", probe],
                                              secret: VaultHome.passcode)
        #expect(viaSesame.status == 0, "\(viaSesame.stderr)")
        #expect(direct.contains("SigIgn"))
        #expect(Self.standardSignals(viaSesame.stdout) == Self.standardSignals(direct))
        #expect(viaSesame.stdout.contains("/proc/") && viaSesame.stdout.contains(" 2 -> "), "\(viaSesame.stdout)")
        // Descriptor numbers the test process leaks vary from run to run;
        // what matters is that none leads to the passcode file or the vault.
        #expect(!viaSesame.stdout.contains(home.home), "a descriptor of sesame's reached the command: \(viaSesame.stdout)")
    }

    /// The SigBlk and SigIgn masks for signals 1-31 only: the real-time
    /// signals above belong to the C library and runtimes, which set them
    /// up for themselves (the test process ignores one that `sesame`'s
    /// runtime handles, and a handled signal is reset by exec).
    private static func standardSignals(_ probe: String) -> [String: UInt64] {
        var masks: [String: UInt64] = [:]
        for line in probe.split(separator: "\n") {
            let parts = line.split(separator: ":")
            guard parts.count == 2, parts[0].hasPrefix("Sig"),
                  let mask = UInt64(parts[1].trimmingCharacters(in: .whitespaces), radix: 16) else { continue }
            masks[String(parts[0])] = mask & 0x7fff_ffff
        }
        return masks
    }

    @Test("D6: Items with an application password share one --password-fd read")
    func applicationPassword() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        try await home.put("first", Data("one".utf8), arguments: ["--access", "app-password", "--password-fd", "3"], secret: "app pass")
        try await home.put("second", Data("two".utf8), arguments: ["--access", "app-password", "--password-fd", "3"], secret: "app pass")
        let result = try await home.sesame(["run", "--no-interaction", "--password-fd", "3", "--env", "A=first", "--env", "B=second", "--no-masking",
                                            "--", "/bin/sh", "-c", #"printf %s "$A$B""#], secret: "app pass")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "onetwo")

        let wrong = try await home.sesame(["run", "--no-interaction", "--password-fd", "3", "--env", "A=first", "--",
                                           "/bin/sh", "-c", #"touch "$1""#, "sh", home.file("ran")], secret: "wrong")
        #expect(wrong.status == 4, "\(wrong.stderr)")
        #expect(!home.exists("ran"))
    }
}
