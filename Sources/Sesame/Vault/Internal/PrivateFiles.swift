#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The vault's view of ``PrivateFile``: the same checks (owner, mode 0600 in
/// 0700, no symbolic links), its failures reported as ``VaultError``s. No
/// file code of its own: there is one private-file helper.
enum PrivateFiles {
    static func directory(of path: String) -> String {
        PrivateFile.parentDirectory(of: path)
    }

    /// Creates `directory` and missing parents with mode 0700, then checks it.
    static func ensureDirectory(_ directory: String) throws(VaultError) {
        try mapped { () throws(PrivateFile.Failure) in
            try PrivateFile.createDirectories(directory)
            try PrivateFile.requirePrivate(directory)
        }
    }

    static func exists(_ path: String) -> Bool {
        PrivateFile.exists(path)
    }

    /// Fails unless `path` exists, belongs to this user and is closed to others.
    static func requirePrivate(_ path: String) throws(VaultError) {
        try mapped { () throws(PrivateFile.Failure) in try PrivateFile.requirePrivate(path) }
    }

    /// Creates a new file with mode 0600, failing if it exists, and writes `bytes` durably.
    static func createFile(_ path: String, contents bytes: [UInt8]) throws(VaultError) {
        try mapped { () throws(PrivateFile.Failure) in try PrivateFile(path: path).create(bytes) }
    }

    /// The errors of ``PrivateFile`` as vault statuses.
    static func vaultError(_ failure: PrivateFile.Failure) -> VaultError {
        switch failure {
        case .insecurePermissions, .wrongOwner, .symbolicLink:
            VaultError(.insecurePermissions, failure.description)
        case .tooLarge:
            VaultError(.damaged, failure.description)
        case .systemCall(let call, let path, let code):
            VaultError(.ioError, "Cannot \(call == "stat" ? "inspect" : call) \(path): \(String(cString: strerror(code)))")
        }
    }

    private static func mapped(_ body: () throws(PrivateFile.Failure) -> Void) throws(VaultError) {
        do throws(PrivateFile.Failure) {
            try body()
        } catch {
            throw vaultError(error)
        }
    }
}
