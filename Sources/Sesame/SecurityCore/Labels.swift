/// Every label Sesame binds into a key derivation, an associated data or a
/// file's magic, in one table: a label spelled twice can drift apart, and a
/// label reused for two purposes would let one kind of record pass for
/// another. The values are frozen; the golden vault test reads records made
/// with them.
package enum Labels {
    // MARK: HKDF info, keys derived from the vault's master key (salt: the vault identifier)

    /// The key that MACs whole item rows.
    static let rowMAC = "sesame.vault.v1.row-mac"
    /// The key that commits to a `biometryCurrentSet` item's domain state.
    static let domainStateCommitment = "sesame.vault.v1.domain-state-commitment"
    /// The key that seals settings records.
    static let settings = "sesame.vault.v1.settings"
    /// The key that seals a protected key's constraints (SPEC D8).
    static let keyConstraintsKey = "sesame.vault.v1.key-constraints"
    /// The prefix of a class key's info (accessibility, access control and factors follow).
    static let classKey = "sesame.vault.v1.class"
    /// The key that seals item and key attributes (SPEC D9).
    static let attributesKey = "sesame.vault.v1.attributes"
    /// The key of the keyed hashes that find an item or key by name (SPEC D9).
    static let lookupKey = "sesame.vault.v1.lookup"
    /// The key that MACs the file's format and applied migrations.
    static let formatKey = "sesame.vault.v1.format-mac"
    /// The key of the keyed hashes that index Secret Service attributes,
    /// collections and aliases (SPEC D9, D10).
    static let attributeIndexKey = "sesame.vault.v1.attribute-index"
    /// The key that seals key handles: opaque references to a protected key
    /// that only this vault opens (a passkey's credential id, SPEC P4).
    static let keyHandleKey = "sesame.vault.v1.key-handle"

    // MARK: HKDF info, key-slot wrapping keys (salt: the vault identifier)

    /// The device slot's wrapping key, from the device key.
    static let deviceSlot = "sesame.vault.v1.slot.device"
    /// The recovery slot's wrapping key, from the recovery key.
    static let recoverySlot = "sesame.vault.v1.slot.recovery"
    /// The value a ``PasscodeGuard`` checks, from the passcode's scrypt key (salt: the slot's salt).
    static let passcodeGuardValue = "sesame.vault.v1.slot.passcode.guard-value"
    /// A guarded passcode slot's wrapping key, from the scrypt key and the guard's secret (salt: the slot's salt).
    static let guardedPasscodeSlot = "sesame.vault.v1.slot.passcode.guarded"

    // MARK: Associated data (each followed by the format version and fields)

    /// A key slot's sealed master key.
    static let keySlot = "sesame.key-slot"
    /// An item key sealed under a class key.
    static let itemKey = "sesame.item-key"
    /// An item's sealed value.
    static let itemValue = "sesame.item-value"
    /// The MAC input of an item row.
    static let itemRow = "sesame.item-row"
    /// A private key sealed under its key (SPEC D7).
    static let privateKey = "sesame.private-key"
    /// A private key's own key sealed under a class key.
    static let privateKeyWrapping = "sesame.private-key-wrapping"
    /// The MAC input of a key row.
    static let keyRow = "sesame.key-row"
    /// A key's sealed constraints: lifetime and confirmation (SPEC D8).
    static let keyConstraints = "sesame.key-constraints"
    /// A sealed settings record.
    static let setting = "sesame.setting"
    /// An item row's sealed attributes (SPEC D9).
    static let itemAttributes = "sesame.item-attributes"
    /// A key row's sealed attributes (SPEC D9).
    static let keyAttributes = "sesame.key-attributes"
    /// The keyed hash of an item's or key's name; the table, service and account follow.
    static let lookup = "sesame.lookup"
    /// The MAC input of the file's format record: the format and the applied migrations.
    static let formatRecord = "sesame.format"
    /// A keyed hash of the attribute index: a kind ("attribute", "collection", "item", "alias") and its fields follow (SPEC D10).
    static let attributeIndex = "sesame.attribute-index"
    /// A key handle's sealed key name; the key's service and the handle's binding follow (SPEC P4).
    static let keyHandle = "sesame.key-handle"
    /// A Secret Service collection's sealed label and dates; its identifier follows (SPEC D10).
    static let collectionRecord = "sesame.collection"
    /// A Secret Service alias's sealed name and collection; its lookup hash follows (SPEC D10).
    static let aliasRecord = "sesame.collection-alias"

    // MARK: The feature-protection record (sealed under the device key)

    /// The HKDF info of its key.
    static let featureRecordKey = "sesame feature-protection record v1"
    /// The associated data's prefix; the app identifier follows.
    static let featureRecordPrefix = "sesame.features/v1/"
    /// The record's magic.
    static let featureRecordMagic = "SFP1"

    // MARK: Files and other digests

    /// The export file's magic.
    static let exportMagic = "SESAMEEX"
    /// The version tag hashed into fprintd's domain state (SesameLinux).
    package static let fprintdDomainState = "sesame.fprintd.domain-state.v1"
    /// The magic of the reuse-window token in the kernel keyring (SesameLinux).
    package static let keyringReuseMagic = "SRW1"
    /// The prefix of the reuse-window key's description; the app name follows (SesameLinux).
    package static let kernelKeyringReusePrefix = "sesame:reuse:"
    /// The prefix of the session marks' descriptions in the kernel keyring
    /// ("unlocked", "lock-seen" follow); their payload is the boot id (SesameLinux).
    package static let kernelKeyringSessionMarkPrefix = "sesame:session:"

    /// A label as bytes.
    static func bytes(_ label: String) -> [UInt8] { Array(label.utf8) }
}
