#if os(Linux)
import Glibc

extension PAMPasscodeVerifier {
    /// Which PAM service checks whose password.
    ///
    /// The values are validated once, here, so that a verifier can never be
    /// pointed at a path outside the PAM configuration directory.
    public struct Configuration: Sendable, Hashable {
        /// The PAM service name: the file `/etc/pam.d/<service>`.
        public let service: String
        /// The account whose password is checked.
        ///
        /// A process that is not root can only check its own user's password:
        /// `pam_unix` asks the setgid helper `unix_chkpwd`, which refuses others.
        public let user: String
        /// A private PAM configuration directory used instead of `/etc/pam.d`
        /// (through `pam_start_confdir`, Linux-PAM 1.4 or later). Meant for tests.
        public let configDirectory: String?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - service: The PAM service name; a file name, so it may not
        ///     contain `/` or be `.` or `..`. Default `sesame`.
        ///   - user: The account to check. Default: the user the process runs
        ///     as (its effective user id).
        ///   - configDirectory: An absolute path to a private PAM configuration
        ///     directory, or `nil` for the system's.
        /// - Throws: ``PAMPasscodeVerifier/ConfigurationError`` when a value is
        ///   not usable, or the process's user has no account entry.
        public init(service: String = "sesame", user: String? = nil, configDirectory: String? = nil) throws(ConfigurationError) {
            guard Self.isValidName(service), !service.contains("/"), service != ".", service != ".." else {
                throw .invalidServiceName(service)
            }
            if let configDirectory {
                guard configDirectory.hasPrefix("/"), !configDirectory.utf8.contains(0) else {
                    throw .invalidConfigDirectory(configDirectory)
                }
            }
            let resolvedUser: String
            if let user {
                guard Self.isValidName(user) else { throw .invalidUserName(user) }
                resolvedUser = user
            } else {
                resolvedUser = try Self.effectiveUserName()
            }
            self.service = service
            self.user = resolvedUser
            self.configDirectory = configDirectory
        }

        /// C strings end at the first NUL, so a name containing one would
        /// silently name something else.
        private static func isValidName(_ name: String) -> Bool {
            !name.isEmpty && !name.utf8.contains(0)
        }

        private static func effectiveUserName() throws(ConfigurationError) -> String {
            guard let name = CurrentUser.name() else { throw .unknownCurrentUser(uid: geteuid()) }
            return name
        }
    }
}
#endif
