/// What a prompt shows (SPEC A5).
public struct AuthenticationPrompt: Sendable, Hashable {
    /// The application's name.
    public var appName: String
    /// Why the app asks, as passed to `evaluate`.
    public var reason: String
    /// The cancel button's title.
    public var cancelTitle: String
    /// The fallback button's title; `nil` when the fallback is hidden.
    public var fallbackTitle: String?
    /// What the prompt asks for first.
    public var method: AuthenticationMethod

    /// Creates a prompt description.
    ///
    /// - Parameters:
    ///   - appName: The application's name.
    ///   - reason: Why the app asks.
    ///   - cancelTitle: The cancel button's title.
    ///   - fallbackTitle: The fallback button's title, or `nil` to hide it.
    ///   - method: What the prompt asks for first.
    public init(appName: String, reason: String, cancelTitle: String, fallbackTitle: String?, method: AuthenticationMethod) {
        self.appName = appName
        self.reason = reason
        self.cancelTitle = cancelTitle
        self.fallbackTitle = fallbackTitle
        self.method = method
    }
}

/// A way of proving who the user is.
public enum AuthenticationMethod: String, Sendable, Hashable, Codable {
    /// A fingerprint or face.
    case biometrics
    /// The device passcode (the login password on Linux).
    case devicePasscode
    /// The application's own passcode.
    case appPasscode
    /// An application password protecting specific items (SPEC D6).
    case applicationPassword

    /// The secret in the glossary's words, as a prompt names it ("your
    /// login password": the device passcode is the login password on
    /// Linux).
    public var secretName: String {
        switch self {
        case .biometrics: "your fingerprint"
        case .devicePasscode: "your login password"
        case .appPasscode: "your app passcode"
        case .applicationPassword: "the item's application password"
        }
    }
}
