#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Sesame

/// The changes `setup` makes for one role, each printed as it is made and
/// recorded with the step that undoes it.
struct SetupSteps: Sendable {
    /// The role the steps are made for; each line starts with its name.
    let role: any SetupRole
    let directories: UserDirectories
    let environment: [String: String]
    /// The vault a role fills (the Secret Service copies items into it).
    let options: VaultOptions
    /// `--bus-address`: the session bus, when not `$DBUS_SESSION_BUS_ADDRESS`.
    let busAddress: String?
    /// `--undo`'s `--no-give-back`: whether the items made or changed while
    /// Sesame served are copied back to the provider it restores.
    var giveBack = true

    /// Prints one step of the role. Its names come from outside (a
    /// provider's program, git's helpers, paths from the environment): every
    /// line is escaped here, the one place setup prints through (SPEC D9).
    func say(_ line: String) {
        print("\(role.name): \(line.escapingControlCharacters())")
    }

    /// Writes `text` to `path`, keeping what was there first for `--undo`:
    /// a new file is 0644, a replaced one keeps its mode (never wider than
    /// 0644). Returns `false` when the file already says it.
    /// - Throws: ``CommandFailure`` when a link or anything but a text file
    ///   is there: it is left untouched (``SetupFile/read(_:)``).
    @discardableResult
    func write(_ text: String, to path: String, record: inout SetupRecord) throws -> Bool {
        let previous = try SetupFile.read(path)
        if previous?.text == text { return false }
        // The folders made for it go with it at --undo (deepest first: the record is replayed backwards).
        for folder in Self.missingFolders(above: path) { record.add(.removeIfLeftEmpty(path: folder)) }
        record.wrote(text, to: path, replacing: previous)
        try SetupFile.replace(path, with: text, mode: previous.map { $0.mode & SetupFile.newMode } ?? SetupFile.newMode)
        return true
    }

    /// The folders above `path` that do not exist yet, outermost first.
    static func missingFolders(above path: String) -> [String] {
        var missing: [String] = []
        var folder = (path as NSString).deletingLastPathComponent
        while folder.count > 1, !FileManager.default.fileExists(atPath: folder) {
            missing.insert(folder, at: 0)
            folder = (folder as NSString).deletingLastPathComponent
        }
        return missing
    }

    /// Removes `path` if setup's leftovers are all that is in it
    /// (``SetupRecord/Undo/removeIfLeftEmpty(path:)``); what it did, or `nil`.
    static func removeIfLeftEmpty(_ path: String) -> String? {
        let shown = path.escapingControlCharacters()
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        if info.st_mode & S_IFMT == S_IFDIR {
            return rmdir(path) == 0 ? "removed the empty folder \(shown), which setup made" : nil
        }
        // git leaves a bare "[credential]" behind when the last helper goes.
        guard let contents = try? SetupFile.read(path),
              contents.text.split(separator: "\n").allSatisfy({ line in
                  let trimmed = line.trimmingCharacters(in: .whitespaces)
                  return trimmed.isEmpty || (trimmed.hasPrefix("[") && trimmed.hasSuffix("]"))
              }),
              unlink(path) == 0 else { return nil }
        return "removed \(shown), which setup made and which holds nothing now"
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
    func whyUnitCannotRun(_ unit: UserUnit) -> String? {
        guard HostTool.hasUserManager(environment: environment) else { return "no systemd user manager runs this session" }
        return directories.installedUnit(unit) == nil ? "\(unit.name) is not installed (install the package, or scripts/install.sh)" : nil
    }

    /// Enables and starts the user unit `unit`, recording the step that
    /// disables it; says `done` then, or that it was enabled already.
    func enable(_ unit: UserUnit, record: inout SetupRecord, saying done: String) async throws {
        let enabled = try await HostTool.run("systemctl", ["--user", "is-enabled", unit.name], environment: environment)
        guard enabled.output != "enabled" else {
            say("\(unit.name) is enabled already")
            return
        }
        record.add(.systemctl(["disable", "--now", unit.name]))
        try await systemctl(["enable", "--now", unit.name])
        say("enabled \(unit.name): \(done)")
    }

    /// Puts `path` back as it was before setup, unless it is no longer what
    /// setup wrote (the user changed it, or put a link there): that is left
    /// as it is. Says which.
    static func restore(_ path: String, previous: String?, mode: UInt32?, written: String?) throws -> String {
        let shown = path.escapingControlCharacters()
        let current: SetupFile.Contents?
        do { current = try SetupFile.read(path) } catch {
            return "left \(shown) as it is: it is no longer the file setup wrote (\(error.message))"
        }
        if let current, let written, SetupFile.digest(current.text) != written {
            return "left \(shown) as it is: it changed since `sesame setup` wrote it, so what was there before is not put back"
        }
        guard let previous else {
            if current != nil && unlink(path) != 0 && errno != ENOENT {
                throw CommandFailure(status: .failure, message: "cannot remove \(shown): \(String(cString: strerror(errno)))")
            }
            return "removed \(shown)"
        }
        // Its own mode again; a record from before modes were kept gets the narrowest that still works.
        try SetupFile.replace(path, with: previous, mode: mode.map { mode_t($0) & 0o777 } ?? 0o600)
        return "restored \(shown)"
    }

    /// Runs the steps `record` holds, last first: what `--undo` does for
    /// every role, before the role's last words.
    func replay(_ record: SetupRecord) async throws {
        for step in record.undo.reversed() {
            switch step {
            case .restoreFile(let path, let previous, let mode, let written):
                say("\(try Self.restore(path, previous: previous, mode: mode, written: written))")
            case .restoreGitHelpers(let helpers):
                try await GitSetup.setHelpers(helpers, environment: environment)
                say("credential.helper is \(helpers.isEmpty ? "unset" : helpers.joined(separator: ", ")) again")
            case .removeIfLeftEmpty(let path):
                if let done = Self.removeIfLeftEmpty(path) { say(done) }
            case .systemctl(let arguments):
                if HostTool.hasUserManager(environment: environment) {
                    _ = try? await HostTool.run("systemctl", ["--user"] + arguments, environment: environment)
                    say("systemctl --user \(arguments.joined(separator: " "))")
                } else {
                    say("no systemd user manager runs now; run `systemctl --user \(arguments.joined(separator: " "))` in your session")
                }
            }
        }
        if HostTool.hasUserManager(environment: environment) {
            _ = try? await HostTool.run("systemctl", ["--user", "daemon-reload"], environment: environment)
        }
    }
}
