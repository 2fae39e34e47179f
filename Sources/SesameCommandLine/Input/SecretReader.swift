#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sesame

/// Reads secrets from file descriptors straight into ``SecretBytes``.
///
/// Secrets never come from argv or the environment: both are visible to
/// other processes (`/proc/PID/cmdline`, `/proc/PID/environ`) and end up in
/// shell history. A descriptor (`--passcode-fd 3 3<file`, a pipe) is not.
enum SecretReader {
    /// Far more than any passcode or item value; stops `--passcode-fd 0`
    /// pointed at something endless from eating all memory.
    static let limit = 16 << 20

    /// Reads `descriptor` to its end.
    ///
    /// - Parameters:
    ///   - descriptor: An open, readable descriptor.
    ///   - what: What is read, for messages.
    ///   - stripNewline: Drop one trailing `\n` (`echo pass >file` adds it).
    ///   - limit: The most bytes accepted (a power of two times 4 KiB).
    /// - Returns: The bytes, the only copy left in memory.
    static func read(descriptor: Int32, what: String, stripNewline: Bool, limit: Int = SecretReader.limit) throws(CommandFailure) -> SecretBytes {
        // One growable raw buffer, wiped before each reallocation and at the
        // end, so no stale copy of the secret is left on the heap (a Swift
        // array would copy on growth without wiping the old storage).
        var capacity = 4096
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        var count = 0
        defer {
            wipe(buffer)
            buffer.deallocate()
        }
        while true {
            if count == capacity {
                guard capacity < limit else {
                    throw CommandFailure(status: .usage, message: "\(what) is longer than \(limit >> 20) MiB")
                }
                let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity * 2, alignment: 1)
                larger.copyMemory(from: UnsafeRawBufferPointer(buffer))
                wipe(buffer)
                buffer.deallocate()
                buffer = larger
                capacity *= 2
            }
            let got = systemRead(descriptor, buffer.baseAddress! + count, capacity - count)
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                if errno == EBADF {
                    throw CommandFailure(status: .usage, message: "file descriptor \(descriptor) for \(what) is not open for reading")
                }
                throw CommandFailure(status: .failure, message: "cannot read \(what) from file descriptor \(descriptor): \(String(cString: strerror(errno)))")
            }
            count += got
        }
        if stripNewline, count > 0, buffer[count - 1] == UInt8(ascii: "\n") { count -= 1 }
        return SecretBytes(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }

    /// Whether `descriptor` is a terminal: a person typing, not a pipe.
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
