import Sesame

/// A `DeviceKeyStore` holding a random key in memory only.
public final class InMemoryDeviceKeyStore: DeviceKeyStore {
    private let key: SecretBytes

    /// Creates a store with a fresh random key.
    public init() {
        var generator = SystemRandomNumberGenerator()
        key = SecretBytes((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    public func deviceKey() async throws -> SecretBytes { key }

    public func existingDeviceKey() async throws -> SecretBytes? { key }
}
