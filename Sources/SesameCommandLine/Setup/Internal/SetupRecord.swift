#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Sesame

/// What `sesame setup ROLE` changed, as the steps that put each thing back:
/// `--undo` runs them, last first. A change made again by a second
/// `sesame setup` is not recorded twice, so the record always holds what was
/// there before Sesame, never Sesame's own setting.
struct SetupRecord: Codable, Sendable {
    enum Undo: Codable, Sendable, Equatable {
        /// Put the file back as it was: `previous` is its text, or `nil` when
        /// there was none, and `mode` its permission bits; `written` is the
        /// digest of what setup wrote last (``SetupFile/digest(_:)``), so
        /// `--undo` leaves a file the user changed since. Records older than
        /// `mode` and `written` lack them.
        case restoreFile(path: String, previous: String?, mode: UInt32? = nil, written: String? = nil)
        /// Set git's global `credential.helper` back to these values (none: unset).
        case restoreGitHelpers([String])
        /// Run `systemctl --user` with these arguments.
        case systemctl([String])
        /// Remove what setup made here once nothing is left in it: a folder
        /// it created for its files, or `~/.gitconfig` it created, when it
        /// holds no more than empty section headers.
        case removeIfLeftEmpty(path: String)
    }

    var undo: [Undo] = []
    #if os(Linux)
    /// The session bus setup last told to read the Secret Service's
    /// activation file, and when: `doctor` tells from them whether the bus
    /// running now has read it (``SessionBusDaemon``). Records from before
    /// lack them.
    var reloadedBus: SessionBusDaemon?
    var activationWritten: BootInstant?
    #endif

    /// Whether a step for the same thing is recorded already.
    func covers(_ step: Undo) -> Bool {
        undo.contains { recorded in
            switch (recorded, step) {
            case (.restoreFile(let a, _, _, _), .restoreFile(let b, _, _, _)): a == b
            case (.restoreGitHelpers, .restoreGitHelpers): true
            case (.systemctl(let a), .systemctl(let b)): a == b
            case (.removeIfLeftEmpty(let a), .removeIfLeftEmpty(let b)): a == b
            default: false
            }
        }
    }

    mutating func add(_ step: Undo) {
        if !covers(step) { undo.append(step) }
    }

    /// Records that setup wrote `text` to `path`: the first time with what
    /// was there before; again, only the digest of what it wrote now.
    mutating func wrote(_ text: String, to path: String, replacing previous: SetupFile.Contents?) {
        let digest = SetupFile.digest(text)
        if let index = undo.firstIndex(where: { if case .restoreFile(path, _, _, _) = $0 { true } else { false } }),
           case .restoreFile(_, let before, let mode, _) = undo[index] {
            undo[index] = .restoreFile(path: path, previous: before, mode: mode, written: digest)
        } else {
            undo.append(.restoreFile(path: path, previous: previous?.text, mode: previous.map { UInt32($0.mode) }, written: digest))
        }
    }

    static func load(_ path: String) throws(CommandFailure) -> SetupRecord? {
        let bytes: [UInt8]?
        do { bytes = try PrivateFile(path: path).read() } catch {
            throw CommandFailure(status: .damaged, message: "cannot read \(path): \(error)")
        }
        guard let bytes else { return nil }
        do { return try JSONDecoder().decode(SetupRecord.self, from: Data(bytes)) } catch {
            throw CommandFailure(status: .damaged, message: "\(path) is not a record of `sesame setup`; move it away to start afresh")
        }
    }

    func save(_ path: String) throws(CommandFailure) {
        do {
            try PrivateFile.createDirectories(PrivateFile.parentDirectory(of: path))
            try PrivateFile(path: path).write(Array(JSONEncoder().encode(self)))
        } catch {
            throw CommandFailure(status: .failure, message: "cannot record the setup in \(path): \(error)")
        }
    }
}
