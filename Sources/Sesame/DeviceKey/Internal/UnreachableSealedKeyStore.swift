/// The store of a sealed device key in a process that has no
/// ``DeviceKeySealer``: it fails closed with `locked`, so the vault's other
/// slots still open it, and never falls back to a file key that would not be
/// the vault's.
struct UnreachableSealedKeyStore: DeviceKeyStore {
    struct Unreachable: DeviceKeyStoreError, CustomStringConvertible {
        let path: String
        var description: String {
            "the device key \(path) is sealed to hardware (a TPM) that this process was not given; "
                + "set Authenticators.deviceKeySealer (on Linux, LinuxMachine does), or unlock the vault with its passcode or recovery key"
        }
        var failure: DeviceKeyFailure { .unreachable }
    }

    let path: String

    func deviceKey() async throws -> SecretBytes { throw Unreachable(path: path) }
    func existingDeviceKey() async throws -> SecretBytes? { throw Unreachable(path: path) }
}
