/// credProtect (CTAP 2.1 §12.1): when a credential may be used, or even
/// named, without user verification. A makeCredential asks for a level
/// (``PasskeyProtection``); getAssertion then leaves out a credential the
/// request may not see, and credential management reports the level.
public struct CredProtectExtension: CTAP2Extension {
    /// Its extension identifier.
    public static let identifier = "credProtect"

    /// The level `creation` was made with: ``PasskeyProtection/userVerificationOptional``
    /// when none was asked for, and the strictest when its state is not
    /// one this Sesame reads (a state never loosens what it cannot read).
    public static func protection(of creation: PasskeyCreation) -> PasskeyProtection {
        protection(state: creation.extensions[identifier])
    }

    /// The state a credential keeps for `protection`: one byte, CTAP's
    /// number of the level. Frozen: vaults keep it.
    public static func state(_ protection: PasskeyProtection) -> [UInt8] {
        [UInt8(protection.rawValue)]
    }

    var identifier: String { Self.identifier }

    /// The level as an unsigned integer, 1 to 3; answered with the level.
    func register(_ input: CBORValue) throws(CTAP2Status) -> CTAP2ExtensionRegistration? {
        guard let level = input.intValue else { throw .cborUnexpectedType }
        guard let protection = PasskeyProtection(rawValue: level) else { throw .invalidParameter }
        return CTAP2ExtensionRegistration(state: Self.state(protection), output: .int(protection.rawValue))
    }

    /// Level 3 is never named without user verification asked for; level
    /// 2 only when the client names its id (an allowList).
    func permits(state: [UInt8]?, userVerificationAsked: Bool, credentialNamed: Bool) -> Bool {
        switch Self.protection(state: state) {
        case .userVerificationOptional: true
        case .userVerificationOptionalWithCredentialIDList: userVerificationAsked || credentialNamed
        case .userVerificationRequired: userVerificationAsked
        }
    }

    /// credProtect (0x0A) of enumerateCredentials' answer: every credential's level.
    func credentialManagementFields(state: [UInt8]?) -> [CBORValue: CBORValue] {
        [0x0A: .int(Self.protection(state: state).rawValue)]
    }

    private static func protection(state: [UInt8]?) -> PasskeyProtection {
        guard let state else { return .userVerificationOptional }
        guard state.count == 1, let protection = PasskeyProtection(rawValue: Int(state[0])) else { return .userVerificationRequired }
        return protection
    }
}
