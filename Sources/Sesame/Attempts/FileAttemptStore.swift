#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An ``AttemptStore`` in a file, so that lockout, failure counts and
/// passcode delays survive a restart of the process (SPEC A4, E3).
///
/// The file is JSON, mode 0600, in a directory of mode 0700; a file or
/// directory that others can read or write is refused. Every update holds an
/// exclusive lock across processes and replaces the file atomically, so a
/// crash leaves the old or the new record, never half.
///
/// The record is not secret but its integrity matters: anyone who can write
/// it as you can reset your counters. That is the same user, who could also
/// run any code as you.
public final class FileAttemptStore: AttemptStore {
    /// Why the store cannot be used.
    public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
        /// A file or directory has permissions that let others in.
        case insecurePermissions(path: String, mode: UInt32)
        /// A system call failed; the message says which and why.
        case system(String)
        /// The file exists but is not a valid record.
        case damaged(path: String)

        public var description: String {
            switch self {
            case .insecurePermissions(let path, let mode):
                PrivateFile.Failure.insecurePermissions(path: path, mode: mode).description
            case .system(let message):
                message
            case .damaged(let path):
                "\(path) is damaged; Sesame does not reset it on its own (failing closed). Remove it only if you trust this machine"
            }
        }
    }

    private let file: PrivateFile

    /// The record's path.
    public var path: String { file.path }

    /// Creates a store at `path`; its directory is created (0700) on first write.
    ///
    /// - Parameter path: The record's file, e.g. from ``defaultPath(environment:)``.
    public init(path: String) {
        file = PrivateFile(path: path)
    }

    /// `$XDG_STATE_HOME/sesame/attempts.json`, or `~/.local/state/sesame/attempts.json`.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The default path.
    public static func defaultPath(environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/sesame/attempts.json"
        }
        return (environment["HOME"] ?? "/") + "/.local/state/sesame/attempts.json"
    }

    /// Reads the record; a store never written reads as empty. Creates nothing.
    public func read() async throws -> AttemptRecord {
        guard file.directoryExists else { return AttemptRecord() }
        return try guarded { try file.withExclusiveLock { try load() } }
    }

    @discardableResult
    public func update(_ change: @Sendable (inout AttemptRecord) -> Void) async throws -> AttemptRecord {
        try guarded {
            try file.withExclusiveLock {
                var record = try load()
                change(&record)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                try file.write(Array(try encoder.encode(record)))
                return record
            }
        }
    }

    /// Ends a reuse window kept in this record (by a process without a
    /// ``ReuseWindowStore``, or an older Sesame): forgets the last biometric
    /// success. Never prompts; a record that holds none, or no record at all,
    /// is left as it is (nothing is created).
    ///
    /// - Throws: ``StoreError`` when the record cannot be read or written.
    public func endReuseWindow() async throws {
        guard PrivateFile.exists(file.path), try await read().lastBiometricSuccess != nil else { return }
        try await update { record in
            record.lastBiometricSuccess = nil
            record.lastBiometricSuccessDomainState = nil
        }
    }

    private func load() throws -> AttemptRecord {
        guard let bytes = try file.read() else { return AttemptRecord() }
        do {
            return try JSONDecoder().decode(AttemptRecord.self, from: Data(bytes))
        } catch {
            throw StoreError.damaged(path: file.path)
        }
    }

    private func guarded<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let failure as PrivateFile.Failure {
            if case .insecurePermissions(let path, let mode) = failure {
                throw StoreError.insecurePermissions(path: path, mode: mode)
            }
            throw StoreError.system(failure.description)
        }
    }
}
