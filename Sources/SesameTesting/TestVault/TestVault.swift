import Foundation
import Sesame

/// A test machine (``TestMachine``) plus a fresh vault in a private
/// directory, removed with it.
public struct TestVault: Sendable {
    /// The machine whose authenticators the vault uses.
    public let machine: TestMachine
    /// The directory holding the vault.
    public let directory: TemporaryDirectory
    /// The open vault.
    public let vault: Vault

    /// The vault file's path.
    public var path: String { vault.path }
    /// The machine's simulated sensor.
    public var sensor: SimulatedSensor { machine.sensor }
    /// The machine's recording presenter.
    public var presenter: RecordingPresenter { machine.presenter }

    /// A vault with a device slot (an in-memory device key); application
    /// passwords use the low test cost.
    ///
    /// - Parameters:
    ///   - machine: The machine; a new ``TestMachine`` by default.
    ///   - slots: The vault's key slots.
    /// - Throws: What `Vault.create(at:slots:authenticators:)` throws.
    public init(machine: TestMachine = TestMachine(), slots: [KeySlot] = [.device()]) async throws {
        self.machine = machine
        directory = try TemporaryDirectory()
        let created = try await Vault.create(at: directory.path + "/data/vault.sqlite", slots: slots, authenticators: machine.authenticators)
        vault = created.vault
        vault.applicationPasswordCost = .testing
    }

    /// A new context over the machine.
    public func context() -> AuthenticationContext { machine.context() }

    /// The status a failing operation threw, or nil on success.
    ///
    /// - Parameter body: The operation.
    /// - Returns: The `VaultError.Status` it failed with; `nil` when it succeeded or threw something else.
    public func status(_ body: () async throws -> Void) async -> VaultError.Status? {
        await Self.status(body)
    }

    /// The status a failing operation threw, or nil on success; for
    /// operations on a vault that is not a ``TestVault``.
    ///
    /// - Parameter body: The operation.
    /// - Returns: The `VaultError.Status` it failed with; `nil` when it succeeded or threw something else.
    public static func status(_ body: () async throws -> Void) async -> VaultError.Status? {
        do {
            try await body()
            return nil
        } catch let error as VaultError {
            return error.status
        } catch {
            return nil
        }
    }

    /// Reads an item as UTF-8 text.
    ///
    /// - Parameters:
    ///   - account: The item's name.
    ///   - service: Its service.
    ///   - context: A context authorised ahead of time, or `nil` to let the vault prompt.
    /// - Returns: The value.
    /// - Throws: `VaultError`.
    public func read(_ account: String, service: String = "svc", context: AuthenticationContext? = nil) async throws -> String {
        let value = try await vault.items.read(service: service, account: account, operationPrompt: "Read \(account)", context: context)
        return value.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Adds an item with a UTF-8 value.
    ///
    /// - Parameters:
    ///   - account: The item's name.
    ///   - value: Its value.
    ///   - service: Its service.
    ///   - accessControl: Its access control (none by default).
    ///   - accessibility: Its accessibility.
    ///   - context: A context authorised ahead of time, or `nil`.
    /// - Throws: `VaultError`.
    public func add(_ account: String, _ value: String = "secret", service: String = "svc", accessControl: AccessControl = Vault.noAccessControl,
             accessibility: ItemAccessibility = .whenUnlocked, context: AuthenticationContext? = nil) async throws {
        try await vault.items.add(SecretBytes(utf8: value), service: service, account: account, accessibility: accessibility,
                            accessControl: accessControl, context: context)
    }
}
