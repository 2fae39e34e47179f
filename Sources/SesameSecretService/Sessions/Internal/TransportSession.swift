import Crypto
import CryptoExtras
import Foundation
import Sesame

/// One client's session: how secrets travel between it and the server.
struct TransportSession: Sendable {
    enum Algorithm: Sendable {
        case plain
        case dh(SymmetricKey)
    }

    /// The client that opened it; only it may use it, and it closes when it leaves the bus.
    let owner: String
    let path: String
    let algorithm: Algorithm

    enum Failure: Error {
        /// Parameters or value do not decrypt (wrong IV size, bad padding).
        case malformed(String)
    }

    /// Opens a secret a client sent: `(parameters, value)` of its Secret struct.
    /// - Throws: ``Failure`` for anything that does not decrypt; never crashes.
    func open(parameters: SecretBytes, value: SecretBytes) throws(Failure) -> SecretBytes {
        switch algorithm {
        case .plain:
            guard parameters.isEmpty else { throw .malformed("the plain algorithm takes no parameters") }
            return value
        case .dh(let key):
            guard parameters.count == 16 else { throw .malformed("the IV must be 16 bytes, not \(parameters.count)") }
            guard value.count > 0, value.count % 16 == 0 else { throw .malformed("the value is not a whole number of AES blocks") }
            do {
                let iv = try parameters.withUnsafeBytes { try AES._CBC.IV(ivBytes: $0) }
                var clear = try value.withUnsafeBytes { try AES._CBC.decrypt($0, using: key, iv: iv) }
                defer { clear.resetBytes(in: 0..<clear.count) }
                return SecretBytes(clear)
            } catch {
                throw .malformed("the value does not decrypt under this session (wrong key or padding)")
            }
        }
    }

    /// Seals a secret for the client: `(parameters, value)`.
    func seal(_ secret: SecretBytes) throws(Failure) -> (parameters: SecretBytes, value: SecretBytes) {
        switch algorithm {
        case .plain:
            return (SecretBytes([UInt8]()), secret)
        case .dh(let key):
            var ivBytes = [UInt8](repeating: 0, count: 16)
            var generator = SystemRandomNumberGenerator()
            for index in ivBytes.indices { ivBytes[index] = generator.next() }
            do {
                let iv = try AES._CBC.IV(ivBytes: ivBytes)
                let sealed = try secret.withUnsafeBytes { try AES._CBC.encrypt($0, using: key, iv: iv) }
                return (SecretBytes(ivBytes), SecretBytes(sealed))
            } catch {
                throw .malformed("the secret could not be encrypted")
            }
        }
    }
}
