/// A CTAP 2.1 status code (§8.2, "Status codes"): the first byte of every
/// response. ``ok`` answers a request that succeeded; every other case is
/// thrown inside the command layer and becomes the whole response (SPEC P5:
/// malformed input gets a clear code, never a crash).
public enum CTAP2Status: UInt8, Error, Sendable, Hashable, CaseIterable {
    /// `CTAP2_OK`.
    case ok = 0x00
    /// `CTAP1_ERR_INVALID_COMMAND`: a command byte this authenticator does not know.
    case invalidCommand = 0x01
    /// `CTAP1_ERR_INVALID_PARAMETER`: a parameter's value is invalid.
    case invalidParameter = 0x02
    /// `CTAP1_ERR_INVALID_LENGTH`: a length is invalid.
    case invalidLength = 0x03
    /// `CTAP2_ERR_CBOR_UNEXPECTED_TYPE`: a parameter has the wrong CBOR type.
    case cborUnexpectedType = 0x11
    /// `CTAP2_ERR_INVALID_CBOR`: the parameters are not CBOR this decoder accepts.
    case invalidCBOR = 0x12
    /// `CTAP2_ERR_MISSING_PARAMETER`: a required parameter is absent.
    case missingParameter = 0x14
    /// `CTAP2_ERR_LIMIT_EXCEEDED`: a list is longer than getInfo said.
    case limitExceeded = 0x15
    /// `CTAP2_ERR_CREDENTIAL_EXCLUDED`: a credential of the excludeList exists.
    case credentialExcluded = 0x19
    /// `CTAP2_ERR_PROCESSING`.
    case processing = 0x21
    /// `CTAP2_ERR_INVALID_CREDENTIAL`: the credential is not valid here.
    case invalidCredential = 0x22
    /// `CTAP2_ERR_UNSUPPORTED_ALGORITHM`: none of the offered algorithms is supported.
    case unsupportedAlgorithm = 0x26
    /// `CTAP2_ERR_OPERATION_DENIED`: the owner did not allow it.
    case operationDenied = 0x27
    /// `CTAP2_ERR_KEY_STORE_FULL`.
    case keyStoreFull = 0x28
    /// `CTAP2_ERR_UNSUPPORTED_OPTION`: an option this authenticator does not have.
    case unsupportedOption = 0x2B
    /// `CTAP2_ERR_INVALID_OPTION`: an option's value is not allowed for the command.
    case invalidOption = 0x2C
    /// `CTAP2_ERR_KEEPALIVE_CANCEL`: the client cancelled (CTAPHID_CANCEL).
    case keepaliveCancel = 0x2D
    /// `CTAP2_ERR_NO_CREDENTIALS`.
    case noCredentials = 0x2E
    /// `CTAP2_ERR_USER_ACTION_TIMEOUT`.
    case userActionTimeout = 0x2F
    /// `CTAP2_ERR_NOT_ALLOWED`: not allowed now, or never by a client.
    case notAllowed = 0x30
    /// `CTAP2_ERR_PIN_INVALID`.
    case pinInvalid = 0x31
    /// `CTAP2_ERR_PIN_BLOCKED`.
    case pinBlocked = 0x32
    /// `CTAP2_ERR_PIN_AUTH_INVALID`: a pinUvAuthParam does not verify.
    case pinAuthInvalid = 0x33
    /// `CTAP2_ERR_PIN_AUTH_BLOCKED`.
    case pinAuthBlocked = 0x34
    /// `CTAP2_ERR_PIN_NOT_SET`: this authenticator has no PIN of its own.
    case pinNotSet = 0x35
    /// `CTAP2_ERR_PUAT_REQUIRED`: the command needs a pinUvAuthToken.
    case puatRequired = 0x36
    /// `CTAP2_ERR_PIN_POLICY_VIOLATION`.
    case pinPolicyViolation = 0x37
    /// `CTAP2_ERR_REQUEST_TOO_LARGE`.
    case requestTooLarge = 0x39
    /// `CTAP2_ERR_UP_REQUIRED`.
    case upRequired = 0x3B
    /// `CTAP2_ERR_UV_BLOCKED`: user verification is locked out.
    case uvBlocked = 0x3C
    /// `CTAP2_ERR_INVALID_SUBCOMMAND`.
    case invalidSubcommand = 0x3E
    /// `CTAP2_ERR_UV_INVALID`: user verification failed.
    case uvInvalid = 0x3F
    /// `CTAP2_ERR_UNAUTHORIZED_PERMISSION`: a permission the token does not carry.
    case unauthorizedPermission = 0x40
    /// `CTAP1_ERR_OTHER`.
    case other = 0x7F
}
