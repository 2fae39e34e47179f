/// The vault's edge: the floors beneath it (the security core, the device
/// key seam) have errors of their own, named here as the vault reports them,
/// so that nothing below the vault names the vault's error.
extension VaultError {
    /// The crypto library failed to seal: `ioError`.
    init(_ failure: CryptoFailure) {
        self.init(.ioError, failure.description)
    }

    /// A device key store's failure, with its message: an unreachable key
    /// is `locked` (the passcode or recovery key still opens the vault), a
    /// hardware lockout `authFailed` with its `retryAfter`.
    init(_ error: any DeviceKeyStoreError) {
        switch error.failure {
        case .unreachable: self.init(.locked, error.description)
        case .lockedOut(let retryAfter):
            self.init(.authFailed, error.description, authenticationError: AuthenticationError(.authenticationFailed, retryAfter: retryAfter))
        case .refused: self.init(.authFailed, error.description)
        case .damaged: self.init(.damaged, error.description)
        case .insecurePermissions: self.init(.insecurePermissions, error.description)
        case .failed: self.init(.ioError, error.description)
        }
    }

    /// Runs a seal of the security core, its failure reported as the vault's.
    static func sealing<Value>(_ seal: () throws(CryptoFailure) -> Value) throws(VaultError) -> Value {
        do throws(CryptoFailure) {
            return try seal()
        } catch {
            throw VaultError(error)
        }
    }
}
