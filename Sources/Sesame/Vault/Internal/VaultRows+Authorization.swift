import Crypto

/// Turning a user's authentication into an item key (SPEC D1, D3, D5, D6).
extension VaultRows {
    private static let strictBiometry: Set<AccessControl.Flag> = [.biometryAny, .biometryCurrentSet]

    /// Authenticates for `row`'s access control, then unwraps its item key
    /// with a wrapping the authentication satisfied.
    ///
    /// Which failure is reported matters: a `biometryCurrentSet` wrapping
    /// whose domain-state commitment differs from the current enrolment is
    /// `itemInvalidated`; a wrong application password is `authFailed`; a
    /// wrapping that does not open although its inputs are right is
    /// `tampered`. The row's MAC was checked before, so the commitment is
    /// known to be the one written at creation.
    func unlockItemKey(
        _ row: ItemRow, operation: AccessControlOperation, prompt: String, context: AuthenticationContext?
    ) async throws(VaultError) -> SymmetricKey {
        guard let accessControl = AccessControl(canonicalEncoding: row.accessControl),
              let accessibility = ItemAccessibility(rawValue: row.accessibility),
              let wrappings = try? Wrapping.decode(row.wrappings)
        else { throw VaultError(.tampered, "\(row.name) has an unreadable access control or key wrapping") }
        if row.commitment?.isEmpty == true, wrappings.allSatisfy({ $0.factors.contains(.biometryCurrentSet) }) {
            throw Self.invalidated(row)
        }
        try await admitSessionLock(accessibility, name: row.name)
        let context = context ?? vault.makeContext()
        // SPEC D13: another app's item asks the owner before its access control does.
        try await admitApp(row, operation: .read, context: context, mayAsk: true)
        if try await enrolmentAlreadyChanged(row, wrappings: wrappings, accessControl: accessControl, operation: operation, context: context) {
            try await forgetEnrolmentBoundKeys(of: row)
            throw Self.invalidated(row)
        }
        let (satisfied, domainState) = try await authorize(accessControl, for: operation, name: row.name, prompt: prompt, context: context)
        do throws(VaultError) {
            return try await unwrapItemKey(row, accessControl: accessControl, accessibility: accessibility, wrappings: wrappings,
                                     satisfied: satisfied, domainState: domainState, context: context)
        } catch where error.status == .itemInvalidated {
            try await forgetEnrolmentBoundKeys(of: row)
            throw error
        }
    }

    /// Whether an item that only the current enrolment can open is already
    /// dead: the enrolment, read without prompting, is no longer the one it
    /// was bound to (SPEC D5). Asking for a finger that can never open it
    /// would only waste the owner's scan, and count against the lockout when
    /// the new finger is the one presented. Locked-out or unavailable
    /// biometrics say nothing here; the prompt path decides then.
    private func enrolmentAlreadyChanged(
        _ row: ItemRow, wrappings: [Wrapping], accessControl: AccessControl, operation: AccessControlOperation,
        context: AuthenticationContext
    ) async throws(VaultError) -> Bool {
        guard let commitment = row.commitment, !commitment.isEmpty,
              wrappings.allSatisfy({ $0.factors.contains(.biometryCurrentSet) }),
              context.authorization(for: accessControl, operation: operation) == nil,
              case .available = await BiometryState.current(on: context),
              let current = context.domainState
        else { return false }
        return !ConstantTime.equals(vault.subkeys.commitment(to: current), commitment)
    }

    private static func invalidated(_ row: ItemRow) -> VaultError {
        VaultError(.itemInvalidated, "\(row.name) was bound to the biometric enrolment when it was created; the enrolment has changed since, so it can never be read again. Delete it and store it anew")
    }

    /// Makes an invalidation permanent, as the platform deletes such items
    /// (SPEC D5): the enrolment-bound wrappings lose their sealed key and the
    /// commitment becomes empty, the marker later reads recognise without
    /// prompting. Otherwise re-enrolling the same fingers would revive the item.
    private func forgetEnrolmentBoundKeys(of row: ItemRow) async throws(VaultError) {
        guard row.commitment?.isEmpty == false, let wrappings = try? Wrapping.decode(row.wrappings) else { return }
        var updated = row
        updated.commitment = []
        updated.wrappings = Wrapping.encode(wrappings.map { wrapping in
            var wrapping = wrapping
            if wrapping.factors.contains(.biometryCurrentSet) { wrapping.sealed = [] }
            return wrapping
        })
        let subkeys = vault.subkeys
        updated.lookup = subkeys.lookup(table: row.table, service: row.service, account: row.account)
        updated.mac = subkeys.mac(updated)
        let finished = updated
        try await write { db in
            // Only the row that was judged; a concurrent change wins.
            guard let current = try ItemRow.fetch(db, table: row.table, service: row.service, account: row.account, subkeys: subkeys),
                  current.isSameRevision(as: row) else { return }
            try finished.replace(db, subkeys: subkeys)
        }
    }

    /// Unwraps the item key with the first wrapping whose factors are all in
    /// `satisfied`, telling invalidation, wrong passwords and tampering apart.
    /// Checking an application password goes through the attempt gate (SPEC
    /// E5), with the item's own record: counted before it is checked,
    /// refused unchecked while a delay runs. Nothing is written when no
    /// password is checked.
    func unwrapItemKey(
        _ row: ItemRow, accessControl: AccessControl, accessibility: ItemAccessibility, wrappings: [Wrapping],
        satisfied: Set<AccessControl.Flag>, domainState: DomainState?, context: AuthenticationContext
    ) async throws(VaultError) -> SymmetricKey {
        let checksPassword = context.credential(.applicationPassword) != nil
            && wrappings.contains { $0.factors.isSubset(of: satisfied) && $0.factors.contains(.applicationPassword) }
        guard checksPassword else {
            return try unwrapItemKeyChecked(row, accessControl: accessControl, accessibility: accessibility, wrappings: wrappings,
                                            satisfied: satisfied, domainState: domainState, context: context)
        }
        let path = vault.path
        do {
            // A vault from before format 4 gets its attempt tables first: counting is a write.
            try vault.database.migrate()
        } catch {
            throw VaultError(databaseError: error, path: path)
        }
        let ledger = PasscodeSlotLedger(database: vault.database, path: path, subject: PasscodeSlotLedger.itemSubject(table: row.table, id: row.id),
                                        missingIsFresh: true)
        let gate = AttemptGate(ledger: ledger, schedule: VaultSlots.passcodeBackoff, clock: vault.authenticators.clock)
        let outcome = try await gate.attempt(ledgerFailure: { VaultError(databaseError: $0, path: path) }) {
            () throws(VaultError) -> AttemptVerdict<SymmetricKey> in
            do throws(VaultError) {
                return .accepted(try unwrapItemKeyChecked(row, accessControl: accessControl, accessibility: accessibility, wrappings: wrappings,
                                                          satisfied: satisfied, domainState: domainState, context: context))
            } catch where error.status == .authFailed && error.message.hasPrefix(Self.wrongApplicationPassword) {
                return .rejected(fingerprint: nil)
            }
        }
        if case .accepted(let key) = outcome { return key }
        throw VaultError(refused: outcome, secret: "application password", of: row.name,
                         wrong: "\(Self.wrongApplicationPassword) for \(row.name) (SPEC D6)")
    }

    private static let wrongApplicationPassword = "Wrong application password"

    private func unwrapItemKeyChecked(
        _ row: ItemRow, accessControl: AccessControl, accessibility: ItemAccessibility, wrappings: [Wrapping],
        satisfied: Set<AccessControl.Flag>, domainState: DomainState?, context: AuthenticationContext
    ) throws(VaultError) -> SymmetricKey {
        var invalidated = false
        var wrongPassword = false
        for wrapping in wrappings where wrapping.factors.isSubset(of: satisfied) {
            if wrapping.factors.contains(.biometryCurrentSet) {
                guard let domainState, let commitment = row.commitment,
                      ConstantTime.equals(vault.subkeys.commitment(to: domainState), commitment)
                else {
                    invalidated = true
                    continue
                }
            }
            var passwordKey: SymmetricKey?
            if wrapping.factors.contains(.applicationPassword) {
                guard let password = context.credential(.applicationPassword), let cost = wrapping.cost else {
                    wrongPassword = true
                    continue
                }
                passwordKey = try derivePasswordKey(password, salt: wrapping.salt, cost: cost)
            }
            let classKey = KeyDerivation.classKey(
                vault.subkeys.masterKey, vaultID: vault.subkeys.vaultID, accessControl: accessControl, accessibility: accessibility,
                factors: wrapping.factors, domainState: domainState?.bytes, passwordKey: passwordKey)
            let associatedData = Wrapping.associatedData(row.wrappingLabel, itemID: row.id, factors: wrapping.factors)
            if var bytes = Envelope.open(wrapping.sealed, key: classKey, associatedData: associatedData) {
                defer { wipe(&bytes) }
                return SymmetricKey(data: bytes)
            }
            if passwordKey != nil {
                wrongPassword = true
            } else {
                throw VaultError(.tampered, "The key of \(row.name) does not unwrap: the vault's data was altered")
            }
        }
        if wrongPassword {
            throw VaultError(.authFailed, "\(Self.wrongApplicationPassword) for \(row.name) (SPEC D6)")
        }
        if invalidated { throw Self.invalidated(row) }
        throw VaultError(.authFailed, "The authentication did not satisfy the access control of \(row.name) (\(accessControl))")
    }

    /// The flags the user satisfied and the domain state of that evaluation:
    /// from `context` when it was authorised ahead of time (no prompt), else
    /// from a prompt on it.
    private func authorize(
        _ accessControl: AccessControl, for operation: AccessControlOperation, name: String, prompt: String, context: AuthenticationContext
    ) async throws(VaultError) -> (Set<AccessControl.Flag>, DomainState?) {
        if accessControl.userFactors.isEmpty { return (accessControl.flags, nil) }
        if let authorization = context.authorization(for: accessControl, operation: operation) {
            return (authorization.satisfied, authorization.domainState)
        }
        let factors = accessControl.userFactors
        let biometryOnly = accessControl.combination == .or
            ? factors.isSubset(of: Self.strictBiometry)
            : !factors.isDisjoint(with: Self.strictBiometry)
        if biometryOnly {
            switch await BiometryState.current(on: context) {
            case .available:
                break
            case .lockedOut:
                // SPEC D1: the device passcode lifts the lockout, then the item's own check runs.
                do throws(AuthenticationError) {
                    try await context.evaluate(.deviceOwner, localizedReason: prompt)
                } catch {
                    throw VaultError(authentication: error, item: "Lifting the biometric lockout to read \(name)")
                }
            case .notAvailable(let why):
                throw VaultError(.notAvailable, "\(name) needs biometrics, which cannot be used: \(why)")
            }
        }
        do throws(AuthenticationError) {
            try await context.evaluateAccessControl(accessControl, operation: operation, localizedReason: prompt)
        } catch {
            throw VaultError(authentication: error, item: "Reading \(name)")
        }
        guard let authorization = context.authorization(for: accessControl, operation: operation) else {
            throw VaultError(.userCanceled, "The context was invalidated while authenticating for \(name)")
        }
        return (authorization.satisfied, authorization.domainState ?? context.domainState)
    }
}
