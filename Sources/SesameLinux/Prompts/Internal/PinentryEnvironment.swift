#if os(Linux)
import Glibc

/// This process's environment as pinentry gets it: the bytes of `environ`
/// as they are (swift-subprocess's `.inherit` decodes every entry as UTF-8).
/// pinentry needs it to find its surface: `DISPLAY`, `WAYLAND_DISPLAY`,
/// `DBUS_SESSION_BUS_ADDRESS`, `TERM`.
enum PinentryEnvironment {
    /// Each `NAME=value` entry, NUL-terminated; the caller wipes them.
    static func entries() -> [[UInt8]] {
        var entries: [[UInt8]] = []
        var entry = environ
        while let bytes = entry.pointee {
            entries.append(Array(UnsafeRawBufferPointer(start: bytes, count: strlen(bytes) + 1)))
            entry += 1
        }
        return entries
    }
}
#endif
