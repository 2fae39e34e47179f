#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sesame

/// Writes bytes to standard output exactly, with write(2): no String and no
/// stdio buffer keeps a copy of a secret.
enum StandardOutput {
    /// Writes `bytes` whole, retrying short writes.
    ///
    /// - Throws: ``CommandFailure`` (exit 1) when standard output is closed or full.
    static func write(_ bytes: UnsafeRawBufferPointer) throws(CommandFailure) {
        if let failure = Descriptor.writeAll(bytes, to: 1) {
            throw CommandFailure(status: .failure, message: "cannot write to standard output: \(String(cString: strerror(failure)))")
        }
    }

    /// Writes a secret straight from its wiped-on-release buffer.
    static func write(_ secret: SecretBytes) throws {
        try secret.withUnsafeBytes { try write($0) }
    }

    /// Writes bytes held in an array, in place: a caller whose bytes are
    /// secret (a rendered template) wipes the array afterwards.
    static func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }
}
