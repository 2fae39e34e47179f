#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// The attempt limits of a vault's passcode (SPEC E3): an ``AppPasscode``
/// record kept beside the vault, so that wrong passcodes are counted and the
/// escalating delays hold across processes and restarts.
///
/// The record cannot live inside the vault it guards: a locked vault has no
/// key to write it with. It lives in `passcode/` of the vault's directory
/// (0700, a file 0600), apart from the vault file like `device/`, so that
/// copying the vault alone does not copy a second hash of the passcode.
///
/// What it defends against: someone at the keyboard guessing through
/// `sesame`. Whoever can delete files as the owner can also delete the
/// record (and copy the vault to guess offline); there the scrypt cost of
/// the passcode slot is the protection, as the README says.
struct VaultPasscodeLock {
    /// The vault the record belongs to.
    let vaultPath: String
    private let store: FileAppPasscodeStore
    private let identifier: String

    /// The lock of the vault at `vaultPath` (an absolute path).
    init(vaultPath: String) {
        self.vaultPath = vaultPath
        let slash = vaultPath.lastIndex(of: "/")
        let directory = slash.map { String(vaultPath[..<$0]) } ?? "."
        let fileName = slash.map { String(vaultPath[vaultPath.index(after: $0)...]) } ?? vaultPath
        store = FileAppPasscodeStore(directory: (directory.isEmpty ? "" : directory) + "/passcode")
        identifier = Self.identifier(forFileName: fileName)
    }

    /// The record file, for messages.
    var recordPath: String { store.directory + "/" + identifier + ".passcode" }

    /// The record as an ``AppPasscode`` hashing at `cost`; pass the record's
    /// own cost when checking, or every right entry would re-hash it.
    func appPasscode(cost: AppPasscodeCost = .standard) -> AppPasscode {
        AppPasscode(appIdentifier: identifier, store: store, cost: cost)
    }

    /// The record's state; never counts as an attempt.
    ///
    /// - Returns: `nil` when there is no record.
    /// - Throws: ``CommandFailure`` with ``ExitStatus/damaged`` when the record is unusable.
    func status() async throws(CommandFailure) -> AppPasscodeStatus? {
        do {
            return try await appPasscode().status()
        } catch {
            throw storageFailure(error)
        }
    }

    /// Checks `passcode` against the record, counting a wrong one and
    /// refusing without checking while a delay runs, then opens the vault.
    /// A vault made before `sesame` kept records is opened directly and gets
    /// its record on this first right passcode.
    ///
    /// - Parameters:
    ///   - passcode: What the person entered.
    ///   - authenticators: The backends the vault prompts with.
    /// - Returns: The unlocked vault.
    /// - Throws: ``CommandFailure``: 4 wrong passcode, 6 during a delay, or the vault's own errors.
    func open(passcode: SecretBytes, authenticators: Authenticators) async throws(CommandFailure) -> Vault {
        guard let status = try await status() else {
            let vault = try await Self.openVault(at: vaultPath, passcode: passcode, authenticators: authenticators)
            await adopt(passcode, vault: vault)
            return vault
        }
        try await verify(passcode, cost: status.cost)
        return try await Self.openVault(at: vaultPath, passcode: passcode, authenticators: authenticators)
    }

    /// Checks `passcode` against the record, counting failures (SPEC E3).
    ///
    /// - Throws: ``CommandFailure``: 4 wrong, 6 during a delay, 9 an unusable record.
    func verify(_ passcode: SecretBytes, cost: AppPasscodeCost) async throws(CommandFailure) {
        switch await appPasscode(cost: cost).verify(passcode) {
        case .accepted: return
        case .rejected, .cancelled: throw CommandFailure(status: .authenticationFailed, message: "the vault passcode is wrong")
        case .delayed(let until): throw Self.lockedOut(until: until)
        case .unavailable(let reason): throw storageFailure(reason.detail)
        }
    }

    /// Writes a new record for `passcode`, replacing any left from before.
    ///
    /// - Parameters:
    ///   - passcode: The vault's passcode now.
    ///   - cost: The passcode slot's cost, so the record is no weaker than the slot.
    func create(_ passcode: SecretBytes, cost: ScryptCost) async throws(CommandFailure) {
        let lock = appPasscode(cost: Self.appPasscodeCost(cost))
        do {
            try await removeRecord()
            try await lock.set(passcode)
        } catch {
            throw storageFailure(error)
        }
    }

    /// Deletes the record, e.g. after the passcode slot is removed.
    func removeRecord() async throws(CommandFailure) {
        do {
            try await store.remove(appIdentifier: identifier)
        } catch {
            throw storageFailure(error)
        }
    }

    /// The app passcode cost equal to a vault slot's scrypt cost.
    static func appPasscodeCost(_ cost: ScryptCost) -> AppPasscodeCost {
        AppPasscodeCost(n: 1 << Int(cost.log2N), r: Int(cost.r), p: Int(cost.p))
    }

    /// Exit 6, saying until when.
    static func lockedOut(until: Date) -> CommandFailure {
        CommandFailure(status: .lockedOut, message: "too many wrong passcodes: locked out until \(until.formatted(.iso8601)); nothing was checked")
    }

    /// Opens the vault's passcode slot, mapping its errors to exit codes.
    static func openVault(at path: String, passcode: SecretBytes, authenticators: Authenticators) async throws(CommandFailure) -> Vault {
        do throws(VaultError) {
            return try await Vault.open(at: path, unlock: .passcode(passcode), authenticators: authenticators)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Starts counting for a vault that had no record. Best effort: the
    /// vault is open either way, and the next open tries again.
    private func adopt(_ passcode: SecretBytes, vault: Vault) async {
        guard let cost = try? await vault.passcodeSlotCost() else { return }
        do throws(CommandFailure) {
            try await create(passcode, cost: cost)
        } catch {
            StandardError.write("sesame: warning: wrong passcodes are not limited yet: \(error.message)\n")
        }
    }

    private func storageFailure(_ error: any Error) -> CommandFailure {
        storageFailure("\(error)")
    }

    private func storageFailure(_ message: String) -> CommandFailure {
        // Fail closed: a damaged or edited record must not reset the count.
        CommandFailure(status: .damaged, message: "the passcode attempt record \(recordPath) cannot be used (\(message)); a person must look at it before the passcode is accepted again")
    }

    /// The vault's file name as a record name: letters, digits, `.`, `-`,
    /// `_`; anything else becomes `_`, with a hash of the real name so that
    /// two vaults in one directory never share a record.
    static func identifier(forFileName name: String) -> String {
        var clean = ""
        var changed = name.isEmpty || name.hasPrefix(".")
        for scalar in name.unicodeScalars {
            if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_".unicodeScalars.contains(scalar)
                                  || (scalar == "." && !clean.isEmpty)) {
                clean.unicodeScalars.append(scalar)
            } else {
                clean += "_"
                changed = true
            }
        }
        guard changed else { return clean }
        // FNV-1a: only tells names apart, nothing secret depends on it.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "vault" + clean + "-" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
