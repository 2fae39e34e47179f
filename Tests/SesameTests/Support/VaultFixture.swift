import Foundation
import GRDB
@testable import Sesame
import SesameTesting

/// A test machine (``Fixture``) plus a fresh vault in a private directory.
struct VaultFixture {
    let machine: Fixture
    let directory: TemporaryDirectory
    let vault: Vault

    var path: String { vault.path }
    var sensor: SimulatedSensor { machine.sensor }
    var presenter: RecordingPresenter { machine.presenter }

    /// A vault with a device slot; application passwords use the low test cost.
    init(machine: Fixture = Fixture(), slots: [KeySlot] = [.device()]) async throws {
        self.machine = machine
        directory = try TemporaryDirectory()
        let created = try await Vault.create(at: directory.path + "/data/vault.sqlite", slots: slots, authenticators: machine.authenticators)
        vault = created.vault
        vault.applicationPasswordCost = .testing
    }

    func context() -> AuthenticationContext { machine.context() }

    /// The status a failing operation threw, or nil on success.
    func status(_ body: () async throws -> Void) async -> VaultError.Status? {
        do {
            try await body()
            return nil
        } catch let error as VaultError {
            return error.status
        } catch {
            return nil
        }
    }

    func read(_ account: String, service: String = "svc", context: AuthenticationContext? = nil) async throws -> String {
        let value = try await vault.read(service: service, account: account, operationPrompt: "Read \(account)", context: context)
        return value.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    func add(_ account: String, _ value: String = "secret", service: String = "svc", accessControl: AccessControl = Vault.noAccessControl,
             accessibility: ItemAccessibility = .whenUnlocked, context: AuthenticationContext? = nil) async throws {
        try await vault.add(SecretBytes(utf8: value), service: service, account: account, accessibility: accessibility,
                            accessControl: accessControl, context: context)
    }

    /// Opens the vault file directly, as an attacker with file access would.
    func rawDatabase() throws -> DatabaseQueue {
        try DatabaseQueue(path: path)
    }
}
