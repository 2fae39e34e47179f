import Crypto

/// The unlocked master key and the keys derived from it for one open vault.
struct VaultSubkeys: Sendable {
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
    /// Seals rows' attributes: names, labels, protection and dates (SPEC D9).
    let attributesKey: SymmetricKey
    /// Keys the hashes that find a row by name without storing the name.
    let lookupKey: SymmetricKey
    /// Authenticates the file's format and applied migrations.
    let formatKey: SymmetricKey
    /// Keys the hashes of the Secret Service attribute index (SPEC D10): a
    /// copied file shows which rows share an attribute, never its name or value.
    let indexKey: SymmetricKey
    /// Seals key handles (SPEC P4): only this vault can tell which key one names.
    let keyHandleKey: SymmetricKey

    init(masterKey: SymmetricKey, vaultID: [UInt8]) {
        self.masterKey = masterKey
        self.vaultID = vaultID
        rowKey = KeyDerivation.subkey(masterKey, vaultID: vaultID, label: Labels.rowMAC)
        commitmentKey = KeyDerivation.subkey(masterKey, vaultID: vaultID, label: Labels.domainStateCommitment)
        settingsKey = KeyDerivation.subkey(masterKey, vaultID: vaultID, label: Labels.settings)
        constraintsKey = KeyDerivation.subkey(masterKey, vaultID: vaultID, label: Labels.keyConstraintsKey)
        attributesKey = KeyDerivation.subkey(masterKey, vaultID: vaultID, label: Labels.attributesKey)
        lookupKey = KeyDerivation.subkey(masterKey, vaultID: vaultID, label: Labels.lookupKey)
        formatKey = KeyDerivation.subkey(masterKey, vaultID: vaultID, label: Labels.formatKey)
        indexKey = KeyDerivation.subkey(masterKey, vaultID: vaultID, label: Labels.attributeIndexKey)
        keyHandleKey = KeyDerivation.subkey(masterKey, vaultID: vaultID, label: Labels.keyHandleKey)
    }

    /// The keyed hash stored instead of `service`/`account` in `table`
    /// (`item` or `key`), unique per table: a point read finds the row
    /// through its index, and the file shows no name (SPEC D9).
    func lookup(table: String, service: String, account: String) -> [UInt8] {
        let input = Envelope.associatedData(Labels.lookup) { writer in
            writer.field(table)
            writer.field(service)
            writer.field(account)
        }
        return Array(HMAC<SHA256>.authenticationCode(for: input, using: lookupKey))
    }

    /// A hash of the attribute index: `kind` and `fields`, each
    /// length-prefixed, so ("a", "bc") and ("ab", "c") never collide.
    func indexHash(_ kind: String, _ fields: String...) -> [UInt8] {
        let input = Envelope.associatedData(Labels.attributeIndex) { writer in
            writer.field(kind)
            for field in fields { writer.field(field) }
        }
        return Array(HMAC<SHA256>.authenticationCode(for: input, using: indexKey))
    }

    /// The MAC of the file's format record.
    func formatMAC(format: Int, migrations: [String]) -> [UInt8] {
        let input = Envelope.associatedData(Labels.formatRecord) { writer in
            writer.field(String(format))
            for identifier in migrations.sorted() { writer.field(identifier) }
        }
        return Array(HMAC<SHA256>.authenticationCode(for: input, using: formatKey))
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
