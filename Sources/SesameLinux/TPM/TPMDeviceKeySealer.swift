#if os(Linux)
import Sesame

/// The TPM as a vault's `DeviceKeySealer`: a vault whose device key was
/// sealed (`device/device.tpm`) is opened through a ``TPMDeviceKeyStore`` at
/// ``tcti``. ``LinuxMachine`` sets it on its authenticators.
public struct TPMDeviceKeySealer: DeviceKeySealer {
    /// The tpm2-tss TCTI the TPM is reached through.
    public let tcti: String

    /// Creates the sealer; no TPM is asked until a store is used.
    ///
    /// - Parameter tcti: A tpm2-tss TCTI string (``TPMDeviceKeyStore/tcti(environment:)``).
    public init(tcti: String) {
        self.tcti = tcti
    }

    public func sealedStore(at path: String) -> any DeviceKeyStore {
        TPMDeviceKeyStore(path: path, tcti: tcti)
    }
}
#endif
