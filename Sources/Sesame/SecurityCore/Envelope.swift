import Crypto

/// The one envelope (ARCHITECTURE, "The security core"): AES-256-GCM with a
/// random 96-bit nonce, stored as nonce ‖ ciphertext ‖ tag, and associated
/// data that starts with a purpose label from ``Labels`` and the format
/// version, so a sealed value only opens as the record it was made for.
/// Item values, item keys, key slots, settings, feature records and export
/// files all go through it; nothing else in Sesame calls AES-GCM.
enum Envelope {
    /// The format version bound into every associated data built here.
    static let formatVersion: UInt8 = 1

    /// Associated data: the purpose label, the format version, then `fields`.
    ///
    /// - Parameters:
    ///   - label: What the sealed bytes are (a ``Labels`` entry).
    ///   - fields: Writes the record's identity (length-prefixed fields).
    /// - Returns: The bytes to authenticate.
    static func associatedData(_ label: String, _ fields: (inout ByteWriter) -> Void = { _ in }) -> [UInt8] {
        var writer = ByteWriter()
        writer.raw(Labels.bytes(label))
        writer.u8(formatVersion)
        fields(&writer)
        return writer.bytes
    }

    /// Seals `plaintext` under `key`.
    ///
    /// - Parameters:
    ///   - plaintext: The secret bytes.
    ///   - key: A 256-bit key.
    ///   - associatedData: What the sealed bytes are bound to.
    /// - Returns: nonce ‖ ciphertext ‖ tag.
    /// - Throws: ``CryptoFailure`` when the crypto library fails.
    static func seal(_ plaintext: [UInt8], key: SymmetricKey, associatedData: [UInt8]) throws(CryptoFailure) -> [UInt8] {
        do {
            return Array(try AES.GCM.seal(plaintext, using: key, authenticating: associatedData).combined!)
        } catch {
            throw CryptoFailure(description: "AES-GCM failed: \(error)")
        }
    }

    /// Opens what ``seal(_:key:associatedData:)`` made.
    ///
    /// - Parameters:
    ///   - sealed: nonce ‖ ciphertext ‖ tag.
    ///   - key: The key it was sealed under.
    ///   - associatedData: What it must be bound to.
    /// - Returns: The plaintext, or `nil` when the key or the associated data
    ///   is wrong or the bytes were changed (AES-GCM cannot tell which).
    static func open(_ sealed: some Collection<UInt8>, key: SymmetricKey, associatedData: [UInt8]) -> [UInt8]? {
        guard let box = try? AES.GCM.SealedBox(combined: Array(sealed)),
              let plaintext = try? AES.GCM.open(box, using: key, authenticating: associatedData) else { return nil }
        return Array(plaintext)
    }
}
