#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whole writes and drains on a file descriptor: the one loop every module
/// uses, so that each retries short writes and `EINTR` the same way, and a
/// socket whose reader has gone is `EPIPE`, never a SIGPIPE that kills the
/// process. These calls block: on a pipe or socket, call them on a thread
/// of their own (``DedicatedThread``) unless the descriptor cannot fill.
package enum Descriptor {
    /// Writes every byte of `bytes`, retrying short writes and `EINTR`.
    ///
    /// - Parameters:
    ///   - bytes: What to write.
    ///   - descriptor: Where.
    ///   - isSocket: Sends with `MSG_NOSIGNAL` (sockets only): a reader
    ///     that has gone is `EPIPE` for this call, not SIGPIPE for the process.
    /// - Returns: `nil` once every byte is written; else the `errno` that
    ///   stopped it (`EPIPE` when the descriptor took nothing more).
    @discardableResult
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, isSocket: Bool = false) -> Int32? {
        var written = 0
        while written < bytes.count {
            let start = bytes.baseAddress! + written
            #if canImport(Darwin)
            let count = write(descriptor, start, bytes.count - written)
            #else
            let count = isSocket
                ? send(descriptor, start, bytes.count - written, Int32(MSG_NOSIGNAL))
                : write(descriptor, start, bytes.count - written)
            #endif
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? EPIPE : errno }
            written += count
        }
        return nil
    }

    /// ``writeAll(_:to:isSocket:)`` of an array's bytes.
    @discardableResult
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32, isSocket: Bool = false) -> Int32? {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor, isSocket: isSocket) }
    }

    /// ``writeAll(_:to:isSocket:)`` of a text's UTF-8.
    @discardableResult
    package static func writeAll(_ text: String, to descriptor: Int32, isSocket: Bool = false) -> Int32? {
        writeAll(Array(text.utf8), to: descriptor, isSocket: isSocket)
    }

    /// Reads and drops what `descriptor` holds until it ends: a wake-up
    /// pipe's bytes (non-blocking: until it would block), or the rest of a
    /// stream whose other end closes once it has read.
    package static func drain(_ descriptor: Int32) {
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(descriptor, &bytes, bytes.count)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return }
        }
    }
}
