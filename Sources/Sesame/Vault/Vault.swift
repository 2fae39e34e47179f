#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import GRDB

/// Items protected by access control and encrypted at rest: the keychain
/// model (SPEC D) over one SQLite file.
///
/// A vault's master key is kept only wrapped in ``KeySlot``s; each item's
/// value is sealed with AES-GCM under its own key, which is wrapped by keys
/// derived from the master key and the item's ``AccessControl``. Every row is
/// authenticated, so edits and swaps are reported as
/// ``VaultError/Status-swift.enum/tampered`` instead of returning garbage.
///
/// The file is SQLite in WAL mode with full sync: an acknowledged write
/// survives `kill -9` and power loss, any number of processes may use one
/// vault, and one of them writes at a time (others wait, up to
/// ``busyTimeout``). Reads never write: opening and reading change no byte of
/// the file or its `-wal` and `-shm` companions, which stay beside it once
/// created. A damaged file is reported, never repaired.
///
/// Every `Vault` on one file in a process shares its SQLite connections. Do
/// not write to the file through a connection of your own in the same
/// process while a `Vault` reads it: SQLite maps one shared-memory index per
/// file and process, and the vault's read-only one makes such writes fail
/// with "attempt to write a readonly database".
///
/// Every method is `async` and nonisolated: operations that prompt suspend
/// the caller without blocking a thread, and never run on the main actor.
///
/// ```swift
/// let (vault, recovery) = try await Vault.create(at: Vault.defaultPath(environment: env),
///                                                slots: [.device(), .recovery],
///                                                authenticators: authenticators)
/// print("Write this down: \(recovery!.printable)")
/// try await vault.add(SecretBytes(utf8: token), service: "api", account: "me",
///                     accessControl: .biometryCurrentSet)
/// let value = try await vault.read(service: "api", account: "me", operationPrompt: "Sign in")
/// ```
public final class Vault: Sendable {
    /// How long an operation waits for another process's write, in seconds.
    public static let busyTimeout: TimeInterval = 30

    /// The vault format this Sesame writes. An older vault is migrated to it
    /// at its first write; a newer one is refused and left untouched.
    public static let currentFormat = Schema.format

    /// The vault file.
    public let path: String
    let database: VaultDatabase
    let subkeys: VaultSubkeys
    private let options: Locked<Options>
    /// Whether this object has brought the file to the current format (the
    /// first write does, with the master key: reads never write).
    private let upgraded = Locked(false)

    private struct Options {
        var authenticators: Authenticators
        var applicationPasswordCost: ScryptCost
        var reuseDuration: TimeInterval
    }

    private init(path: String, database: VaultDatabase, subkeys: VaultSubkeys, authenticators: Authenticators) {
        self.path = path
        self.database = database
        self.subkeys = subkeys
        options = Locked(Options(authenticators: authenticators, applicationPasswordCost: .standard, reuseDuration: 0))
    }

    /// The backends the vault prompts with when a read is not pre-authenticated.
    /// Settable so that a ``VaultAttemptStore`` on this very vault can be
    /// plugged in after opening.
    public var authenticators: Authenticators {
        get { options.withLock { $0.authenticators } }
        set { options.withLock { $0.authenticators = newValue } }
    }

    /// The scrypt cost for new `applicationPassword` wrappings; existing items
    /// keep the cost stored with them. ``ScryptCost/standard`` by default.
    public var applicationPasswordCost: ScryptCost {
        get { options.withLock { $0.applicationPasswordCost } }
        set { options.withLock { $0.applicationPasswordCost = newValue } }
    }

    /// The reuse window, in seconds, of the contexts the vault makes for its
    /// own prompts (SPEC A6); 0, always prompt, by default.
    public var reuseDuration: TimeInterval {
        get { options.withLock { $0.reuseDuration } }
        set { options.withLock { $0.reuseDuration = newValue } }
    }

    func makeContext() -> AuthenticationContext {
        let (authenticators, reuse) = options.withLock { ($0.authenticators, $0.reuseDuration) }
        let context = AuthenticationContext(authenticators)
        context.reuseDuration = reuse
        return context
    }

    // MARK: Creating and opening

    /// Creates a vault with a new random master key.
    ///
    /// Creates the directory (0700) and the file (0600). A device key file
    /// that already exists is reused, so several vaults can share one.
    ///
    /// - Parameters:
    ///   - path: The vault file; must not exist.
    ///   - slots: How it can be unlocked; at least one, each kind at most once.
    ///   - authenticators: The backends for prompts.
    /// - Returns: The open vault, and the recovery key when `slots` has
    ///   ``KeySlot/recovery``: show it to the owner once; Sesame keeps no copy.
    /// - Throws: ``VaultError`` with `invalidArgument` (no slots, duplicate
    ///   slots, the file exists), `insecurePermissions`, or `ioError`.
    public static func create(
        at path: String, slots: [KeySlot], authenticators: Authenticators
    ) async throws(VaultError) -> (vault: Vault, recoveryKey: RecoveryKey?) {
        let kinds = slots.map(\.kind.rawValue)
        guard !slots.isEmpty, Set(kinds).count == kinds.count else {
            throw VaultError(.invalidArgument, "A vault needs at least one key slot, each kind at most once (got \(kinds))")
        }
        try PrivateFiles.ensureDirectory(PrivateFiles.directory(of: path))
        guard !PrivateFiles.exists(path) else {
            throw VaultError(.invalidArgument, "\(path) already exists; Sesame never overwrites a vault")
        }
        let masterKey = SymmetricKey(size: .bits256)
        let vaultID = KeyDerivation.randomBytes(16)
        var recoveryKey: RecoveryKey?
        var sealedSlots: [SlotRecord] = []
        for slot in slots {
            let salt = KeyDerivation.randomBytes(16)
            var cost: ScryptCost?
            let wrappingKey: SymmetricKey
            switch slot.kind {
            case .device:
                wrappingKey = SlotRecord.deviceWrappingKey(
                    deviceKey: try await deviceKey(slot.keyStore ?? defaultDeviceKeyStore(forVaultAt: path, sealer: authenticators.deviceKeySealer), creating: true), vaultID: vaultID)
            case .passcode:
                // KeySlot.passcode(_:cost:), the only maker of this kind, always sets it.
                guard let passcode = slot.passcode else { preconditionFailure("A passcode slot without its passcode") }
                cost = slot.cost
                wrappingKey = try await SlotRecord.passcodeWrappingKey(passcode, salt: salt, cost: slot.cost, binding: authenticators.passcodeGuard)
            case .recovery:
                let key = RecoveryKey(secret: SecretBytes(SymmetricKey(size: .bits256).bytes))
                recoveryKey = key
                wrappingKey = SlotRecord.recoveryWrappingKey(key, vaultID: vaultID)
            }
            sealedSlots.append(try SlotRecord.seal(masterKey, kind: slot.kind.rawValue, salt: salt, cost: cost, wrappingKey: wrappingKey, vaultID: vaultID))
        }
        let finishedSlots = sealedSlots
        try PrivateFiles.createFile(path, contents: [])
        let database = try VaultDatabase.shared(path)
        do {
            try database.useWriteAheadLog()
            try database.migrate(subkeys: VaultSubkeys(masterKey: masterKey, vaultID: vaultID))
            try await database.write { db in
                try db.execute(sql: "INSERT INTO meta (name, value) VALUES ('format', ?), ('vault-id', ?)",
                               arguments: [Data(String(Schema.format).utf8), Data(vaultID)])
                for slot in finishedSlots { try slot.insert(db) }
                if finishedSlots.contains(where: { $0.kind == PasscodeSlotLedger.subject }) { try PasscodeSlotLedger.reset(db) }
            }
        } catch {
            throw VaultError(databaseError: error, path: path)
        }
        let vault = Vault(path: path, database: database, subkeys: VaultSubkeys(masterKey: masterKey, vaultID: vaultID), authenticators: authenticators)
        return (vault, recoveryKey)
    }

    /// Opens an existing vault file after checking that neither it, its WAL
    /// companions nor its directory are open to others. Writes nothing.
    static func openExisting(_ path: String) throws(VaultError) -> VaultDatabase {
        try PrivateFiles.requirePrivate(PrivateFiles.directory(of: path))
        guard PrivateFiles.exists(path) else { throw VaultError(.ioError, "There is no vault at \(path)") }
        try PrivateFiles.requirePrivate(path)
        for companion in [path + "-wal", path + "-shm"] where PrivateFiles.exists(companion) {
            try PrivateFiles.requirePrivate(companion)
        }
        return try VaultDatabase.shared(path)
    }

    /// The file's format version, after checking it is a Sesame vault this
    /// code can read.
    static func readFormat(_ db: Database, path: String) throws -> Int {
        guard try db.tableExists("meta"), try db.tableExists("slot"), try db.tableExists("item") else {
            throw VaultError(.damaged, "\(path) is an SQLite file but not a Sesame vault")
        }
        let format = try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'format'").flatMap { Int(String(decoding: $0, as: UTF8.self)) }
        guard let format else { throw VaultError(.damaged, "\(path) has no format version; it is not a Sesame vault") }
        guard format <= Schema.format else {
            throw VaultError(.damaged, "\(path) has format \(format), written by a newer Sesame; this one reads up to \(Schema.format)")
        }
        try Schema.checkStructure(db, format: format, path: path)
        return format
    }

    /// Opens and unlocks an existing vault. Never prompts.
    ///
    /// - Parameters:
    ///   - path: The vault file.
    ///   - unlock: The secret behind one of its key slots.
    ///   - authenticators: The backends for prompts.
    /// - Returns: The unlocked vault.
    /// - Throws: ``VaultError`` with `insecurePermissions` (the file or its
    ///   directory is open to others), `damaged` (not a vault, truncated, or
    ///   from a newer Sesame), `locked` (no such slot, or no device key file),
    ///   `authFailed` (wrong passcode or recovery key; for the passcode, with
    ///   ``VaultError/authenticationError`` carrying `retryAfter` when a delay
    ///   runs), `tampered` (the passcode's attempt record was deleted or
    ///   edited), or `ioError`.
    ///
    /// A passcode goes through the vault's attempt gate (SPEC E3, E5): it is
    /// counted before it is checked, in the vault file, under a lock every
    /// process shares; after repeated wrong ones, escalating delays refuse
    /// every process without checking anything until they end.
    public static func open(at path: String, unlock: VaultUnlock, authenticators: Authenticators) async throws(VaultError) -> Vault {
        let database = try openExisting(path)
        let (vaultID, slots): ([UInt8], [String: SlotRecord])
        do {
            (vaultID, slots) = try await database.read { db throws -> ([UInt8], [String: SlotRecord]) in
                _ = try readFormat(db, path: path)
                guard let id = try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'vault-id'"), id.count == 16 else {
                    throw VaultError(.damaged, "\(path) has no valid vault identifier")
                }
                var slots: [String: SlotRecord] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT kind, salt, log2n, r, p, sealed FROM slot") {
                    let slot = try SlotRecord(row)
                    slots[slot.kind] = slot
                }
                return (Array(id), slots)
            }
        } catch {
            throw VaultError(databaseError: error, path: path)
        }
        let kind = unlock.kind.rawValue
        let wrappingKey: SymmetricKey
        switch unlock.kind {
        case .device:
            guard slots[kind] != nil else { throw VaultError(.locked, "\(path) has no device slot; unlock it with its passcode or recovery key") }
            wrappingKey = SlotRecord.deviceWrappingKey(
                deviceKey: try await deviceKey(unlock.keyStore ?? defaultDeviceKeyStore(forVaultAt: path, sealer: authenticators.deviceKeySealer), creating: false), vaultID: vaultID)
        case .passcode:
            guard let slot = slots[kind], slot.cost != nil else { throw VaultError(.locked, "\(path) has no passcode slot") }
            // VaultUnlock.passcode(_:), the only maker of this kind, always sets it.
            guard let passcode = unlock.secret else { preconditionFailure("A passcode unlock without its passcode") }
            let masterKey = try await VaultSlots.openPasscodeSlot(slot, passcode: passcode, vaultID: vaultID, database: database, path: path,
                                                       clock: authenticators.clock, passcodeGuard: authenticators.passcodeGuard)
            return try await unlocked(path: path, database: database, subkeys: VaultSubkeys(masterKey: masterKey, vaultID: vaultID), authenticators: authenticators)
        case .recovery:
            guard slots[kind] != nil else { throw VaultError(.locked, "\(path) has no recovery slot") }
            // VaultUnlock.recovery(_:), the only maker of this kind, always sets it.
            guard let secret = unlock.secret else { preconditionFailure("A recovery unlock without its key") }
            wrappingKey = SlotRecord.recoveryWrappingKey(RecoveryKey(secret: secret), vaultID: vaultID)
        }
        let masterKey = try slots[kind]!.open(wrappingKey: wrappingKey, vaultID: vaultID, path: path)
        return try await unlocked(path: path, database: database, subkeys: VaultSubkeys(masterKey: masterKey, vaultID: vaultID), authenticators: authenticators)
    }

    /// The vault, once its format record checks out under the master key:
    /// a format or migration list changed by hand is `tampered`.
    private static func unlocked(path: String, database: VaultDatabase, subkeys: VaultSubkeys, authenticators: Authenticators) async throws(VaultError) -> Vault {
        do {
            try await database.read { db in try Schema.verifyFormat(db, subkeys: subkeys, path: path) }
        } catch {
            throw VaultError(databaseError: error, path: path)
        }
        return Vault(path: path, database: database, subkeys: subkeys, authenticators: authenticators)
    }

    /// Brings the file to the current format before the first write of this
    /// object: rows of an older file are sealed (SPEC D9), which needs the
    /// master key, so it happens here and never on a read.
    func upgradeIfNeeded() throws(VaultError) {
        guard !upgraded.withLock({ $0 }) else { return }
        do {
            try database.migrate(subkeys: subkeys)
        } catch {
            throw VaultError(databaseError: error, path: path)
        }
        upgraded.withLock { $0 = true }
    }

    /// The device key through the ``DeviceKeyStore`` seam, created only
    /// when `creating`; a missing key is `locked` (the passcode or recovery
    /// key still opens the vault).
    static func deviceKey(_ store: any DeviceKeyStore, creating: Bool) async throws(VaultError) -> SecretBytes {
        let key: SecretBytes?
        do {
            key = creating ? try await store.deviceKey() : try await store.existingDeviceKey()
        } catch let error as VaultError {
            throw error
        } catch let error as any DeviceKeyStoreError {
            throw VaultError(error)
        } catch FileDeviceKeyStore.KeyError.damaged(let keyFile) {
            throw VaultError(.damaged, "The device key \(keyFile) is not 32 bytes; Sesame will not replace it")
        } catch FileDeviceKeyStore.KeyError.insecure(let message) {
            throw VaultError(.insecurePermissions, message)
        } catch {
            throw VaultError(.ioError, "Cannot use the device key \(deviceKeyName(store)): \(error)")
        }
        guard let key else {
            throw VaultError(.locked, "The device key \(deviceKeyName(store)) is missing; unlock the vault with its passcode or recovery key")
        }
        guard key.count == 32 else {
            throw VaultError(.damaged, "The device key \(deviceKeyName(store)) is not 32 bytes; Sesame will not use it")
        }
        return key
    }

    /// The key file's path for messages, or what the store calls itself.
    static func deviceKeyName(_ store: any DeviceKeyStore) -> String {
        (store as? FileDeviceKeyStore)?.path ?? String(describing: type(of: store))
    }
}

extension VaultError {
    /// Maps an SQLite failure to a status, keeping SQLite's words.
    init(databaseError error: any Error, path: String) {
        if let error = error as? VaultError {
            self = error
            return
        }
        guard let database = error as? DatabaseError else {
            self.init(.ioError, "\(path): \(error)")
            return
        }
        switch database.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_FORMAT:
            self.init(.damaged, "\(path) is damaged (\(database.message ?? "corrupt")); Sesame does not repair it. Restore it from a backup or an export")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self.init(.ioError, "\(path) stayed locked by another process for over \(Int(Vault.busyTimeout)) seconds")
        case .SQLITE_CONSTRAINT:
            self.init(.duplicateItem, "\(path): \(database.message ?? "constraint violated")")
        default:
            self.init(.ioError, "\(path): \(database.message ?? "\(database.resultCode)")")
        }
    }
}
