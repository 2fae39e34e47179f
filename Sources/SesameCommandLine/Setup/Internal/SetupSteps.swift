#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Sesame

/// The changes `setup` makes, each printed as it is made and recorded with
/// the step that undoes it.
struct SetupSteps: Sendable {
    let directories: UserDirectories
    let environment: [String: String]

    /// Prints one step of `role`.
    func say(_ role: SetupRole, _ line: String) {
        print("\(role.rawValue): \(line)")
    }

    /// Writes `text` to `path` (0644, folders made), keeping what was there
    /// first for `--undo`. Returns `false` when the file already says it.
    @discardableResult
    func write(_ text: String, to path: String, record: inout SetupRecord) throws -> Bool {
        let previous = try? String(contentsOfFile: path, encoding: .utf8)
        if previous == text { return false }
        record.add(.restoreFile(path: path, previous: previous))
        try Self.writeFile(text, to: path)
        return true
    }

    static func writeFile(_ text: String, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            chmod(path, 0o644)
        } catch {
            throw CommandFailure(status: .failure, message: "cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// Runs `systemctl --user ARGUMENTS`, failing with its message.
    func systemctl(_ arguments: [String]) async throws {
        let result = try await HostTool.run("systemctl", ["--user"] + arguments, environment: environment)
        guard result.status == 0 else {
            throw CommandFailure(status: .failure, message: "systemctl --user \(arguments.joined(separator: " ")) failed (exit \(result.status))")
        }
    }

    /// Why the user unit `unit` cannot be enabled here (no user manager, or
    /// not installed); `nil` when it can.
    func whyUnitCannotRun(_ unit: String) -> String? {
        guard HostTool.hasUserManager(environment: environment) else { return "no systemd user manager runs this session" }
        return directories.installedUnit(unit) == nil ? "\(unit) is not installed (install the package, or scripts/install.sh)" : nil
    }

    /// Enables and starts the user unit `unit` for `role`, recording the
    /// step that disables it; says `done` then, or that it was enabled already.
    func enable(_ unit: String, for role: SetupRole, record: inout SetupRecord, saying done: String) async throws {
        let enabled = try await HostTool.run("systemctl", ["--user", "is-enabled", unit], environment: environment)
        guard enabled.output != "enabled" else {
            say(role, "\(unit) is enabled already")
            return
        }
        record.add(.systemctl(["disable", "--now", unit]))
        try await systemctl(["enable", "--now", unit])
        say(role, "enabled \(unit): \(done)")
    }

    /// `sesame setup ROLE --undo`: runs the recorded steps, last first, then forgets the record.
    static func undo(_ role: SetupRole, recordPath: String, environment: [String: String]) async throws {
        guard let record = try SetupRecord.load(recordPath) else {
            print("\(role.rawValue): not set up by sesame; nothing to undo")
            return
        }
        for step in record.undo.reversed() {
            switch step {
            case .restoreFile(let path, let previous?):
                try writeFile(previous, to: path)
                print("\(role.rawValue): restored \(path)")
            case .restoreFile(let path, nil):
                if unlink(path) == 0 || errno == ENOENT { print("\(role.rawValue): removed \(path)") }
            case .restoreGitHelpers(let helpers):
                try await GitSetup.setHelpers(helpers, environment: environment)
                print("\(role.rawValue): credential.helper is \(helpers.isEmpty ? "unset" : helpers.joined(separator: ", ")) again")
            case .systemctl(let arguments):
                if HostTool.hasUserManager(environment: environment) {
                    _ = try? await HostTool.run("systemctl", ["--user"] + arguments, environment: environment)
                    print("\(role.rawValue): systemctl --user \(arguments.joined(separator: " "))")
                } else {
                    print("\(role.rawValue): no systemd user manager runs now; run `systemctl --user \(arguments.joined(separator: " "))` in your session")
                }
            }
        }
        if HostTool.hasUserManager(environment: environment) {
            _ = try? await HostTool.run("systemctl", ["--user", "daemon-reload"], environment: environment)
        }
        unlink(recordPath)
        if role == .secretService {
            print("\(role.rawValue): undone; a Sesame already serving keeps the name until it exits or you log out, and the items it copied stay in the vault")
        } else {
            print("\(role.rawValue): undone")
        }
    }
}
