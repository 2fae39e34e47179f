/// Who may use an item: flags combined with `or` or `and` (SPEC D2).
///
/// The type cannot express both combinators at once, which SPEC D2 forbids;
/// the initialiser rejects the remaining invalid combinations.
public struct AccessControl: Sendable, Hashable, Codable, CustomStringConvertible {
    /// One requirement.
    public enum Flag: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
        /// Biometrics or the device passcode; survives enrolment changes.
        case userPresence
        /// Biometrics; survives enrolment changes.
        case biometryAny
        /// Biometrics, bound to the enrolment at creation (SPEC D5).
        case biometryCurrentSet
        /// The device passcode.
        case devicePasscode
        /// An application password set on the context (SPEC D6).
        case applicationPassword
        /// Use of a private key (keys only; adds no user check).
        case privateKeyUsage

        /// Flags sort by their rank, the order of the canonical encoding.
        public static func < (lhs: Flag, rhs: Flag) -> Bool {
            lhs.rank < rhs.rank
        }

        /// The flag's bit in stored wrappings, HKDF info and row MACs. Frozen:
        /// written explicitly, never derived from the declaration order, so a
        /// flag added anywhere in the enum changes nothing already stored.
        var frozenBit: UInt8 {
            switch self {
            case .userPresence: 1 << 0
            case .biometryAny: 1 << 1
            case .biometryCurrentSet: 1 << 2
            case .devicePasscode: 1 << 3
            case .applicationPassword: 1 << 4
            case .privateKeyUsage: 1 << 5
            }
        }

        /// The position in the canonical encoding (`or:biometryAny,devicePasscode`). Frozen.
        var rank: Int { frozenBit.trailingZeroBitCount }
    }

    /// How the flags combine.
    public enum Combination: String, Sendable, Hashable, Codable {
        /// Any one of the flags suffices.
        case or
        /// Every flag is required.
        case and
    }

    /// Why an access control is invalid.
    public enum ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
        /// `biometryAny` and `biometryCurrentSet` contradict each other.
        case conflictingBiometryFlags

        public var description: String {
            switch self {
            case .conflictingBiometryFlags:
                "biometryAny and biometryCurrentSet cannot be combined: one survives enrolment changes, the other does not"
            }
        }
    }

    /// The requirements.
    public let flags: Set<Flag>
    /// How they combine.
    public let combination: Combination

    /// Creates an access control.
    ///
    /// - Parameters:
    ///   - flags: The requirements; empty means no user check.
    ///   - combination: How they combine; irrelevant for a single flag.
    /// - Throws: ``ValidationError`` for contradictory flags.
    public init(_ flags: Set<Flag>, combination: Combination = .or) throws(ValidationError) {
        if flags.contains(.biometryAny) && flags.contains(.biometryCurrentSet) {
            throw .conflictingBiometryFlags
        }
        self.flags = flags
        self.combination = combination
    }

    private init(single flag: Flag) {
        flags = [flag]
        combination = .or
    }

    /// Biometrics or the device passcode.
    public static let userPresence = AccessControl(single: .userPresence)
    /// Any enrolled biometric.
    public static let biometryAny = AccessControl(single: .biometryAny)
    /// A biometric enrolled when the item was created.
    public static let biometryCurrentSet = AccessControl(single: .biometryCurrentSet)
    /// The device passcode.
    public static let devicePasscode = AccessControl(single: .devicePasscode)
    /// The application password.
    public static let applicationPassword = AccessControl(single: .applicationPassword)

    /// The flags that need the user (all but `privateKeyUsage`).
    public var userFactors: Set<Flag> { flags.subtracting([.privateKeyUsage]) }

    public var description: String {
        flags.sorted().map(\.rawValue).joined(separator: combination == .or ? " or " : " and ")
    }
}
