#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An ``AttemptStore`` in a file, so that lockout, failure counts and
/// passcode delays survive a restart of the process (SPEC A4, E3).
///
/// The file is JSON, mode 0600, in a directory of mode 0700; a file or
/// directory that others can read or write is refused. Every update holds an
/// exclusive lock across processes and replaces the file atomically (write,
/// fsync, rename), so a crash leaves the old or the new record, never half.
///
/// The record is not secret but its integrity matters: anyone who can write
/// it as you can reset your counters. That is the same user, who could also
/// run any code as you; the vault (a later layer) authenticates it.
public final class FileAttemptStore: AttemptStore {
    /// Why the store cannot be used.
    public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
        /// A file or directory has permissions that let others in.
        case insecurePermissions(path: String, mode: UInt32)
        /// A system call failed.
        case systemCall(String, path: String, errno: Int32)
        /// The file exists but is not a valid record.
        case damaged(path: String)

        public var description: String {
            switch self {
            case .insecurePermissions(let path, let mode):
                "\(path) is accessible to other users (mode \(String(mode, radix: 8))); Sesame refuses to use it. Run: chmod go-rwx \(path)"
            case .systemCall(let call, let path, let code):
                "\(call) failed for \(path): \(String(cString: strerror(code)))"
            case .damaged(let path):
                "\(path) is damaged; Sesame does not reset it on its own (failing closed). Remove it only if you trust this machine"
            }
        }
    }

    /// The record's path.
    public let path: String
    private let directory: String
    private let lockPath: String

    /// Creates a store at `path`, creating its directory (0700) if needed.
    ///
    /// - Parameter path: The record's file, e.g. from ``defaultPath(environment:)``.
    public init(path: String) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        directory = slash.map { String(path[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? "."
        lockPath = path + ".lock"
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
        var info = stat()
        if lstat(directory, &info) != 0 && errno == ENOENT { return AttemptRecord() }
        return try withExclusiveLock { try load() }
    }

    @discardableResult
    public func update(_ change: @Sendable (inout AttemptRecord) -> Void) async throws -> AttemptRecord {
        try withExclusiveLock {
            var record = try load()
            change(&record)
            try save(record)
            return record
        }
    }

    // MARK: Files

    private func withExclusiveLock<Result>(_ body: () throws -> Result) throws -> Result {
        try ensureDirectory()
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw StoreError.systemCall("open", path: lockPath, errno: errno) }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { throw StoreError.systemCall("flock", path: lockPath, errno: errno) }
        return try body()
    }

    private func ensureDirectory() throws {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            // Create missing parents, each 0700.
            var partial = ""
            for component in directory.split(separator: "/") {
                partial += "/" + component
                if mkdir(partial, 0o700) != 0 && errno != EEXIST {
                    throw StoreError.systemCall("mkdir", path: partial, errno: errno)
                }
            }
        }
        try requirePrivate(directory)
    }

    private func requirePrivate(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw StoreError.systemCall("stat", path: path, errno: errno) }
        let mode = UInt32(info.st_mode) & 0o777
        if mode & 0o077 != 0 { throw StoreError.insecurePermissions(path: path, mode: mode) }
    }

    private func load() throws -> AttemptRecord {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return AttemptRecord() }
            throw StoreError.systemCall("open", path: path, errno: errno)
        }
        defer { close(descriptor) }
        try requirePrivate(path)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { throw StoreError.systemCall("read", path: path, errno: errno) }
            if count == 0 { break }
            bytes += buffer[0..<count]
            if bytes.count > 1 << 20 { throw StoreError.damaged(path: path) }
        }
        do {
            return try JSONDecoder().decode(AttemptRecord.self, from: Data(bytes))
        } catch {
            throw StoreError.damaged(path: path)
        }
    }

    private func save(_ record: AttemptRecord) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(record)
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw StoreError.systemCall("open", path: temporary, errno: errno) }
        var written = 0
        let failure: Int32? = data.withUnsafeBytes { raw in
            while written < raw.count {
                let count = systemWrite(descriptor, raw.baseAddress! + written, raw.count - written)
                if count < 0 { return errno }
                written += count
            }
            return fsync(descriptor) == 0 ? nil : errno
        }
        close(descriptor)
        if let failure { throw StoreError.systemCall("write", path: temporary, errno: failure) }
        guard rename(temporary, path) == 0 else { throw StoreError.systemCall("rename", path: path, errno: errno) }
        // Make the rename itself durable.
        let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}

// `read`/`write` are shadowed by the store's own methods inside the class.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
