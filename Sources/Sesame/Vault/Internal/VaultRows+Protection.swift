import Crypto

/// Sealing a new row under an access control: one path for items and keys,
/// so a key is protected exactly as an item is (SPEC D2, D5, D6, D7).
extension VaultRows {
    /// What a new row's wrappings are made from.
    struct NewProtection {
        /// The enrolment a `biometryCurrentSet` row is bound to.
        var domainState: DomainState?
        /// The application password, for `applicationPassword` rows.
        var password: SecretBytes?
    }

    /// Checks that `accessControl` and `accessibility` can be satisfied on
    /// this machine now, and gathers the domain state and application
    /// password they bind to, from `context` when it was authorised for
    /// `operation` (SPEC A12) or read without prompting.
    ///
    /// - Throws: ``VaultError`` `notAvailable` (no enrolled biometric for
    ///   `biometryCurrentSet`, no device passcode for
    ///   `whenPasscodeSetThisDeviceOnly`), `authFailed` (no application password).
    func newProtection(
        _ accessControl: AccessControl, accessibility: ItemAccessibility, operation: AccessControlOperation, name: String,
        context: AuthenticationContext?
    ) async throws(VaultError) -> NewProtection {
        if accessibility == .whenPasscodeSetThisDeviceOnly {
            guard let verifier = vault.authenticators.devicePasscode, case .set = await verifier.currentState() else {
                throw VaultError(.notAvailable, "\(name) is whenPasscodeSetThisDeviceOnly, but no device passcode is set")
            }
        }
        let context = context ?? vault.makeContext()
        var domainState: DomainState?
        if accessControl.flags.contains(.biometryCurrentSet) {
            domainState = context.authorization(for: accessControl, operation: operation)?.domainState ?? context.domainState
            if domainState == nil {
                do throws(AuthenticationError) {
                    try await context.canEvaluate(.biometrics)
                } catch {
                    throw VaultError(.notAvailable, "\(name) is bound to the current biometric enrolment, but biometrics cannot be used: \(error.message)", authenticationError: error)
                }
                domainState = context.domainState
            }
            guard domainState != nil else {
                throw VaultError(.notAvailable, "\(name) is bound to the current biometric enrolment, but the sensor does not report one")
            }
        }
        let password = context.credential(.applicationPassword)
        if accessControl.flags.contains(.applicationPassword) && password == nil {
            throw VaultError(.authFailed, "\(name) is protected by an application password, but none is set on the context (SPEC D6)")
        }
        return NewProtection(domainState: domainState, password: password)
    }

    /// Wraps a row's own key under one class key per factor set of
    /// `accessControl` (``AccessControl/wrappingFactorSets``).
    ///
    /// - Parameter label: The wrappings' associated-data label: an item's or a private key's.
    /// - Returns: The encoded wrappings.
    func wrap(
        _ rowKey: SymmetricKey, id: Int64, label: String, accessControl: AccessControl, accessibility: ItemAccessibility,
        protection: NewProtection
    ) throws(VaultError) -> [UInt8] {
        let cost = vault.applicationPasswordCost
        var wrappings: [Wrapping] = []
        for factors in accessControl.wrappingFactorSets {
            var salt: [UInt8] = []
            var passwordKey: SymmetricKey?
            if factors.contains(.applicationPassword), let password = protection.password {
                salt = KeyDerivation.randomBytes(16)
                passwordKey = try derivePasswordKey(password, salt: salt, cost: cost)
            }
            let classKey = KeyDerivation.classKey(
                vault.subkeys.masterKey, vaultID: vault.subkeys.vaultID, accessControl: accessControl, accessibility: accessibility,
                factors: factors, domainState: protection.domainState?.bytes, passwordKey: passwordKey)
            let sealed = try VaultError.sealing { () throws(CryptoFailure) in try Envelope.seal(rowKey.bytes, key: classKey, associatedData: Wrapping.associatedData(label, itemID: id, factors: factors)) }
            wrappings.append(Wrapping(factors: factors, salt: salt, cost: passwordKey == nil ? nil : cost, sealed: sealed))
        }
        return Wrapping.encode(wrappings)
    }
}
