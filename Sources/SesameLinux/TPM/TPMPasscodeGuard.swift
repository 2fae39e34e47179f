#if os(Linux)
import Sesame

/// A `PasscodeGuard` in the TPM: each bound passcode slot has a secret
/// sealed in an object whose authValue is the passcode-derived value and
/// which counts wrong values in the TPM's dictionary-attack counter, kept as
/// `passcode-<slot salt>.tpm` in the device directory (0600, 0700).
///
/// A copied vault cannot be guessed offline (each guess needs this TPM), and
/// after the TPM's limit it refuses every value, right or wrong, until its
/// lockout interval passes — whatever Sesame's files say. The vault's own
/// schedule (SPEC E3) still counts first.
public final class TPMPasscodeGuard: PasscodeGuard {
    /// The directory holding the sealed secrets.
    public let directory: String
    /// The tpm2-tss TCTI the TPM is reached through.
    public let tcti: String
    /// Whether new slots are bound; when `false`, only existing bindings are checked.
    public let bindsNewSlots: Bool

    /// Creates a guard; nothing is read or sealed until asked.
    ///
    /// - Parameters:
    ///   - directory: The vault's device directory (beside `device.key`/`device.tpm`).
    ///   - tcti: A tpm2-tss TCTI string (``TPMDeviceKeyStore/tcti(environment:)``).
    ///   - bindsNewSlots: `false` to only check slots bound before (no TPM is needed then for unbound ones).
    public init(directory: String, tcti: String, bindsNewSlots: Bool = true) {
        self.directory = directory
        self.tcti = tcti
        self.bindsNewSlots = bindsNewSlots
    }

    public func bind(slot: [UInt8], value: SecretBytes) async throws -> SecretBytes? {
        guard bindsNewSlots else { return nil }
        let sealed = try await TPMPasscodeSeal(tcti: tcti).bind(value)
        guard try file(slot).create(public: sealed.public, private: sealed.private) else {
            throw TPMError.failed("\(file(slot).path) already exists; Sesame never replaces a sealed secret")
        }
        return sealed.secret
    }

    public func secret(slot: [UInt8], value: SecretBytes) async throws -> PasscodeGuardAnswer {
        guard let blobs = try file(slot).read() else { return .notBound }
        do throws(TPMError) {
            return .released(try await TPMPasscodeSeal(tcti: tcti).secret(for: value, public: blobs.public, private: blobs.private))
        } catch .authorizationFailed {
            return .refused
        }
    }

    private func file(_ slot: [UInt8]) -> TPMSealedFile {
        TPMSealedFile(path: directory + "/passcode-" + slot.map { String($0, radix: 16).leftPadded(2) }.joined() + ".tpm")
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
#endif
