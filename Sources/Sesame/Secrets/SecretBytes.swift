#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Secret material (a passcode, an application password, a key) held in memory
/// that Sesame wipes when the last reference goes away.
///
/// Sesame never logs, prints or persists a `SecretBytes` in the clear: its
/// `description` is redacted, and comparisons run in constant time so that
/// the time taken does not reveal how many leading bytes matched.
public final class SecretBytes: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    // Written only during `init` and `deinit`, so sharing across threads is safe.
    private nonisolated(unsafe) let storage: UnsafeMutableRawBufferPointer

    /// Copies `bytes` into wiped-on-release storage.
    ///
    /// - Parameter bytes: The secret. The caller remains responsible for wiping
    ///   its own copy.
    public init(_ bytes: some Collection<UInt8>) {
        storage = .allocate(byteCount: max(bytes.count, 1), alignment: 1)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        _ = UnsafeMutableRawBufferPointer(rebasing: storage[0..<bytes.count]).initializeMemory(as: UInt8.self, from: bytes)
        count = bytes.count
    }

    /// Copies the UTF-8 bytes of `string`.
    ///
    /// - Parameter string: The secret as text. Prefer reading secrets straight
    ///   into bytes: a Swift `String` cannot be wiped.
    public convenience init(utf8 string: String) {
        self.init(Array(string.utf8))
    }

    deinit {
        wipe(storage)
        storage.deallocate()
    }

    /// The number of bytes in the secret.
    public let count: Int

    /// Whether the secret is empty.
    public var isEmpty: Bool { count == 0 }

    /// Gives `body` read access to the bytes. Do not let them escape.
    ///
    /// - Parameter body: A closure that reads the secret.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
    }

    /// Compares two secrets in constant time (for equal lengths).
    ///
    /// - Parameter other: The secret to compare with.
    /// - Returns: `true` when both hold the same bytes.
    public func constantTimeEquals(_ other: SecretBytes) -> Bool {
        withUnsafeBytes { mine in
            other.withUnsafeBytes { theirs in
                ConstantTime.equals(mine, theirs)
            }
        }
    }

    public var description: String { "SecretBytes(\(count) bytes, redacted)" }
    public var debugDescription: String { description }
}

/// Overwrites memory in a way the optimiser may not remove.
package func wipe(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    #if canImport(Darwin)
    _ = memset_s(base, buffer.count, 0, buffer.count)
    #else
    explicit_bzero(base, buffer.count)
    #endif
}

/// Wipes a byte array in place (the array's own storage, not earlier copies).
package func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { wipe($0) }
    bytes.removeAll()
}
