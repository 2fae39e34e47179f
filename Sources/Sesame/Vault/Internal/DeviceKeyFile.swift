/// The device key: 32 random bytes in a private file outside the vault, so a
/// copied vault file is useless without it (ARCHITECTURE: Security model).
enum DeviceKeyFile {
    static func load(_ path: String) throws(VaultError) -> SecretBytes {
        try PrivateFiles.requirePrivate(PrivateFiles.directory(of: path))
        guard PrivateFiles.exists(path) else {
            throw VaultError(.locked, "The device key \(path) is missing; unlock the vault with its passcode or recovery key")
        }
        var bytes = try PrivateFiles.readFile(path, limit: 64)
        defer { wipe(&bytes) }
        guard bytes.count == 32 else { throw VaultError(.damaged, "The device key \(path) is \(bytes.count) bytes, not 32") }
        return SecretBytes(bytes)
    }

    static func loadOrCreate(_ path: String) throws(VaultError) -> SecretBytes {
        try PrivateFiles.ensureDirectory(PrivateFiles.directory(of: path))
        if !PrivateFiles.exists(path) {
            var bytes = KeyDerivation.randomBytes(32)
            defer { wipe(&bytes) }
            try PrivateFiles.createFile(path, contents: bytes)
        }
        return try load(path)
    }
}
