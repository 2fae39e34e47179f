#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A ``DeviceKeyStore`` in a 0600 file: 32 random bytes created on first use.
/// The one device-key file reader: the vault's device slot and feature
/// protection both use it, at one default place
/// (``Vault/defaultDeviceKeyPath(forVaultAt:)``).
///
/// It defends against a copied record or vault being opened on another
/// machine; it does not defend against code running as your user, which can
/// read this file as you can.
///
/// Reading never writes: no lock file, nothing created. Creation needs no
/// lock either: the key is written to a private temporary file and linked to
/// its name, which fails if another process got there first; then that
/// process's key is read and used.
public final class FileDeviceKeyStore: DeviceKeyStore {
    /// Why the key cannot be used.
    public enum KeyError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The key file is not 32 bytes: damaged or not Sesame's.
        case damaged(path: String)
        /// The key file or its directory is open to others, belongs to
        /// another user or is a symbolic link; the message says which.
        case insecure(String)
        /// The file could not be used; the message says why.
        case system(String)

        public var description: String {
            switch self {
            case .damaged(let path): "\(path) is not a Sesame device key (damaged?); Sesame will not replace it"
            case .insecure(let message), .system(let message): message
            }
        }
    }

    static let keyLength = 32
    private let file: PrivateFile

    /// The key file.
    public var path: String { file.path }

    /// Creates a store.
    ///
    /// - Parameter path: The key file, e.g. from ``defaultPath(environment:)``.
    public init(path: String) {
        file = PrivateFile(path: path)
    }

    public func existingDeviceKey() async throws -> SecretBytes? {
        try existingKey()
    }

    public func deviceKey() async throws -> SecretBytes {
        try keyCreatingIfMissing()
    }

    /// Writes an existing key (moving a vault's device key out of a TPM
    /// keeps every slot and record it wraps valid). Never prompts.
    ///
    /// - Parameter key: The 32-byte device key.
    /// - Throws: ``KeyError``; `system` when a key file already exists:
    ///   Sesame never replaces one.
    public func store(_ key: SecretBytes) throws(KeyError) {
        guard key.count == Self.keyLength else { throw .damaged(path: file.path) }
        do throws(PrivateFile.Failure) {
            try PrivateFile.createDirectories(file.directory)
            try PrivateFile.requirePrivate(file.directory)
            var bytes = key.withUnsafeBytes { Array($0) }
            defer { wipe(&bytes) }
            try file.create(bytes)
        } catch {
            throw KeyError(error)
        }
    }

    /// The key, or `nil` when there is no key file (nor its directory).
    private func existingKey() throws(KeyError) -> SecretBytes? {
        guard PrivateFile.exists(file.directory) else { return nil }
        var bytes: [UInt8]
        do throws(PrivateFile.Failure) {
            try PrivateFile.requirePrivate(file.directory)
            guard let read = try file.read(limit: 64) else { return nil }
            bytes = read
        } catch {
            throw KeyError(error)
        }
        defer { wipe(&bytes) }
        guard bytes.count == Self.keyLength else { throw .damaged(path: file.path) }
        return SecretBytes(bytes)
    }

    /// The key, created (in a 0700 directory) when there is none.
    private func keyCreatingIfMissing() throws(KeyError) -> SecretBytes {
        if let key = try existingKey() { return key }
        do throws(PrivateFile.Failure) {
            try PrivateFile.createDirectories(file.directory)
            try PrivateFile.requirePrivate(file.directory)
            var fresh = KeyDerivation.randomBytes(Self.keyLength)
            defer { wipe(&fresh) }
            let temporary = PrivateFile(path: file.path + ".new-\(getpid())-\(UInt64.random(in: .min ... .max))")
            try temporary.create(fresh)
            defer { unlink(temporary.path) }
            // link() never replaces: if another process linked its key first, use that one.
            if link(temporary.path, file.path) != 0 && errno != EEXIST {
                throw PrivateFile.Failure.systemCall("link", path: file.path, errno: errno)
            }
        } catch {
            throw KeyError(error)
        }
        guard let key = try existingKey() else { throw KeyError(.systemCall("read", path: file.path, errno: ENOENT)) }
        return key
    }
}

extension FileDeviceKeyStore.KeyError {
    /// ``PrivateFile``'s reason as a key error.
    init(_ failure: PrivateFile.Failure) {
        switch failure {
        case .tooLarge(let path): self = .damaged(path: path)
        case .insecurePermissions, .wrongOwner, .symbolicLink: self = .insecure(failure.description)
        case .systemCall: self = .system(failure.description)
        }
    }
}
