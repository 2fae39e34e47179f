/// A TSS2_RC taken apart (TCG TPM 2.0 Part 2, 6.6; the TSS layer in bits 16–23).
struct TPMResponseCode {
    let raw: UInt32

    init(_ raw: UInt32) { self.raw = raw }

    /// From the TPM itself, directly or relayed by a resource manager (layer 11).
    var fromTPM: Bool { raw >> 16 == 0 || raw >> 16 == 11 }

    /// From the transport: the device or simulator went away.
    var fromTCTI: Bool { raw >> 16 == 10 }

    private var code: UInt32 { raw & 0xFFFF }

    /// A format-one code: about a parameter, handle or session.
    var isFormatOne: Bool { fromTPM && code & 0x80 != 0 }

    /// The code without the parameter, handle or session number it names.
    private var base: UInt32 { isFormatOne ? code & 0xBF : code }

    /// TPM_RC_LOCKOUT: dictionary-attack protection refuses authorizations.
    var isLockout: Bool { fromTPM && base == 0x921 }

    /// TPM_RC_AUTH_FAIL (counted) or TPM_RC_BAD_AUTH (a `noDA` object).
    var isAuthorizationFailure: Bool { fromTPM && (base == 0x08E || base == 0x0A2) }

    /// TPM_RC_INITIALIZE: TPM2_Startup was never sent.
    var isNotStarted: Bool { fromTPM && base == 0x100 }
}
