import Sesame
#if os(Linux)
import SesameLinux
#endif

extension StatusReport {
    /// The TPM: whether one answers and its dictionary-attack state.
    struct TPMSection: Encodable {
        /// The tpm2-tss TCTI (`SESAME_TPM_TCTI`).
        var tcti: String
        var available: Bool
        /// Why none can be used.
        var reason: String?
        /// Wrong authorizations counted now, and the most before lockout.
        var lockoutCounter: UInt32?
        var maxTries: UInt32?
        /// Seconds after which the TPM forgives one failure.
        var lockoutInterval: UInt32?
        var lockedOut: Bool?
    }

    static func tpmSection(_ machine: Machine) async -> TPMSection {
        var section = TPMSection(tcti: machine.tcti, available: false)
        #if os(Linux)
        // `sesame status` diagnoses the TPM: it asks it directly for its lockout state.
        do throws(TPMError) {
            let state = try await TPMDeviceKeyStore.checkAvailable(tcti: section.tcti)
            section.available = true
            (section.lockoutCounter, section.maxTries, section.lockoutInterval) = (state.counter, state.maximum, state.interval)
            section.lockedOut = state.isLockedOut
        } catch {
            section.reason = error.description
        }
        #else
        section.reason = "there is no TPM support on this platform"
        #endif
        return section
    }

    func tpmText(_ row: (String, String) -> Void) {
        guard tpm.available, let counter = tpm.lockoutCounter, let maximum = tpm.maxTries, let interval = tpm.lockoutInterval else {
            row("tpm", "not available: " + (tpm.reason ?? "unknown"))
            return
        }
        row("tpm", tpm.tcti)
        let state = tpm.lockedOut == true ? "LOCKED OUT, one try back within \(interval) s" : "not locked out"
        row("", "dictionary attack: \(counter) of \(maximum) failures counted, one forgiven every \(interval) s; \(state)")
    }
}
