/// Setting, changing and removing the passcode, the erase setting and
/// recovery (SPEC E3, E4). Everything that weakens protection needs the
/// current passcode and goes through the same counting and delays as
/// ``AppPasscode/verify(_:)``, so it is no way round them.
extension AppPasscode {
    /// What the app acknowledges by switching the erase on.
    public enum EraseAcknowledgement: Sendable, Hashable {
        /// The tenth wrong entry in a row erases the protected data for good
        /// (through the `onErase` handler) and removes the passcode.
        case dataWillBeErased
    }

    /// Sets the first passcode.
    ///
    /// - Parameter passcode: The new passcode; the caller wipes its own copy.
    /// - Throws: ``AppPasscodeError/alreadySet`` (use ``change(from:to:)``),
    ///   ``AppPasscodeError/emptyPasscode``, or a storage error.
    public func set(_ passcode: SecretBytes) async throws(AppPasscodeError) {
        try await serially { () async throws(AppPasscodeError) in
            guard !passcode.isEmpty else { throw .emptyPasscode }
            guard try await self.load() == nil else { throw .alreadySet }
            try await self.save(try await self.newRecord(passcode))
        }
    }

    /// Replaces the passcode; the erase setting is kept.
    ///
    /// - Parameters:
    ///   - current: The passcode now set; a wrong one counts as a failure.
    ///   - new: The new passcode.
    /// - Throws: ``AppPasscodeError/wrongPasscode``, ``AppPasscodeError/delayed(until:)``,
    ///   ``AppPasscodeError/notSet``, ``AppPasscodeError/emptyPasscode``, or a storage error.
    public func change(from current: SecretBytes, to new: SecretBytes) async throws(AppPasscodeError) {
        try await serially { () async throws(AppPasscodeError) in
            guard !new.isEmpty else { throw .emptyPasscode }
            let record = try await self.check(current).get()
            var replacement = try await self.newRecord(new)
            replacement.eraseAfterTenFailures = record.eraseAfterTenFailures
            try await self.save(replacement)
        }
    }

    /// Removes the passcode.
    ///
    /// - Parameter current: The passcode now set; a wrong one counts as a failure.
    /// - Throws: ``AppPasscodeError/wrongPasscode``, ``AppPasscodeError/delayed(until:)``,
    ///   ``AppPasscodeError/notSet``, or a storage error.
    public func remove(current: SecretBytes) async throws(AppPasscodeError) {
        try await serially { () async throws(AppPasscodeError) in
            _ = try await self.check(current).get()
            try await self.removeRecord()
        }
    }

    /// Removes a forgotten passcode once the app's own recovery succeeds (SPEC E4),
    /// e.g. signing in to the app's account again. Works during a delay: that
    /// is when it is needed.
    ///
    /// - Parameter recovery: The app's proof of the owner; `true` when it succeeded.
    /// - Throws: ``AppPasscodeError/recoveryFailed`` (the passcode is kept),
    ///   ``AppPasscodeError/notSet``, or a storage error.
    public func reset(using recovery: @escaping @Sendable () async -> Bool) async throws(AppPasscodeError) {
        try await serially { () async throws(AppPasscodeError) in
            guard try await self.load() != nil else { throw .notSet }
            guard await recovery() else { throw .recoveryFailed }
            try await self.removeRecord()
        }
    }

    /// Switches on erasing the protected data after the tenth wrong entry in a row.
    ///
    /// - Parameters:
    ///   - acknowledgement: ``EraseAcknowledgement/dataWillBeErased``: the data
    ///     is gone for good if someone, or a child, types ten wrong passcodes.
    ///   - current: The passcode now set.
    /// - Throws: ``AppPasscodeError/eraseHandlerMissing`` when this
    ///   ``AppPasscode`` has no `onErase`, a wrong current passcode, a delay, or a storage error.
    public func enableEraseAfterTenFailures(acknowledging acknowledgement: EraseAcknowledgement, current: SecretBytes) async throws(AppPasscodeError) {
        guard onErase != nil else { throw .eraseHandlerMissing }
        try await setErase(true, current: current)
    }

    /// Switches the erase off.
    ///
    /// - Parameter current: The passcode now set.
    /// - Throws: A wrong current passcode, a delay, or a storage error.
    public func disableEraseAfterTenFailures(current: SecretBytes) async throws(AppPasscodeError) {
        try await setErase(false, current: current)
    }

    private func setErase(_ on: Bool, current: SecretBytes) async throws(AppPasscodeError) {
        try await serially { () async throws(AppPasscodeError) in
            var record = try await self.check(current).get()
            record.eraseAfterTenFailures = on
            try await self.save(record)
        }
    }

    private func newRecord(_ passcode: SecretBytes) async throws(AppPasscodeError) -> AppPasscodeRecord {
        do {
            return try await AppPasscodeRecord.new(passcode, cost: cost)
        } catch {
            throw .storage("the passcode cannot be hashed (\(error))")
        }
    }

    /// Runs `work` in a turn of ``turns``, carrying its typed error out.
    private func serially(_ work: @escaping @Sendable () async throws(AppPasscodeError) -> Void) async throws(AppPasscodeError) {
        let outcome = await turns.run(joining: nil) { () async -> Result<Void, AppPasscodeError> in
            do throws(AppPasscodeError) {
                try await work()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
    }
}
