#if os(Linux)
import Glibc

/// Finds a PAM service's configuration file the way Linux-PAM does, so that
/// Sesame can refuse to start PAM when it is missing: PAM would otherwise fall
/// back to the `other` service, which Sesame does not control (on Debian it
/// really authenticates through `common-auth`; elsewhere it denies).
enum PAMServiceFile {
    /// Linux-PAM's search order without a private directory.
    static let systemDirectories = ["/etc/pam.d", "/usr/lib/pam.d"]

    /// The path PAM would read for `service`, or `nil` when there is none.
    ///
    /// A file that exists but cannot be read counts as missing, because PAM
    /// would then fall back to `other` as well.
    static func locate(service: String, configDirectory: String?) -> String? {
        let directories = configDirectory.map { [$0] } ?? systemDirectories
        return directories.lazy.map { "\($0)/\(service)" }.first(where: isReadableFile)
    }

    /// Where the administrator should create the file.
    static func expectedPath(service: String, configDirectory: String?) -> String {
        "\(configDirectory ?? systemDirectories[0])/\(service)"
    }

    private static func isReadableFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }
}
#endif
