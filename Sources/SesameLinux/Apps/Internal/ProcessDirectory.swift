#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One process's `/proc/PID`, opened once: every read goes through this
/// descriptor, which keeps naming that process after it exits, so a pid
/// given to a new process cannot mix the new one's files into the reads
/// (they fail instead).
struct ProcessDirectory: ~Copyable {
    private let descriptor: Int32

    /// What a read found.
    enum Read {
        case contents([UInt8])
        /// The file does not exist (`ENOENT`).
        case missing
        /// Any other failure: unreadable, too big, or not a regular file.
        case failed
    }

    /// - Parameter pid: A process id; 0 or less gives `nil`.
    init?(pid: Int32) {
        guard pid > 0 else { return nil }
        let opened = open("/proc/\(pid)", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard opened >= 0 else { return nil }
        descriptor = opened
    }

    deinit {
        close(descriptor)
    }

    /// Reads a file below the directory, at most `limit` bytes.
    /// - Parameters:
    ///   - path: Relative to `/proc/PID` (`stat`, `root/.flatpak-info`).
    ///   - limit: A longer file is a failure, never a truncated read.
    ///   - regularOnly: Refuse anything but a regular file, and a symlink
    ///     as the last component (it would resolve against our own root,
    ///     not the process's).
    func read(_ path: String, limit: Int, regularOnly: Bool = false) -> Read {
        // O_NONBLOCK: opening a FIFO planted where a file is expected must not hang the bus thread.
        let flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (regularOnly ? O_NOFOLLOW : 0)
        let file = openat(descriptor, path, flags)
        guard file >= 0 else { return errno == ENOENT ? .missing : .failed }
        defer { close(file) }
        if regularOnly {
            var status = stat()
            guard fstat(file, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return .failed }
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failed
            }
            if count == 0 { return .contents(bytes) }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { return .failed }
        }
    }

    /// The target of a symbolic link below the directory (`exe`).
    /// - Returns: `nil` when it cannot be read or fills the whole buffer
    ///   (it may then be cut short).
    func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlinkat(descriptor, path, &buffer, buffer.count)
        guard count > 0, count < buffer.count else { return nil }
        return String(validating: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
