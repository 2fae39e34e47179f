#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sesame

/// The environment `sesame run` hands its command, which then replaces
/// `sesame` (``ProcessStart/replacingSesame(with:)``).
enum CommandEnvironment {
    /// Puts `value` into the environment the command will inherit.
    ///
    /// - Throws: ``CommandFailure`` when the value holds a NUL byte, which an
    ///   environment variable cannot carry (it would be cut short silently).
    static func export(_ variable: String, _ value: SecretBytes, item: String) throws {
        try value.withUnsafeBytes { bytes in
            guard !bytes.contains(0) else {
                throw CommandFailure(status: .failure, message: "\(item) contains a NUL byte, which an environment variable cannot hold; the command was not run")
            }
            // A NUL-terminated copy for setenv, wiped once setenv has copied it.
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count + 1, alignment: 1)
            defer {
                wipe(buffer)
                buffer.deallocate()
            }
            buffer.copyMemory(from: bytes)
            buffer[bytes.count] = 0
            guard setenv(variable, buffer.baseAddress!.assumingMemoryBound(to: CChar.self), 1) == 0 else {
                throw CommandFailure(status: .failure, message: "cannot set \(variable): \(String(cString: strerror(errno)))")
            }
        }
    }
}
