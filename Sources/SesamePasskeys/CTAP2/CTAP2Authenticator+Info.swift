extension CTAP2Authenticator {
    /// authenticatorGetInfo's response (CTAP 2.1 §6.4). No `clientPin`
    /// option: the authenticator has no PIN of its own; its user
    /// verification is built in (`uv`) and clients get tokens with it
    /// (`pinUvAuthToken`). `makeCredUvNotRqd` is false: every credential is
    /// made with the owner verified (SPEC P1).
    var info: CBORValue {
        .map([
            0x01: .array(["FIDO_2_0", "FIDO_2_1"]),
            0x02: .array(CTAP2Extensions.identifiers.map(CBORValue.text)),
            0x03: .bytes(aaguid),
            0x04: .map([
                "rk": true, "up": true, "uv": true, "plat": false, "credMgmt": true, "pinUvAuthToken": true,
                "makeCredUvNotRqd": false,
            ]),
            0x05: .int(Self.maximumMessageSize),
            0x06: .array([2, 1]),
            0x07: .int(Self.maximumCredentialCountInList),
            0x08: .int(Self.maximumCredentialIDLength),
            0x09: .array(["usb"]),
            0x0A: .array(PasskeyAlgorithm.allCases.map { .map(["alg": .int($0.coseIdentifier), "type": "public-key"]) }),
        ])
    }
}
