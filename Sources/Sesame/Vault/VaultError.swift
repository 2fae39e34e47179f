/// Why a vault operation failed (SPEC D4). Every error has a stable
/// ``Status-swift.enum`` and a sentence saying why.
public struct VaultError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable status codes; Apple's `OSStatus` values where Apple has one.
    public enum Status: Int, Sendable, Hashable, Codable, CaseIterable {
        /// No error (`errSecSuccess`); never thrown, for callers mapping results.
        case success = 0
        /// The user cancelled (`errSecUserCanceled`).
        case userCanceled = -128
        /// No such item (`errSecItemNotFound`).
        case itemNotFound = -25300
        /// Authentication failed: wrong password, no match (`errSecAuthFailed`).
        case authFailed = -25293
        /// An item with that service and account exists (`errSecDuplicateItem`).
        case duplicateItem = -25299
        /// A prompt was needed but not allowed (`errSecInteractionNotAllowed`).
        case interactionNotAllowed = -25308
        /// What the item needs is not available, e.g. no sensor (`errSecNotAvailable`).
        case notAvailable = -25291
        /// The biometric enrolment changed since the item was created; it can
        /// never be read again (ours, SPEC D5).
        case itemInvalidated = 1001
        /// Stored data failed its integrity check: edited, swapped or damaged (ours).
        case tampered = 1002
        /// The file is not a readable vault or export: truncated, corrupt, or
        /// a format this version does not know (ours).
        case damaged = 1003
        /// The vault, its directory or a key file is accessible to others (ours).
        case insecurePermissions = 1004
        /// The vault cannot be unlocked with what was offered (ours).
        case locked = 1005
        /// A file could not be read or written (ours).
        case ioError = 1006
        /// The arguments are invalid (ours).
        case invalidArgument = 1007
        /// A service, name or label holds a control character; it would
        /// reach a terminal as a command (ours, SPEC D9).
        case invalidName = 1008
    }

    /// The stable status.
    public let status: Status
    /// Why, in words.
    public let message: String
    /// The authentication failure behind this error, if any.
    public let authenticationError: AuthenticationError?
    /// The session's state, when the item's class refused it because the
    /// session is locked (SPEC D14); the status is then `interactionNotAllowed`.
    public internal(set) var sessionLock: SessionLockState?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - status: The stable status.
    ///   - message: Why, in words.
    ///   - authenticationError: The authentication failure behind it, if any.
    public init(_ status: Status, _ message: String, authenticationError: AuthenticationError? = nil) {
        self.status = status
        self.message = message
        self.authenticationError = authenticationError
    }

    public var description: String { "\(status) (\(status.rawValue)): \(message)" }

    /// Errors compare by status only, so tests and `catch` clauses can match
    /// `VaultError.itemNotFound` without restating the message.
    public static func == (lhs: VaultError, rhs: VaultError) -> Bool { lhs.status == rhs.status }

    public func hash(into hasher: inout Hasher) { hasher.combine(status) }

    /// Lets `catch VaultError.itemNotFound` match by status.
    public static func ~= (pattern: VaultError, value: any Error) -> Bool {
        (value as? VaultError)?.status == pattern.status
    }

    /// A `userCanceled` error, for matching in `catch` clauses and tests.
    public static let userCanceled = VaultError(.userCanceled, "The user cancelled")
    /// A `itemNotFound` error, for matching in `catch` clauses and tests.
    public static let itemNotFound = VaultError(.itemNotFound, "No such item")
    /// A `authFailed` error, for matching in `catch` clauses and tests.
    public static let authFailed = VaultError(.authFailed, "Authentication failed")
    /// A `duplicateItem` error, for matching in `catch` clauses and tests.
    public static let duplicateItem = VaultError(.duplicateItem, "The item already exists")
    /// A `interactionNotAllowed` error, for matching in `catch` clauses and tests.
    public static let interactionNotAllowed = VaultError(.interactionNotAllowed, "Interaction is not allowed")
    /// A `notAvailable` error, for matching in `catch` clauses and tests.
    public static let notAvailable = VaultError(.notAvailable, "Not available")
    /// A `itemInvalidated` error, for matching in `catch` clauses and tests.
    public static let itemInvalidated = VaultError(.itemInvalidated, "The item was invalidated")
    /// A `tampered` error, for matching in `catch` clauses and tests.
    public static let tampered = VaultError(.tampered, "Stored data was tampered with")
    /// A `damaged` error, for matching in `catch` clauses and tests.
    public static let damaged = VaultError(.damaged, "The file is damaged")
    /// A `insecurePermissions` error, for matching in `catch` clauses and tests.
    public static let insecurePermissions = VaultError(.insecurePermissions, "Permissions are too open")
    /// A `locked` error, for matching in `catch` clauses and tests.
    public static let locked = VaultError(.locked, "The vault is locked")
    /// A `ioError` error, for matching in `catch` clauses and tests.
    public static let ioError = VaultError(.ioError, "Input/output error")
    /// A `invalidArgument` error, for matching in `catch` clauses and tests.
    public static let invalidArgument = VaultError(.invalidArgument, "Invalid argument")
}

extension VaultError {
    /// Maps an authentication failure to the keychain status it stands for.
    init(authentication error: AuthenticationError, item: String) {
        let status: Status = switch error.code {
        case .userCancel, .appCancel, .systemCancel: .userCanceled
        case .notInteractive: .interactionNotAllowed
        case .biometryNotAvailable, .biometryNotEnrolled, .passcodeNotSet: .notAvailable
        case .authenticationFailed, .userFallback, .biometryLockout, .invalidContext: .authFailed
        }
        self.init(status, "\(item): \(error.message)", authenticationError: error)
    }
}
