#if os(Linux)
extension PAMPasscodeVerifier {
    /// Why a ``PAMPasscodeVerifier/Configuration`` could not be created.
    public enum ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The service name is empty, contains `/` or NUL, or is `.` or `..`.
        case invalidServiceName(String)
        /// The user name is empty or contains NUL.
        case invalidUserName(String)
        /// The configuration directory is not an absolute path.
        case invalidConfigDirectory(String)
        /// The process's effective user id has no account entry, so there is
        /// no default user to check.
        case unknownCurrentUser(uid: UInt32)

        public var description: String {
            switch self {
            case .invalidServiceName(let name): "'\(name)' is not a valid PAM service name"
            case .invalidUserName(let name): "'\(name)' is not a valid user name"
            case .invalidConfigDirectory(let path): "the PAM configuration directory '\(path)' must be an absolute path"
            case .unknownCurrentUser(let uid): "user id \(uid) has no account entry, so there is no user to check"
            }
        }
    }
}
#endif
