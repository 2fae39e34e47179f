#if os(Linux)
import CSesameLinux
import Sesame

/// One ESAPI context on one TCTI, used by one thread (`TPMThread`) and
/// closed when released. Every call blocks.
final class TPMConnection {
    private let handle: OpaquePointer

    /// Connects to the TPM behind `tcti`.
    ///
    /// - Throws: ``TPMError/unavailable(_:)`` when tpm2-tss is missing or
    ///   nothing answers there.
    init(tcti: String) throws(TPMError) {
        var reason: Int32 = 0
        var error = [CChar](repeating: 0, count: 512)
        guard let handle = sesame_tpm_open(tcti, &reason, &error, error.count) else {
            let text = error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            switch reason {
            case SESAME_TPM_OPEN_LIBRARY: throw .unavailable("tpm2-tss is not installed (\(text)); install libtss2-esys-3.0.2-0")
            case SESAME_TPM_OPEN_TCTI: throw .unavailable("nothing answers at \(tcti) (\(text)); set SESAME_TPM_TCTI to another TCTI")
            default: throw .unavailable("the TPM at \(tcti) cannot be used (\(text))")
            }
        }
        self.handle = handle
    }

    deinit { sesame_tpm_close(handle) }

    /// Seals `data` under the primary, opened by `auth` from then on.
    ///
    /// - Returns: The sealed object's marshalled TPM2B_PUBLIC and TPM2B_PRIVATE.
    func seal(_ data: SecretBytes, auth: [UInt8], dictionaryAttackProtected: Bool) throws(TPMError) -> (public: [UInt8], private: [UInt8]) {
        var sensitive = data.withUnsafeBytes { TPMWire.sensitive(auth: auth, data: Array($0)) }
        defer { wipe(&sensitive) }
        let child = TPMWire.sealedDataTemplate(dictionaryAttackProtected: dictionaryAttackProtected)
        let primary = TPMWire.primaryTemplate
        var publicBlob = [UInt8](repeating: 0, count: 4096), privateBlob = [UInt8](repeating: 0, count: 4096)
        var publicSize = 0, privateSize = 0
        var step: Int32 = 0
        let rc = sesame_tpm_create(handle, primary, primary.count, sensitive, sensitive.count, child, child.count,
                                   &publicBlob, publicBlob.count, &publicSize, &privateBlob, privateBlob.count, &privateSize, &step)
        guard rc == 0 else { throw error(rc, step: step, doing: "seal a key") }
        return (Array(publicBlob[..<publicSize]), Array(privateBlob[..<privateSize]))
    }

    /// Unseals the object with `auth`.
    ///
    /// - Returns: The sealed bytes.
    func unseal(public publicBlob: [UInt8], private privateBlob: [UInt8], auth: [UInt8]) throws(TPMError) -> SecretBytes {
        let primary = TPMWire.primaryTemplate
        var out = [UInt8](repeating: 0, count: 256)
        defer { wipe(&out) }
        var size = 0
        var step: Int32 = 0
        let rc = sesame_tpm_unseal(handle, primary, primary.count, publicBlob, publicBlob.count, privateBlob, privateBlob.count,
                                   auth, auth.count, &out, out.count, &size, &step)
        guard rc == 0 else { throw error(rc, step: step, doing: "unseal the key") }
        // A TPM2B_SENSITIVE_DATA: its size, then the bytes.
        guard size >= 2, Int(out[0]) << 8 | Int(out[1]) == size - 2 else { throw .failed("The TPM returned malformed sealed data") }
        return SecretBytes(out[2..<size])
    }

    /// The dictionary-attack properties (TPM_PT_LOCKOUT_COUNTER … TPM_PT_LOCKOUT_RECOVERY).
    func lockoutState() throws(TPMError) -> TPMLockoutState {
        var out = [UInt8](repeating: 0, count: 1024)
        var size = 0
        let rc = sesame_tpm_properties(handle, TPMLockoutState.counterProperty, 4, &out, out.count, &size)
        guard rc == 0 else { throw error(rc, step: 0, doing: "read its lockout state") }
        guard let properties = TPMWire.properties(Array(out[..<size])), let state = TPMLockoutState(properties) else {
            throw .failed("The TPM returned malformed properties")
        }
        return state
    }

    /// The error for a failed TSS call, in the owner's terms.
    private func error(_ rc: UInt32, step: Int32, doing what: String) -> TPMError {
        let code = TPMResponseCode(rc)
        let text = sesame_tpm_describe(rc).map { String(cString: $0) } ?? "TSS2_RC 0x\(String(rc, radix: 16))"
        if code.isLockout {
            let interval = (try? lockoutState())?.interval ?? 0
            return .lockout(retryAfterSeconds: interval)
        }
        if code.isAuthorizationFailure && step == SESAME_TPM_STEP_UNSEAL { return .authorizationFailed }
        if code.fromTPM && step == SESAME_TPM_STEP_LOAD && code.isFormatOne { return .wrongTPM(text) }
        if code.isNotStarted { return .unavailable("the TPM was not started (TPM2_Startup); \(text)") }
        if code.fromTCTI { return .unavailable("the TPM stopped answering: \(text)") }
        return .failed("The TPM could not \(what): \(text) (TSS2_RC 0x\(String(rc, radix: 16)), step \(step))")
    }
}
#endif
