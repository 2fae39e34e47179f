extension FeatureProtection {
    /// Feature protection kept in a vault (``VaultAppRecordStore``)
    /// and sealed with the vault's own device key, chosen as the vault
    /// chooses it (``Vault/defaultDeviceKeyStore(forVaultAt:sealer:)`` with
    /// the authenticators' sealer): the record is bound to the vault's master
    /// key, and deleting a file cannot turn protection off. `sesame feature`
    /// uses exactly this.
    ///
    /// - Parameters:
    ///   - vault: The open vault.
    ///   - appIdentifier: Names the app's record (letters, digits, `.`, `-`, `_`).
    ///   - authenticators: The backends; their ``Authenticators/deviceKeySealer``
    ///     reaches a key sealed to hardware.
    ///   - ownerVerification: What proves the owner after an enrolment
    ///     change, e.g. ``OwnerVerification/vaultPasscode(vaultAt:authenticators:ask:)``.
    public convenience init(vault: Vault, appIdentifier: String, authenticators: Authenticators, ownerVerification: OwnerVerification? = nil) {
        self.init(appIdentifier: appIdentifier, authenticators: authenticators, store: VaultAppRecordStore(vault, kind: .featureProtection),
                  deviceKeys: Vault.defaultDeviceKeyStore(forVaultAt: vault.path, sealer: authenticators.deviceKeySealer),
                  ownerVerification: ownerVerification)
    }
}
