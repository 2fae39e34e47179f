/// Key handles (SPEC P4): an opaque reference to one protected key that only
/// this vault can open, as a Secure Enclave key's `dataRepresentation` is
/// usable on its device alone. A passkey's credential id is one: a relying
/// party stores it and sends it back, and learns nothing from it.
extension VaultKeys {
    /// A handle to the key `name` of `service`, bound to `binding`.
    ///
    /// The handle is the key's name sealed under a key of this vault's
    /// master key, with `service` and `binding` authenticated: it opens
    /// only in this vault, only for that service and binding (a passkey's
    /// relying-party hash), and two handles to one key do not look alike.
    /// Never prompts, reads nothing.
    ///
    /// - Parameters:
    ///   - service: The key's service.
    ///   - name: The key's name.
    ///   - binding: What the handle is for; the same bytes must be given to open it.
    /// - Returns: 12 + the name's UTF-8 length + 16 bytes.
    /// - Throws: ``VaultError`` `ioError` when the crypto library fails.
    public func handle(service: String, name: String, binding: [UInt8]) throws(VaultError) -> [UInt8] {
        try VaultError.sealing { () throws(CryptoFailure) in try Envelope.seal(Array(name.utf8), key: vault.subkeys.keyHandleKey, associatedData: Self.keyHandleData(service: service, binding: binding)) }
    }

    /// The name of the key that `handle` refers to, when this vault made the
    /// handle for `service` and `binding`; `nil` for any other bytes. Whether
    /// the key still exists is not checked. Never prompts, reads nothing.
    ///
    /// - Parameters:
    ///   - handle: Bytes from ``VaultKeys/handle(service:name:binding:)``, or anything.
    ///   - service: The service the key must be of.
    ///   - binding: What the handle must be bound to.
    /// - Returns: The key's name, or `nil`.
    public func name(fromHandle handle: [UInt8], service: String, binding: [UInt8]) -> String? {
        guard let name = Envelope.open(handle, key: vault.subkeys.keyHandleKey, associatedData: Self.keyHandleData(service: service, binding: binding)) else {
            return nil
        }
        return String(validating: name, as: UTF8.self)
    }

    private static func keyHandleData(service: String, binding: [UInt8]) -> [UInt8] {
        Envelope.associatedData(Labels.keyHandle) { writer in
            writer.field(service)
            writer.field(binding)
        }
    }
}
