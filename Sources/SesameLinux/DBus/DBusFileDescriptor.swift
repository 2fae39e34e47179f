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

    deinit {
        close(rawValue)
    }
}
