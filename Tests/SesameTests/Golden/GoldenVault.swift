import Foundation
@testable import Sesame
import SesameTesting

/// The golden vault under `Resources/`: made once by ``write(to:)`` with the
/// format of the day (vault format 2), committed, and read back byte for byte
/// by every build (GoldenVaultTests). A format change needs a migration that
/// keeps those tests passing; never regenerate the files to make them pass.
///
/// The golden vaults are never regenerated: not this one (format 2, read
/// and then sealed by its upgrade), nor ``GoldenVault6``'s under
/// `Resources6/` (format 6, read as it is). Each was made once, by its
/// `write(to:)` called from a test that was not committed, and committed as
/// made; the generators stay as the record of how. A new format gets a new
/// golden vault of its own beside these; the old ones keep testing the
/// migrations and the encodings they froze.
///
/// The secrets here are test secrets; they protect nothing but this fixture.
enum GoldenVault {
    static let passcode = "golden passcode 2026"
    static let applicationPassword = "golden application password"
    static let exportPassphrase = "golden export passphrase"
    static let appPasscode = "135790"
    static let appIdentifier = "golden"
    static let settingName = "golden.setting"
    static let settingValue = Array("a setting's bytes \u{0}\u{ff}".utf8)
    static let service = "golden"
    /// The clock the vault was made at; every item's created/modified date.
    static let madeAt = Date(timeIntervalSince1970: 1_800_000_000)
    /// The simulated sensor's enrolment at creation: `biometryCurrentSet`
    /// items open only under it.
    static let enrolled: Set<String> = ["right-index-finger"]

    /// Every access control, by account name.
    static let accessControls: [(account: String, accessControl: AccessControl)] = [
        ("none", Vault.noAccessControl),
        ("userPresence", .userPresence),
        ("biometryAny", .biometryAny),
        ("biometryCurrentSet", .biometryCurrentSet),
        ("devicePasscode", .devicePasscode),
        ("applicationPassword", .applicationPassword),
        ("biometryAny-or-devicePasscode", try! AccessControl([.biometryAny, .devicePasscode], combination: .or)),
        ("biometryCurrentSet-and-applicationPassword", try! AccessControl([.biometryCurrentSet, .applicationPassword], combination: .and)),
        ("userPresence-privateKeyUsage", try! AccessControl([.userPresence, .privateKeyUsage], combination: .or)),
    ]

    /// One item per accessibility class, without access control.
    static var accessibilities: [(account: String, accessibility: ItemAccessibility)] {
        ItemAccessibility.allCases.map { ("accessibility-" + $0.rawValue, $0) }
    }

    static let labelled = (account: "labelled", label: "A label for people ✓")

    static func value(of account: String) -> String { "value of \(account) — ünïcode" }

    /// Every item's attributes as written, sorted as ``Vault/list(service:)`` sorts.
    static var items: [VaultItem] {
        var items: [VaultItem] = []
        for (account, accessControl) in accessControls {
            items.append(VaultItem(service: service, account: account, label: nil, accessibility: .whenUnlocked,
                                   accessControl: accessControl, created: madeAt, modified: madeAt))
        }
        for (account, accessibility) in accessibilities {
            items.append(VaultItem(service: service, account: account, label: nil, accessibility: accessibility,
                                   accessControl: Vault.noAccessControl, created: madeAt, modified: madeAt))
        }
        items.append(VaultItem(service: "other service", account: labelled.account, label: labelled.label,
                               accessibility: .whenUnlocked, accessControl: Vault.noAccessControl, created: madeAt, modified: madeAt))
        return items.sorted { ($0.service, $0.account) < ($1.service, $1.account) }
    }

    /// Reads `account` of ``service`` on `machine`, with whatever its access
    /// control asks for (the application password; a finger; the device passcode).
    static func read(_ vault: Vault, _ account: String, accessControl: AccessControl, on machine: TestMachine) async throws -> String {
        let context = machine.context()
        _ = context.setCredential(SecretBytes(utf8: applicationPassword), type: .applicationPassword)
        let factors = accessControl.userFactors
        if factors == [.devicePasscode] {
            machine.presenter.answerSecrets(.enter("device-1234"))
        } else if !factors.subtracting([.applicationPassword]).isEmpty {
            machine.sensor.present(.match)
        }
        let value = try await vault.items.read(service: service, account: account, operationPrompt: "Golden", context: context)
        return value.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The machine the vault was made and is read on.
    static func machine() -> TestMachine {
        let fixture = TestMachine(sensor: SimulatedSensor(enrolled: enrolled))
        precondition(fixture.clock.now() == madeAt)
        return fixture
    }

    /// Writes the golden files into `directory` (`vault.sqlite`, `device/device.key`,
    /// `export.sesame`, `recovery.txt`). Run once; kept as the record of how
    /// the files were made.
    static func write(to directory: String) async throws {
        let machine = machine()
        let path = directory + "/vault.sqlite"
        let created = try await Vault.create(
            at: path, slots: [.device(), .passcode(SecretBytes(utf8: passcode), cost: .testing), .recovery],
            authenticators: machine.authenticators)
        let vault = created.vault
        vault.applicationPasswordCost = .testing
        try created.recoveryKey!.printable.write(toFile: directory + "/recovery.txt", atomically: true, encoding: .utf8)

        let context = machine.context()
        _ = context.setCredential(SecretBytes(utf8: applicationPassword), type: .applicationPassword)
        for (account, accessControl) in accessControls {
            try await vault.items.add(SecretBytes(utf8: value(of: account)), service: service, account: account,
                                accessControl: accessControl, context: context)
        }
        for (account, accessibility) in accessibilities {
            try await vault.items.add(SecretBytes(utf8: value(of: account)), service: service, account: account, accessibility: accessibility)
        }
        try await vault.items.add(SecretBytes(utf8: value(of: labelled.account)), service: "other service", account: labelled.account,
                            label: labelled.label)
        try await vault.settings.set(settingValue, named: settingName)

        let protection = FeatureProtection(
            appIdentifier: appIdentifier, authenticators: machine.authenticators, store: VaultAppRecordStore(vault, kind: .featureProtection),
            deviceKeys: Vault.defaultDeviceKeyStore(forVaultAt: path))
        try await protection.enable("transfer", policy: .biometricsOrDevicePasscode)

        let lock = AppPasscode(appIdentifier: appIdentifier, store: VaultAppRecordStore(vault, kind: .appPasscode),
                               cost: AppPasscodeCost(n: 1 << 10, r: 8, p: 1), clock: machine.clock)
        try await lock.set(SecretBytes(utf8: appPasscode))
        _ = await lock.verify(SecretBytes(utf8: "000000"))

        // One wrong vault passcode, so the attempt record holds a count.
        _ = try? await Vault.open(at: path, unlock: .passcode(SecretBytes(utf8: "wrong")), authenticators: machine.authenticators)

        machine.sensor.present(.match)
        let report = try await vault.export(passphrase: SecretBytes(utf8: exportPassphrase), cost: .testing,
                                            operationPrompt: "Golden export", context: context)
        try Data(report.file).write(to: URL(fileURLWithPath: directory + "/export.sesame"))
    }
}
