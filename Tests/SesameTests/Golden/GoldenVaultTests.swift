import Foundation
import GRDB
@testable import Sesame
import SesameTesting
import Testing

/// Today's code reads every part of the committed golden vault exactly (see
/// ``GoldenVault``): key slots, items under every access control and
/// accessibility, a setting, a feature record, an app passcode record, the
/// passcode's attempt record and an export file. A failure here means a
/// persisted format changed: add a migration, never regenerate the files.
@Suite("Golden vault: every persisted format reads back exactly")
struct GoldenVaultTests {
    let directory: TemporaryDirectory
    let machine = GoldenVault.machine()
    var path: String { directory.path + "/golden/vault.sqlite" }

    static var resources: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources").path
    }

    /// A private copy (git keeps no modes; the committed files are never written).
    init() throws {
        directory = try TemporaryDirectory()
        let copy = directory.path + "/golden"
        try FileManager.default.copyItem(atPath: Self.resources, toPath: copy)
        for (file, mode) in [(copy, 0o700), (copy + "/device", 0o700), (copy + "/vault.sqlite", 0o600),
                             (copy + "/device/device.key", 0o600), (copy + "/export.sesame", 0o600), (copy + "/recovery.txt", 0o600)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        }
    }

    private func recoveryKey() throws -> RecoveryKey {
        let printed = try String(contentsOfFile: directory.path + "/golden/recovery.txt", encoding: .utf8)
        return try #require(RecoveryKey(printed.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    private func expectedItems() -> [VaultItem] { GoldenVault.items }

    /// Reads `account` with whatever its access control asks for.
    private func read(_ vault: Vault, _ account: String, accessControl: AccessControl) async throws -> String {
        try await GoldenVault.read(vault, account, accessControl: accessControl, on: machine)
    }

    @Test("SPEC D9, E5: The raw file: format 2, the three slot kinds, the passcode's attempt record with its one wrong passcode")
    func rawFile() throws {
        #expect(try FileManager.default.contentsOfDirectory(atPath: Self.resources).sorted() == [".gitattributes", "device", "export.sesame", "recovery.txt", "vault.sqlite"],
                "nothing writes beside the committed files")
        // The private copy: SQLite makes -wal/-shm companions even to read.
        let database = try DatabaseQueue(path: path)
        let (format, slots, failures, settings) = try database.read { db throws in
            (try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'format'"),
             try String.fetchAll(db, sql: "SELECT kind FROM slot ORDER BY kind"),
             try Int.fetchOne(db, sql: "SELECT failures FROM attempt WHERE subject = 'passcode'"),
             try String.fetchAll(db, sql: "SELECT name FROM setting ORDER BY name"))
        }
        #expect(format == Data("2".utf8))
        #expect(slots == ["device", "passcode", "recovery"])
        #expect(failures == 1)
        #expect(settings == ["app-passcode/golden", "feature-protection/golden", GoldenVault.settingName])
    }

    @Test("SPEC E5: Every slot opens it: device key, passcode, recovery key; the attempt record reads as stored")
    func slots() async throws {
        #expect(try await Vault.summary(at: path) == VaultSummary(format: 2, slots: ["device", "passcode", "recovery"], itemCount: 15))
        #expect(try await VaultSlots.passcodeAttempts(at: path, clock: machine.clock) == PasscodeAttempts(consecutiveFailures: 1, delayedUntil: nil))
        let byDevice = try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
        #expect(try await byDevice.slots.kinds() == [.device, .passcode, .recovery])
        _ = try await Vault.open(at: path, unlock: .recovery(try recoveryKey()), authenticators: machine.authenticators)
        _ = try await Vault.open(at: path, unlock: .passcode(SecretBytes(utf8: GoldenVault.passcode)), authenticators: machine.authenticators)
        #expect(try await VaultSlots.passcodeAttempts(at: path, clock: machine.clock)?.consecutiveFailures == 0)
    }

    @Test("SPEC D2: Every item: attributes and value, under every access control and accessibility")
    func items() async throws {
        let vault = try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
        #expect(try await vault.items.list() == expectedItems())
        for item in try await vault.items.list() where item.service == GoldenVault.service {
            #expect(try await read(vault, item.account, accessControl: item.accessControl) == GoldenVault.value(of: item.account), "\(item.account)")
        }
        let labelled = try await vault.items.read(service: "other service", account: GoldenVault.labelled.account, operationPrompt: "Golden")
        #expect(labelled.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } == GoldenVault.value(of: GoldenVault.labelled.account))
    }

    @Test("SPEC D9: the first write seals the golden vault (format 2 to the current one); every item then reads back exactly, and no name is left in its files")
    func upgradedBySealing() async throws {
        let vault = try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
        try await vault.items.add(SecretBytes(utf8: "after"), service: "upgrade", account: "written")
        #expect(try await Vault.summary(at: path).format == Schema.format)
        let reopened = try await Vault.open(at: path, unlock: .recovery(try recoveryKey()), authenticators: machine.authenticators)
        #expect(try await reopened.items.list().filter { $0.service != "upgrade" } == expectedItems())
        for item in expectedItems() where item.service == GoldenVault.service {
            #expect(try await read(reopened, item.account, accessControl: item.accessControl) == GoldenVault.value(of: item.account), "\(item.account)")
        }
        #expect(try await records(reopened))
        for file in [path, path + "-wal"] {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
            for name in ["other service", GoldenVault.labelled.account, GoldenVault.labelled.label, "biometryCurrentSet"] {
                let needle = Array(name.utf8)
                #expect(!(0...max(0, bytes.count - needle.count)).contains { bytes[$0..<min(bytes.count, $0 + needle.count)].elementsEqual(needle) },
                        "\(file) still shows \(name)")
            }
        }
    }

    /// The setting survives the upgrade (it was never a row of the item table).
    private func records(_ vault: Vault) async throws -> Bool {
        try await vault.settings.value(named: GoldenVault.settingName) == GoldenVault.settingValue
    }

    @Test("SPEC D5: the biometryCurrentSet items are bound to the golden enrolment")
    func enrolmentBinding() async throws {
        machine.sensor.enrol("left-thumb")
        let vault = try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
        await #expect(throws: VaultError.itemInvalidated) {
            _ = try await read(vault, "biometryCurrentSet", accessControl: .biometryCurrentSet)
        }
        #expect(try await read(vault, "biometryAny", accessControl: .biometryAny) == GoldenVault.value(of: "biometryAny"))
    }

    @Test("SPEC B6, E3, G: The setting, the feature record (sealed under the device key) and the app passcode record")
    func records() async throws {
        let vault = try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
        #expect(try await vault.settings.value(named: GoldenVault.settingName) == GoldenVault.settingValue)
        let protection = FeatureProtection(
            appIdentifier: GoldenVault.appIdentifier, authenticators: machine.authenticators, store: VaultAppRecordStore(vault, kind: .featureProtection),
            deviceKeys: Vault.defaultDeviceKeyStore(forVaultAt: path))
        #expect(try await protection.protectedFeatures() == ["transfer": .biometricsOrDevicePasscode])

        let lock = AppPasscode(appIdentifier: GoldenVault.appIdentifier, store: VaultAppRecordStore(vault, kind: .appPasscode),
                               cost: AppPasscodeCost(n: 1 << 10, r: 8, p: 1), clock: machine.clock)
        let status = try #require(try await lock.status())
        #expect(status.consecutiveFailures == 1)
        #expect(status.cost == AppPasscodeCost(n: 1 << 10, r: 8, p: 1))
        #expect(await lock.verify(SecretBytes(utf8: "000000")) == .rejected)
        #expect(try await lock.status()?.consecutiveFailures == 1, "the same wrong entry as the stored one counts once")
        #expect(await lock.verify(SecretBytes(utf8: GoldenVault.appPasscode)) == .accepted)
    }

    @Test("SPEC D2: The export file imports every exportable item exactly")
    func exportFile() async throws {
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: directory.path + "/golden/export.sesame")))
        let target = try await Vault.create(at: directory.path + "/imported/vault.sqlite", slots: [.device()],
                                            authenticators: machine.authenticators).vault
        target.applicationPasswordCost = .testing
        let context = machine.context()
        _ = context.setCredential(SecretBytes(utf8: GoldenVault.applicationPassword), type: .applicationPassword)
        let report = try await target.importItems(from: file, passphrase: SecretBytes(utf8: GoldenVault.exportPassphrase), context: context)
        #expect(report.skipped.isEmpty, "\(report.skipped)")
        let exportable = expectedItems().filter { !$0.accessibility.isThisDeviceOnly }
        #expect(report.transferred == exportable.count)
        #expect(try await target.items.list() == exportable)
        for item in exportable where item.service == GoldenVault.service {
            #expect(try await read(target, item.account, accessControl: item.accessControl) == GoldenVault.value(of: item.account))
        }
        await #expect(throws: VaultError.authFailed) {
            _ = try await target.importItems(from: file, passphrase: SecretBytes(utf8: "not it"))
        }
    }
}
