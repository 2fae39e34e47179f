#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A process's executable as `/proc/<pid>/exe` names it: the program a
/// D-Bus peer runs, for prompts and errors. Read only; never trusted for a
/// decision (a process can exec another after the bus told us its pid).
package enum ProcessExecutable {
    /// - Parameter pid: A process id; 0 or less gives `nil`.
    /// - Returns: The executable's path, or `nil` when it cannot be read
    ///   (another user's process, gone, or another pid namespace).
    package static func path(of pid: Int32) -> String? {
        guard pid > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlink("/proc/\(pid)/exe", &buffer, 4096)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
