#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This process's environment as a child started through swift-subprocess
/// must get it: the bytes of `environ` as they are. Its `.inherit` decodes
/// every entry as UTF-8 and would hand a value that is not (a binary vault
/// item `run` exported) to the command altered; pinentry needs it as it is
/// to find its surface (`DISPLAY`, `WAYLAND_DISPLAY`, `TERM`). One reader for
/// the CLI's children and SesameLinux's pinentry.
package enum InheritedEnvironment {
    /// Each `NAME=value` entry, NUL-terminated, read now (after `setenv`).
    /// The caller wipes them: `run` put secrets there.
    package static func entries() -> [[UInt8]] {
        var entries: [[UInt8]] = []
        var entry = environ
        while let bytes = entry.pointee {
            entries.append(Array(UnsafeRawBufferPointer(start: bytes, count: strlen(bytes) + 1)))
            entry += 1
        }
        return entries
    }
}
