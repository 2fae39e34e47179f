/// Lets the owner choose which features need a biometric check, and closes
/// the hole plain checks leave open: a changed enrolment (SPEC B, C).
///
/// ```swift
/// let protection = FeatureProtection(appIdentifier: "com.example.money", authenticators: authenticators,
///                                    store: store, deviceKeys: deviceKeys, ownerVerification: .appPasscode)
/// try await protection.enable("transfer", policy: .biometrics)            // no scan needed
/// try await protection.authenticate("transfer", reason: "Send 20 EUR")   // scan, then enrolment check
/// ```
///
/// - Enabling only adds protection, so it needs no scan; switching protection
///   off, or weakening a feature's policy, needs the same check as using it.
/// - A successful biometric match is trusted only while the enrolment (the
///   ``DomainState``) is the one recorded; otherwise the app's own
///   ``OwnerVerification`` must succeed, and then the new enrolment is
///   recorded. Until it succeeds, every access keeps asking: the detection
///   does not wear off by being seen.
/// - Flags live in one sealed record per app; a record edited on disk makes
///   every feature count as protected.
/// - One prompt at a time: concurrent calls for a feature share one prompt,
///   calls for other features wait.
public final class FeatureProtection: Sendable {
    /// The app whose record this is.
    public let appIdentifier: String
    let authenticators: Authenticators
    private let store: any AppRecordStore
    private let deviceKeys: any DeviceKeyStore
    let ownerVerification: OwnerVerification?
    /// One prompt at a time: calls for the same key while one runs share
    /// its result (two taps on "Pay" give one prompt); calls for other keys
    /// wait their turn instead of opening a second prompt.
    private let turns = TurnQueue()

    /// Creates the facade.
    ///
    /// - Parameters:
    ///   - appIdentifier: Names the app's record (letters, digits, `.`, `-`, `_`).
    ///   - authenticators: The backends; biometrics is the sensor's.
    ///   - store: Where the sealed record is kept.
    ///   - deviceKeys: The key the record is sealed with.
    ///   - ownerVerification: What proves the owner after an enrolment
    ///     change; without one, an enrolment change fails closed.
    public init(
        appIdentifier: String,
        authenticators: Authenticators,
        store: any AppRecordStore,
        deviceKeys: any DeviceKeyStore,
        ownerVerification: OwnerVerification? = nil
    ) {
        self.appIdentifier = appIdentifier
        self.authenticators = authenticators
        self.store = store
        self.deviceKeys = deviceKeys
        self.ownerVerification = ownerVerification
    }

    // MARK: Queries (never prompt)

    /// Whether biometrics can be evaluated now (SPEC B1). Never prompts.
    public var isAuthenticationAvailable: Bool {
        get async { await biometricReadiness() == nil }
    }

    /// Whether biometrics is available and `feature` is protected (SPEC B2).
    /// A tampered or unreadable record counts as protected. Never prompts.
    ///
    /// - Parameter feature: The feature.
    /// - Returns: `true` when a check will be asked for with biometrics.
    public func isAuthenticationEnabled(_ feature: Feature) async -> Bool {
        guard await isAuthenticationAvailable else { return false }
        return (try? await protectionPolicy(for: feature)) != .some(nil)
    }

    /// The policy protecting `feature`, or `nil` when it is not protected. Never prompts.
    ///
    /// - Parameter feature: The feature.
    /// - Returns: Its policy, or `nil`.
    /// - Throws: ``FeatureProtectionError/recordTampered`` or a storage error.
    public func protectionPolicy(for feature: Feature) async throws(FeatureProtectionError) -> FeatureProtectionPolicy? {
        guard case .intact(let record) = try await load() else { throw .recordTampered }
        return record.features[feature.rawValue]?.policy
    }

    /// Every protected feature with its policy, e.g. for a settings screen
    /// or `sesame feature list`. Never prompts.
    ///
    /// - Returns: The protected features and their policies; empty when none is.
    /// - Throws: ``FeatureProtectionError/recordTampered`` (then every feature
    ///   counts as protected) or a storage error.
    public func protectedFeatures() async throws(FeatureProtectionError) -> [Feature: FeatureProtectionPolicy] {
        guard case .intact(let record) = try await load() else { throw .recordTampered }
        return Dictionary(uniqueKeysWithValues: record.features.map { (Feature(rawValue: $0.key), $0.value.policy) })
    }

    // MARK: Changes

    /// Protects `feature` (SPEC B3, C1). Needs no scan: it only adds
    /// protection. Records the current enrolment. Changing the policy of a
    /// feature already protected needs the check the current policy asks for.
    ///
    /// - Parameters:
    ///   - feature: The feature.
    ///   - policy: How it will be unlocked.
    ///   - reason: Shown if changing the policy needs a check.
    /// - Throws: ``FeatureProtectionError/unavailable(_:)`` when biometrics
    ///   cannot be used now; ``FeatureProtectionError/recordTampered``.
    public func enable(_ feature: Feature, policy: FeatureProtectionPolicy = .biometrics, reason: String = "Change protection") async throws(FeatureProtectionError) {
        try await serialized(key: nil) { () async throws(FeatureProtectionError) in
            let context = AuthenticationContext(self.authenticators)
            if let error = await self.biometricReadiness(context) { throw .unavailable(error) }
            guard case .intact(var record) = try await self.load() else { throw .recordTampered }
            if let existing = record.features[feature.rawValue] {
                guard existing.policy != policy else { return }
                try await self.unlock(feature, entry: existing, record: &record, reason: reason)
            }
            record.features[feature.rawValue] = FeatureRecord.Entry(policy: policy, domainState: context.domainState)
            try await self.save(record)
        }
    }

    /// Switches protection off (SPEC B4). When `feature` is protected, a
    /// biometric match that passes the enrolment check is required first, so
    /// an intruder cannot switch protection off.
    ///
    /// - Parameters:
    ///   - feature: The feature.
    ///   - reason: Shown on the prompt.
    /// - Throws: ``FeatureProtectionError/unavailable(_:)`` when biometrics
    ///   cannot be used; authentication and enrolment errors.
    public func disable(_ feature: Feature, reason: String) async throws(FeatureProtectionError) {
        try await serialized(key: nil) { () async throws(FeatureProtectionError) in
            if let error = await self.biometricReadiness() { throw .unavailable(error) }
            guard case .intact(var record) = try await self.load() else { throw .recordTampered }
            guard let entry = record.features[feature.rawValue] else { return }
            // Switching off is a biometric decision whatever the policy (SPEC B4).
            try await self.unlock(feature, entry: FeatureRecord.Entry(policy: .biometrics, domainState: entry.domainState),
                                  record: &record, reason: reason)
            record.features[feature.rawValue] = nil
            try await self.save(record)
        }
    }

    /// Asks for the check `feature` needs (SPEC B5, C2, C3): none when it is
    /// not protected; otherwise its policy, then the enrolment check.
    ///
    /// When biometrics has become unavailable, the policy's fallback is used;
    /// a biometrics-only feature fails closed.
    ///
    /// - Parameters:
    ///   - feature: The feature.
    ///   - reason: Shown on the prompt.
    /// - Throws: ``FeatureProtectionError``.
    public func authenticate(_ feature: Feature, reason: String) async throws(FeatureProtectionError) {
        try await serialized(key: feature.rawValue) { () async throws(FeatureProtectionError) in
            switch try await self.load() {
            case .intact(var record):
                guard let entry = record.features[feature.rawValue] else { return }
                try await self.unlock(feature, entry: entry, record: &record, reason: reason)
            case .tampered:
                // Every feature is protected and no recorded enrolment is trusted.
                var scratch = FeatureRecord()
                try await self.unlock(nil, entry: FeatureRecord.Entry(policy: .biometrics, domainState: nil),
                                      record: &scratch, reason: reason)
            }
        }
    }

    /// Starts over after ``FeatureProtectionError/recordTampered``: a
    /// biometric match and the app's own verification, then an empty record.
    ///
    /// - Parameter reason: Shown on the prompt.
    /// - Throws: ``FeatureProtectionError``.
    public func reset(reason: String) async throws(FeatureProtectionError) {
        try await serialized(key: nil) { () async throws(FeatureProtectionError) in
            var scratch = FeatureRecord()
            try await self.unlock(nil, entry: FeatureRecord.Entry(policy: .biometrics, domainState: nil), record: &scratch, reason: reason)
            try await self.save(FeatureRecord())
        }
    }

    // MARK: Record

    func load() async throws(FeatureProtectionError) -> LoadedRecord {
        do {
            guard let sealed = try await store.load(appIdentifier: appIdentifier) else { return .intact(FeatureRecord()) }
            return FeatureRecordSeal.open(sealed, deviceKey: try await deviceKeys.deviceKey(), appIdentifier: appIdentifier)
        } catch let error as FeatureProtectionError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }

    func save(_ record: FeatureRecord) async throws(FeatureProtectionError) {
        do {
            let sealed = try FeatureRecordSeal.seal(record, deviceKey: try await deviceKeys.deviceKey(), appIdentifier: appIdentifier)
            try await store.save(sealed, appIdentifier: appIdentifier)
        } catch let error as FeatureProtectionError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }

    func biometricReadiness(_ context: AuthenticationContext? = nil) async -> AuthenticationError? {
        do {
            try await (context ?? AuthenticationContext(authenticators)).canEvaluate(.biometrics)
            return nil
        } catch {
            return error
        }
    }

    private func serialized(
        key: String?,
        _ work: @escaping @Sendable () async throws(FeatureProtectionError) -> Void
    ) async throws(FeatureProtectionError) {
        let outcome = await turns.run(joining: key) { () async -> Result<Void, FeatureProtectionError> in
            do throws(FeatureProtectionError) {
                try await work()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
    }
}
