import CSesameLinux
import Sesame

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file descriptor that came in a D-Bus message (`h`), as a copy the
/// server owns: the message's own is closed with the message, this one
/// when the last reference goes, so a reply can outlive the call's
/// message and a forgotten descriptor is never leaked.
package final class DBusFileDescriptor: Sendable {
    /// The descriptor; valid while this object lives.
    package let rawValue: Int32

    /// Duplicates `descriptor` (close-on-exec).
    /// - Parameter descriptor: One the caller keeps owning.
    /// - Returns: `nil` when it cannot be duplicated (not open, or no descriptors left).
    package init?(duplicating descriptor: Int32) {
        guard descriptor >= 0 else { return nil }
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
        guard copy >= 0 else { return nil }
        rawValue = copy
    }

    /// Writes all of `bytes` to the descriptor on a thread of its own,
    /// waiting at most `timeout` for room: a reader that left is an error
    /// (never a SIGPIPE that ends the process), a reader that never drains
    /// is a timeout, never a hang.
    ///
    /// - Parameters:
    ///   - bytes: What to write (a secret: never copied).
    ///   - timeoutMilliseconds: The longest wait for room, in all.
    /// - Returns: `nil` once written, else why not, for a log line.
    package func writeAll(_ bytes: SecretBytes, timeoutMilliseconds: Int32) async -> String? {
        let descriptor = rawValue
        let written = await DedicatedThread.run(name: "descriptor write") {
            bytes.withUnsafeBytes { raw in
                sesame_descriptor_write_all(descriptor, raw.baseAddress, raw.count, timeoutMilliseconds)
            }
        }
        guard let written else { return "no thread could be started to write it" }
        switch -written {
        case 0: return nil
        case EPIPE: return "its reader is gone (EPIPE)"
        case EBADF: return "it is not open for writing (EBADF)"
        case ETIMEDOUT: return "it took nothing for \(timeoutMilliseconds / 1000) s (ETIMEDOUT)"
        default: return String(cString: strerror(-written))
        }
    }

    deinit {
        close(rawValue)
    }
}
