import Crypto

/// The unlocked master key and the keys derived from it for one open vault.
struct Keyring: Sendable {
    let masterKey: SymmetricKey
    let vaultID: [UInt8]
    /// Authenticates whole item rows, so any edited column is detected
    /// before anything is decrypted.
    let rowKey: SymmetricKey
    /// Commits to the domain state of `biometryCurrentSet` items, so an
    /// enrolment change can be told apart from tampering.
    let commitmentKey: SymmetricKey
    /// Seals settings records.
    let settingsKey: SymmetricKey
    /// Seals protected keys' constraints (SPEC D8): readable without a
    /// prompt, so an expired key is refused before anyone is asked.
    let constraintsKey: SymmetricKey

    init(masterKey: SymmetricKey, vaultID: [UInt8]) {
        self.masterKey = masterKey
        self.vaultID = vaultID
        rowKey = KeyDerivation.subkey(masterKey, vaultID: vaultID, label: Labels.rowMAC)
        commitmentKey = KeyDerivation.subkey(masterKey, vaultID: vaultID, label: Labels.domainStateCommitment)
        settingsKey = KeyDerivation.subkey(masterKey, vaultID: vaultID, label: Labels.settings)
        constraintsKey = KeyDerivation.subkey(masterKey, vaultID: vaultID, label: Labels.keyConstraintsKey)
    }

    func commitment(to domainState: DomainState) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: domainState.bytes, using: commitmentKey))
    }

    func mac(_ row: ItemRow) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: row.macInput, using: rowKey))
    }

    func verify(_ row: ItemRow) -> Bool {
        ConstantTime.equals(mac(row), Array(row.mac))
    }
}
