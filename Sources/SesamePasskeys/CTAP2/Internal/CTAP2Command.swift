/// The CTAP2 commands this authenticator answers (CTAP 2.1 §6): the first
/// byte of a CTAPHID_CBOR message. The values are CTAP's, so they are
/// frozen; a byte that is none of them is `CTAP1_ERR_INVALID_COMMAND`.
enum CTAP2Command: UInt8, Sendable, CaseIterable {
    /// authenticatorMakeCredential (§6.1).
    case makeCredential = 0x01
    /// authenticatorGetAssertion (§6.2).
    case getAssertion = 0x02
    /// authenticatorGetInfo (§6.4).
    case getInfo = 0x04
    /// authenticatorClientPIN (§6.5).
    case clientPIN = 0x06
    /// authenticatorReset (§6.6).
    case reset = 0x07
    /// authenticatorGetNextAssertion (§6.3).
    case getNextAssertion = 0x08
    /// authenticatorCredentialManagement (§6.8).
    case credentialManagement = 0x0A
    /// authenticatorSelection (§6.9).
    case selection = 0x0B
    /// authenticatorCredentialManagement's number in CTAP 2.1's preview
    /// (`FIDO_2_1_PRE`), which older clients still send; the same command.
    case credentialManagementPreview = 0x41

    /// Whether it continues a credential enumeration (both spellings of
    /// credentialManagement).
    var managesCredentials: Bool { self == .credentialManagement || self == .credentialManagementPreview }
}
