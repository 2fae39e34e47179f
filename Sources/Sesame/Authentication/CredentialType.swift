/// A credential the app can put on a context (SPEC A11).
public enum CredentialType: String, Sendable, Hashable, Codable {
    /// The application password for items protected with
    /// ``AccessControl/Flag/applicationPassword`` (SPEC D6).
    case applicationPassword
}
