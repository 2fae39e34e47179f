import Foundation
@testable import Sesame
import SesameTesting

/// The second golden vault, under `Resources6/`: made once by ``write(to:)``
/// with vault format 6 (sealed attributes, SPEC D9), committed, and read back
/// byte for byte by every build (GoldenVault6Tests). Like ``GoldenVault``
/// (format 2, read through its upgrade) it is never regenerated.
///
/// It holds what formats 3 to 6 added: protected keys with their
/// constraints (SPEC D7, D8), attempt records with boot-clock columns and
/// an item's own application-password record (SPEC E3, E5), sealed
/// attributes found by keyed hash and the MACed format record (SPEC D9).
/// Its items, label, dates and setting are the first golden vault's.
enum GoldenVault6 {
    /// Where the protected keys live.
    static let keyService = "golden keys"

    /// A protected key as imported, from a fixed private key (the 32-byte
    /// Ed25519 seed or P-256 scalar), as `ssh-add` hands one over.
    struct Key: Sendable {
        let name: String
        let algorithm: KeyAlgorithm
        let privateKey: [UInt8]
        let label: String?
        let constraints: KeyConstraints
    }

    /// The lifetime of ``keys``' constrained key: a century after ``GoldenVault/madeAt``.
    static let farFuture = GoldenVault.madeAt.addingTimeInterval(100 * 365 * 86_400)

    static let keys: [Key] = [
        Key(name: "ed25519", algorithm: .ed25519, privateKey: Array(1...32), label: "golden ed25519 key", constraints: .none),
        Key(name: "p256-confirm", algorithm: .p256, privateKey: Array(33...64), label: nil,
            constraints: KeyConstraints(confirmEachUse: true)),
        Key(name: "p256-lifetime", algorithm: .p256, privateKey: Array(65...96), label: "golden lifetime key",
            constraints: KeyConstraints(expires: farFuture, confirmEachUse: true)),
    ]

    /// Wrong vault passcodes entered at ``GoldenVault/madeAt``: the fifth
    /// starts a delay (``Vault/passcodeBackoff``), so the passcode's attempt
    /// record holds a delay with its boot-clock start.
    static let wrongPasscodes = 5
    static let passcodeDelay: TimeInterval = 60

    /// The boot the files were made in (the generating ManualClock's, read
    /// from the files after ``write(to:)``): stored with the passcode's delay
    /// and with the lifetime key's constraints. No test clock is in this boot.
    static let madeInBoot = BootInstant(bootID: "d12a2bd0-a88f-4a82-83e1-11340e23dcaa", uptime: 1000)

    /// Writes the golden files into `directory` (`vault.sqlite`,
    /// `device/device.key`, `recovery.txt`) on ``GoldenVault/machine()``,
    /// whose ManualClock stands at ``GoldenVault/madeAt`` throughout. Run
    /// once; kept as the record of how the files were made.
    static func write(to directory: String) async throws {
        let machine = GoldenVault.machine()
        let path = directory + "/vault.sqlite"
        let created = try await Vault.create(
            at: path, slots: [.device(), .passcode(SecretBytes(utf8: GoldenVault.passcode), cost: .testing), .recovery],
            authenticators: machine.authenticators)
        let vault = created.vault
        vault.applicationPasswordCost = .testing
        try created.recoveryKey!.printable.write(toFile: directory + "/recovery.txt", atomically: true, encoding: .utf8)

        let context = machine.context()
        _ = context.setCredential(SecretBytes(utf8: GoldenVault.applicationPassword), type: .applicationPassword)
        for (account, accessControl) in GoldenVault.accessControls {
            try await vault.items.add(SecretBytes(utf8: GoldenVault.value(of: account)), service: GoldenVault.service, account: account,
                                accessControl: accessControl, context: context)
        }
        for (account, accessibility) in GoldenVault.accessibilities {
            try await vault.items.add(SecretBytes(utf8: GoldenVault.value(of: account)), service: GoldenVault.service, account: account,
                                accessibility: accessibility)
        }
        try await vault.items.add(SecretBytes(utf8: GoldenVault.value(of: GoldenVault.labelled.account)), service: "other service",
                            account: GoldenVault.labelled.account, label: GoldenVault.labelled.label)
        try await vault.settings.set(GoldenVault.settingValue, named: GoldenVault.settingName)

        for key in keys {
            _ = try await vault.keys.importRaw(SecretBytes(key.privateKey), algorithm: key.algorithm, service: keyService, name: key.name,
                                             label: key.label, accessControl: Vault.noAccessControl, constraints: key.constraints,
                                             context: nil)
        }

        // One wrong application password, counted in the item's own record.
        let wrong = machine.context()
        _ = wrong.setCredential(SecretBytes(utf8: "not the application password"), type: .applicationPassword)
        _ = try? await vault.items.read(service: GoldenVault.service, account: "applicationPassword", operationPrompt: "Golden", context: wrong)

        for attempt in 1...wrongPasscodes {
            _ = try? await Vault.open(at: path, unlock: .passcode(SecretBytes(utf8: "wrong \(attempt)")), authenticators: machine.authenticators)
        }
    }
}
