import Crypto
import Foundation
import GRDB
@testable import Sesame
import SesameTesting
import Testing

/// Today's code reads every part of the committed format-6 golden vault
/// exactly (see ``GoldenVault6``), without upgrading or writing it. A failure
/// here means an encoding of format 6 changed: add a migration (a format 7
/// and a golden vault of its own), never regenerate these files.
///
/// Which test catches which encoding:
/// - `formatRecord`: `meta.format`, the migration identifiers, the format
///   MAC (`VaultSubkeys.formatMAC`, its label and key derivation), the sealed
///   tables' columns.
/// - `items`: `SealedAttributes` (names, label, accessibility, the access
///   control's canonical encoding, dates as `Double` bits, padding), the
///   keyed-hash `lookup` (a point read finds each row), the wrappings and
///   value sealing under every access control, the enrolment commitment.
/// - `keys`: a key's sealed attributes (algorithm, raw public key), its
///   private key's stored bytes (it signs, checked by swift-crypto), the
///   `KeyConstraintsRecord` (version 2: flags, expiry, since, boot reading).
/// - `attempts`: the `attempt` row layout with its boot-clock columns, the
///   per-item subject `app-password:item:<id>`, `attempt_in_flight`.
/// - `setting`, `slots`: the setting envelope; the slot records of the
///   device key, the passcode and the recovery key.
/// - `readsNeverWrite`: reads of a format-6 file change no byte of it.
@Suite("Golden vault, format 6: every persisted encoding of today's format reads back exactly")
struct GoldenVault6Tests {
    let directory: TemporaryDirectory
    let machine = GoldenVault.machine()
    var copy: String { directory.path + "/golden" }
    var path: String { copy + "/vault.sqlite" }
    static let message = Array("golden message".utf8)

    static var resources: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources6").path
    }

    /// A private copy (git keeps no modes; the committed files are never written).
    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: Self.resources, toPath: copy)
        for (file, mode) in [(copy, 0o700), (copy + "/device", 0o700), (copy + "/vault.sqlite", 0o600),
                             (copy + "/device/device.key", 0o600), (copy + "/recovery.txt", 0o600)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        }
    }

    private func open() async throws -> Vault {
        try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
    }

    private func recoveryKey() throws -> RecoveryKey {
        let printed = try String(contentsOfFile: copy + "/recovery.txt", encoding: .utf8)
        return try #require(RecoveryKey(printed.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// The public key a fixed private key has, computed by swift-crypto alone.
    static func publicKey(of key: GoldenVault6.Key) throws -> [UInt8] {
        switch key.algorithm {
        case .ed25519: Array(try Curve25519.Signing.PrivateKey(rawRepresentation: key.privateKey).publicKey.rawRepresentation)
        default: Array(try P256.Signing.PrivateKey(rawRepresentation: key.privateKey).publicKey.x963Representation)
        }
    }

    static func key(_ name: String) throws -> GoldenVault6.Key {
        try #require(GoldenVault6.keys.first { $0.name == name })
    }

    private func status(_ body: () async throws -> Void) async -> VaultError.Status? {
        do {
            try await body()
            return nil
        } catch let error as VaultError {
            return error.status
        } catch {
            return .ioError
        }
    }

    @Test("SPEC D9: the file is format 6, its migrations are today's, its format MAC is valid, its rows are laid out sealed")
    func formatRecord() async throws {
        #expect(try FileManager.default.contentsOfDirectory(atPath: Self.resources).sorted() == [".gitattributes", "device", "recovery.txt", "vault.sqlite"],
                "nothing writes beside the committed files")
        #expect(try await Vault.summary(at: path) == VaultSummary(format: 6, slots: ["device", "passcode", "recovery"], itemCount: 15))
        let vault = try await open()
        let subkeys = vault.subkeys
        let (format, mac, migrations, itemColumns, keyColumns) = try await vault.rows.readDatabase { db in
            (try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'format'"),
             try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'format-mac'"),
             try Schema.appliedMigrations(db),
             try db.columns(in: "item").map(\.name), try db.columns(in: "key").map(\.name))
        }
        #expect(format == Data("6".utf8))
        #expect(migrations == ["v1", "v2-attempts", "v3-keys", "v4-attempt-clock", "v5-key-constraints", "v6-sealed-attributes"])
        // A later format adds migrations after these; it never renames or drops one.
        #expect(Schema.identifiers.starts(with: migrations))
        // The MAC computed here, from the format and the migrations: a change of its encoding, label or key fails this.
        #expect(mac.map(Array.init) == subkeys.formatMAC(format: 6, migrations: migrations))
        try await vault.rows.readDatabase { db in try Schema.verifyFormat(db, subkeys: subkeys, path: "golden") }
        let sealed = ["id", "lookup", "attributes", "wrappings", "commitment", "ciphertext", "mac"]
        #expect(itemColumns == sealed)
        #expect(keyColumns == sealed, "a key's constraints travel in its sealed attributes, not in a column")
    }

    @Test("SPEC E5: Every slot opens it: the device key, the recovery key, and the passcode once its delay is over")
    func slots() async throws {
        #expect(try await open().slots.kinds() == [.device, .passcode, .recovery])
        _ = try await Vault.open(at: path, unlock: .recovery(try recoveryKey()), authenticators: machine.authenticators)
        // The test's clock is another boot at uptime 1000 s: the 60 s delay is over.
        _ = try await Vault.open(at: path, unlock: .passcode(SecretBytes(utf8: GoldenVault.passcode)), authenticators: machine.authenticators)
        #expect(try await VaultSlots.passcodeAttempts(at: path, clock: machine.clock)?.consecutiveFailures == 0)
    }

    @Test("SPEC D9: every item's sealed attributes and value, under every access control and accessibility, found by its lookup")
    func items() async throws {
        let vault = try await open()
        // Decodes every row's sealed attributes (no lookup involved).
        #expect(try await vault.items.list() == GoldenVault.items)
        for item in GoldenVault.items {
            // A point read: the keyed-hash lookup of (table, service, account).
            #expect(try await vault.items.attributes(service: item.service, account: item.account) == item, "\(item.account)")
        }
        for item in GoldenVault.items where item.service == GoldenVault.service {
            #expect(try await GoldenVault.read(vault, item.account, accessControl: item.accessControl, on: machine) == GoldenVault.value(of: item.account),
                    "\(item.account)")
        }
        let labelled = try await vault.items.read(service: "other service", account: GoldenVault.labelled.account, operationPrompt: "Golden")
        #expect(labelled.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } == GoldenVault.value(of: GoldenVault.labelled.account))
        #expect(try await vault.items.list(service: "other service").map(\.label) == [GoldenVault.labelled.label])
    }

    @Test("SPEC D5: the biometryCurrentSet items are bound to the golden enrolment (the sealed commitment)")
    func enrolmentBinding() async throws {
        machine.sensor.enrol("left-thumb")
        let vault = try await open()
        await #expect(throws: VaultError.itemInvalidated) {
            _ = try await GoldenVault.read(vault, "biometryCurrentSet", accessControl: .biometryCurrentSet, on: machine)
        }
        #expect(try await GoldenVault.read(vault, "biometryAny", accessControl: .biometryAny, on: machine) == GoldenVault.value(of: "biometryAny"))
    }

    @Test("SPEC D9, G: The setting's sealed bytes")
    func setting() async throws {
        #expect(try await open().settings.value(named: GoldenVault.settingName) == GoldenVault.settingValue)
    }

    @Test("SPEC D7, D8: the keys' attributes, public keys and constraints; the unexpired ones sign, swift-crypto verifies")
    func keys() async throws {
        let vault = try await open()
        let listed = try await vault.keys.list()
        // The lifetime key is not listed: see lifetimeAfterReboot.
        #expect(listed.map(\.name) == ["ed25519", "p256-confirm"])
        let usage = try AccessControl(Vault.noAccessControl.flags.union([.privateKeyUsage]), combination: Vault.noAccessControl.combination)
        for stored in listed {
            let key = try Self.key(stored.name)
            #expect(stored.service == GoldenVault6.keyService)
            #expect(stored.label == key.label)
            #expect(stored.algorithm == key.algorithm)
            #expect(stored.accessibility == .whenUnlockedThisDeviceOnly)
            #expect(stored.accessControl == usage)
            #expect(stored.created == GoldenVault.madeAt)
            #expect(stored.constraints == key.constraints)
            #expect(stored.publicKey.rawRepresentation == (try Self.publicKey(of: key)), "\(key.name)")
        }

        // Ed25519, unconstrained: signs without asking.
        let silent = machine.context()
        silent.interactionNotAllowed = true
        let ed25519 = try await vault.keys.sign(Self.message, withKey: "ed25519", service: GoldenVault6.keyService, operationPrompt: "Golden", context: silent)
        let verifier = try Curve25519.Signing.PublicKey(rawRepresentation: try Self.publicKey(of: try Self.key("ed25519")))
        #expect(verifier.isValidSignature(ed25519, for: Self.message))

        // P-256, confirm each use: refused where nobody can be asked, signs once confirmed.
        #expect(await status {
            _ = try await vault.keys.sign(Self.message, withKey: "p256-confirm", service: GoldenVault6.keyService, operationPrompt: "Golden", context: silent)
        } == .interactionNotAllowed)
        machine.sensor.present(.match)
        let der = try await vault.keys.sign(Self.message, withKey: "p256-confirm", service: GoldenVault6.keyService, operationPrompt: "Golden")
        let p256 = try P256.Signing.PublicKey(x963Representation: try Self.publicKey(of: try Self.key("p256-confirm")))
        #expect(p256.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: der), for: Self.message))
    }

    /// The lifetime was set with the boot clock of the machine that made the
    /// file (``GoldenVault6/madeInBoot``); no ManualClock is in that boot, so
    /// every test reads it after a reboot, where a lifetime measured on the
    /// boot clock has ended (SPEC D8, as `ssh-add -t` keys end with the agent).
    @Test("SPEC D8: the lifetime key's record reads exactly; within its boot it is alive, after the reboot every test clock is in it has ended")
    func lifetimeAfterReboot() async throws {
        let vault = try await open()
        let key = try Self.key("p256-lifetime")
        let row = try await vault.rows.verifiedRow(table: "key", service: GoldenVault6.keyService, account: key.name)
        #expect(row.label == key.label)
        #expect(row.key?.algorithm == "p256")
        #expect(row.key?.publicKey == (try Self.publicKey(of: key)))
        // The KeyConstraintsRecord, field by field: flags, expiry, since, the boot reading.
        let record = try #require(try KeyConstraintsRecord.open(row, key: vault.subkeys.constraintsKey))
        #expect(record == KeyConstraintsRecord(constraints: KeyConstraints(expires: GoldenVault6.farFuture, confirmEachUse: true),
                                               since: GoldenVault.madeAt.timeIntervalSince1970, sinceBoot: GoldenVault6.madeInBoot))
        let anHourLater = GoldenVault.madeAt.addingTimeInterval(3600)
        #expect(!record.hasExpired(at: anHourLater, boot: BootInstant(bootID: GoldenVault6.madeInBoot.bootID, uptime: GoldenVault6.madeInBoot.uptime + 3600)))
        #expect(record.hasExpired(at: anHourLater, boot: BootInstant(bootID: "another boot", uptime: 3600)))

        // This test's clock: another boot.
        #expect(machine.clock.bootInstant()?.bootID != GoldenVault6.madeInBoot.bootID)
        #expect(try await !vault.keys.list().contains { $0.name == key.name })
        await #expect(throws: VaultError.itemNotFound) {
            _ = try await vault.keys.key(service: GoldenVault6.keyService, name: key.name)
        }
        #expect(try await vault.rows.readDatabase { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM key") } == 3, "reads leave it in the file")
        #expect(await status {
            _ = try await vault.keys.sign(Self.message, withKey: key.name, service: GoldenVault6.keyService, operationPrompt: "Golden")
        } == .itemNotFound)
        #expect(try await vault.rows.readDatabase { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM key") } == 2, "its use deleted it")
    }

    @Test("SPEC E3, E5: the passcode's attempt record (five wrong, a delay with its boot-clock start) and the item's application-password record")
    func attempts() async throws {
        let vault = try await open()
        let item = try await vault.rows.verifiedRow(service: GoldenVault.service, account: "applicationPassword")
        let subject = PasscodeSlotLedger.itemSubject(table: "item", id: item.id)
        #expect(subject.hasPrefix("app-password:item:"))
        let (rows, inFlight, passcode, password) = try await vault.rows.readDatabase { db in
            (try Row.fetchAll(db, sql: "SELECT * FROM attempt ORDER BY subject").map(AttemptRow.init),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM attempt_in_flight"),
             try PasscodeSlotLedger.read(db, path: "golden"),
             try PasscodeSlotLedger.read(db, path: "golden", subject: subject))
        }
        // The raw rows: the columns by name, as format 4 laid them out.
        #expect(rows == [
            AttemptRow(subject: subject, failures: 1, delayStart: nil, delayDuration: nil, lastWrong: nil, delayBootID: nil, delayBootUptime: nil),
            AttemptRow(subject: "passcode", failures: GoldenVault6.wrongPasscodes, delayStart: GoldenVault.madeAt.timeIntervalSince1970,
                       delayDuration: GoldenVault6.passcodeDelay, lastWrong: nil, delayBootID: GoldenVault6.madeInBoot.bootID,
                       delayBootUptime: GoldenVault6.madeInBoot.uptime),
        ])
        #expect(inFlight == 0)
        // As the gate reads them.
        #expect(passcode == AttemptCounter(failures: GoldenVault6.wrongPasscodes, delay: AttemptRecord.Delay(
            start: GoldenVault.madeAt, duration: GoldenVault6.passcodeDelay, startBoot: GoldenVault6.madeInBoot)))
        #expect(password == AttemptCounter(failures: 1))

        // Another boot at uptime 1000 s: the delay is over; rebooted 10 s ago: 50 s of it are left
        // (a delay without its boot-clock start would restart in full: 60 s).
        #expect(try await VaultSlots.passcodeAttempts(at: path, clock: machine.clock) == PasscodeAttempts(consecutiveFailures: 5, delayedUntil: nil))
        machine.clock.reboot(uptime: 10)
        #expect(try await VaultSlots.passcodeAttempts(at: path, clock: machine.clock)
                == PasscodeAttempts(consecutiveFailures: 5, delayedUntil: machine.clock.now().addingTimeInterval(50)))
        await #expect(throws: VaultError.authFailed) {
            _ = try await Vault.open(at: path, unlock: .passcode(SecretBytes(utf8: GoldenVault.passcode)), authenticators: machine.authenticators)
        }

        // The item's record counts on: a second wrong password makes two.
        let wrong = machine.context()
        _ = wrong.setCredential(SecretBytes(utf8: "still not it"), type: .applicationPassword)
        await #expect(throws: VaultError.authFailed) {
            _ = try await vault.items.read(service: GoldenVault.service, account: "applicationPassword", operationPrompt: "Golden", context: wrong)
        }
        #expect(try await vault.rows.readDatabase { try PasscodeSlotLedger.read($0, path: "golden", subject: subject) }.failures == 2)
    }

    /// One `attempt` row, its columns read by name.
    struct AttemptRow: Sendable, Equatable {
        var subject: String?
        var failures: Int?
        var delayStart: Double?
        var delayDuration: Double?
        var lastWrong: Data?
        var delayBootID: String?
        var delayBootUptime: Double?

        init(subject: String?, failures: Int?, delayStart: Double?, delayDuration: Double?, lastWrong: Data?,
             delayBootID: String?, delayBootUptime: Double?) {
            (self.subject, self.failures, self.delayStart, self.delayDuration) = (subject, failures, delayStart, delayDuration)
            (self.lastWrong, self.delayBootID, self.delayBootUptime) = (lastWrong, delayBootID, delayBootUptime)
        }

        init(_ row: Row) {
            self.init(subject: row["subject"], failures: row["failures"], delayStart: row["delay_start"], delayDuration: row["delay_duration"],
                      lastWrong: row["last_wrong"], delayBootID: row["delay_boot_id"], delayBootUptime: row["delay_boot_uptime"])
        }
    }

    /// Every file: bytes and modification time.
    private func snapshot() throws -> [String: (Data, Date?)] {
        var files: [String: (Data, Date?)] = [:]
        for name in ["vault.sqlite", "vault.sqlite-wal", "vault.sqlite-shm", "device/device.key", "recovery.txt"] {
            let file = copy + "/" + name
            guard FileManager.default.fileExists(atPath: file) else { continue }
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            files[name] = (try Data(contentsOf: URL(fileURLWithPath: file)), attributes[.modificationDate] as? Date)
        }
        return files
    }

    @Test("Reads never write: opening and reading every part of the format-6 file changes no byte (no upgrade, no re-MAC)")
    func readsNeverWrite() async throws {
        let committed = try Data(contentsOf: URL(fileURLWithPath: Self.resources + "/vault.sqlite"))
        // SQLite makes the -wal/-shm companions at the first open, even to read.
        _ = try await Vault.summary(at: path)
        let before = try snapshot()
        let vault = try await open()
        _ = try await Vault.open(at: path, unlock: .recovery(try recoveryKey()), authenticators: machine.authenticators)
        _ = try await vault.items.list()
        for item in GoldenVault.items where !item.accessControl.userFactors.contains(.applicationPassword) {
            // Checking an application password is counted: a write, left out here.
            if item.service == GoldenVault.service {
                _ = try await GoldenVault.read(vault, item.account, accessControl: item.accessControl, on: machine)
            } else {
                _ = try await vault.items.read(service: item.service, account: item.account, operationPrompt: "Golden")
            }
        }
        _ = try await vault.settings.value(named: GoldenVault.settingName)
        _ = try await vault.keys.list()
        _ = try? await vault.keys.key(service: GoldenVault6.keyService, name: "p256-lifetime")
        _ = try await vault.keys.sign(Self.message, withKey: "ed25519", service: GoldenVault6.keyService, operationPrompt: "Golden")
        _ = try await VaultSlots.passcodeAttempts(at: path, clock: machine.clock)
        let after = try snapshot()
        #expect(Set(after.keys) == Set(before.keys))
        for (name, (bytes, modified)) in before {
            #expect(after[name]?.0 == bytes, "\(name) changed")
            #expect(after[name]?.1 == modified, "\(name) was touched")
        }
        #expect(after["vault.sqlite"]?.0 == committed, "the file is still the committed one")
        #expect(after["vault.sqlite-wal"]?.0.isEmpty ?? true, "nothing was logged to be written")
    }
}
