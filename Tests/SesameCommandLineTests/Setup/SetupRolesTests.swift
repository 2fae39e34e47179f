#if os(Linux)
import Foundation
@testable import SesameCommandLine
import SesameTesting
import Testing

/// Every role `sesame setup` knows is whole: it parses, `doctor` checks it
/// and holds it to its record, and `--undo` takes away what its setup made.
@Suite("sesame setup's roles", .serialized, .timeLimit(.minutes(3)))
struct SetupRolesTests {
    /// The roles as the README and `sesame setup --help` name them.
    static let names = ["secret-service", "ssh-agent", "git", "passkey"]

    @Test("SPEC G: the one list holds every role once; `sesame setup ROLE` takes each, its help names each, and an unknown role is a usage error naming them")
    func everyRoleParses() async throws {
        #expect(SetupRoles.all.map(\.name) == Self.names)
        for name in Self.names {
            #expect(SetupCommand.Role(argument: name)?.role.name == name)
        }
        #expect(SetupCommand.Role(argument: "gnome-keyring") == nil)
        let environment = ["HOME": NSTemporaryDirectory(), "PATH": "/usr/bin:/bin"]
        let help = try await SesameBinary.run(["setup", "--help"], environment: environment)
        for name in Self.names {
            #expect(help.stdout.contains("\(name) ("), "\(name): \(help.stdout)")
        }
        let unknown = try await SesameBinary.run(["setup", "gnome-keyring"], environment: environment)
        #expect(unknown.status == 64 || unknown.status == 2, "\(unknown.status) \(unknown.stderr)")
        #expect(Self.names.allSatisfy { unknown.stderr.contains($0) }, "\(unknown.stderr)")
    }

    @Test("SPEC G: every role has a doctor check that `doctor --json` prints; one never set up never fails the run and names its fix, one recorded is never `notSetUp`")
    func everyRoleIsChecked() async throws {
        let place = try VaultHome()
        defer { place.remove() }
        let printed = try await place.sesame(["doctor", "--json"])
        let report = try JSONDecoder().decode(SetupCommandTests.Report.self, from: Data(printed.stdout.utf8))
        let directories = UserDirectories(environment: place.environment)
        for role in SetupRoles.all {
            let fresh = Doctor(environment: place.environment, directories: directories, setUp: [], vaultPath: place.vault,
                               pamService: "sesame", busAddress: nil)
            let checks = await role.checks(fresh)
            #expect(!checks.isEmpty, "\(role.name) has no doctor check")
            for check in checks {
                #expect(report.checks.contains { $0.check == check.check }, "doctor --json lacks \(check.check): \(printed.stdout)")
                // A row of a role not set up names what sets it up.
                if let row = report.checks.first(where: { $0.check == check.check }), row.status == "notSetUp" {
                    #expect(row.fix != nil, "doctor's \(row.check) row is not set up and names no fix: \(printed.stdout)")
                }
                #expect(check.status != .failed, "\(role.name) fails the run without being set up: \(check.text)")
            }
            let recorded = Doctor(environment: place.environment, directories: directories, setUp: [role.name], vaultPath: place.vault,
                                  pamService: "sesame", busAddress: nil)
            for check in await role.checks(recorded) {
                #expect(check.status != .notSetUp, "\(role.name) is not held to its record: \(check.text)")
            }
        }
    }

    @Test("SPEC G: for every role, setup then --undo in a fresh HOME leaves its files, its folders and git's helpers as they were, and no record",
          arguments: SetupRolesTests.names)
    func undoTakesAwayWhatSetupMade(name: String) async throws {
        let place = try VaultHome()
        defer { place.remove() }
        try await place.createVault()
        let git = { (arguments: [String]) in
            try await SesameBinary.run(arguments, environment: place.environment, executable: URL(fileURLWithPath: "/usr/bin/git"))
        }
        _ = try await git(["config", "--global", "--add", "credential.helper", "store"])
        let helpers = try await git(["config", "--global", "--get-all", "credential.helper"]).stdout
        let before = try Self.files(in: place.home)

        let setup = try await place.sesame(["setup", name, "--no-interaction"])
        // 7: a role this machine cannot run (passkey without /dev/uhid) is refused before it changes anything.
        #expect(setup.status == 0 || setup.status == 7, "\(setup.stdout) \(setup.stderr)")
        #expect(place.exists(".local/state/sesame/setup/\(name).json") == (setup.status == 0), "\(setup.stdout)")
        let undo = try await place.sesame(["setup", name, "--undo"])
        #expect(undo.status == 0, "\(undo.stdout) \(undo.stderr)")
        #expect(undo.stdout.hasPrefix("\(name): "), "\(undo.stdout)")

        #expect(try Self.files(in: place.home) == before, "\(setup.stdout)\(undo.stdout)")
        #expect(try await git(["config", "--global", "--get-all", "credential.helper"]).stdout == helpers)
    }

    /// Every file under `home` but the vault's and git's (git rewrites its
    /// own; the helpers are compared through git), with its bytes, and
    /// every folder (as `path/`, no bytes) but the XDG state base that
    /// other programs share.
    static func files(in home: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: home)
        while let path = enumerator?.nextObject() as? String {
            guard !path.hasPrefix("vaults/"), path != ".gitconfig" else { continue }
            let full = home + "/" + path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                if ![".local", ".local/state"].contains(path) { files[path + "/"] = Data() }
                continue
            }
            files[path] = try Data(contentsOf: URL(fileURLWithPath: full))
        }
        return files
    }

    @Test("SPEC G: setup git then --undo in a HOME without ~/.gitconfig leaves none (git's bare [credential] header included)")
    func undoRemovesTheGitConfigItMade() async throws {
        let place = try VaultHome()
        defer { place.remove() }
        try await place.createVault()
        #expect(try await place.sesame(["setup", "git"]).status == 0)
        #expect(place.exists(".gitconfig"))
        let undo = try await place.sesame(["setup", "git", "--undo"])
        #expect(undo.status == 0, "\(undo.stdout) \(undo.stderr)")
        #expect(!place.exists(".gitconfig"), "\(undo.stdout) \((try? String(contentsOfFile: place.file(".gitconfig"), encoding: .utf8)) ?? "")")
    }
}
#endif
