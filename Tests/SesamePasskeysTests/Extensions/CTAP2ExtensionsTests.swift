import Foundation
import Sesame
@testable import SesamePasskeys
import Testing

/// The extension registry: getInfo lists it and nothing else; requests'
/// extension maps reach only the extensions in it; each extension's input is
/// hostile input with its CTAP error, answered before anyone is asked.
@Suite("CTAP2 extensions: the registry, unknown extensions, hostile inputs")
struct CTAP2ExtensionsTests {
    private static func getAssertion(allowList: [[UInt8]], extensions: [CBORValue: CBORValue]) -> [CBORValue: CBORValue] {
        [1: "example.com", 2: .bytes(CTAP2Harness.clientDataHash), 3: CTAP2Harness.descriptors(allowList), 4: .map(extensions)]
    }

    /// The extensions' outputs in `authData` (after its 37 bytes, or after
    /// attested credential data), `nil` when the ED flag is not set.
    private static func outputs(_ authData: [UInt8], attested id: [UInt8]? = nil) throws -> CBORValue? {
        guard authData[32] & 0x80 != 0 else { return nil }
        guard let id else { return try CBORValue(decoding: authData[37...]) }
        let (_, length) = try CBORValue.decodePrefix(authData[(55 + id.count)...])
        return try CBORValue(decoding: authData[(55 + id.count + length)...])
    }

    @Test("P5: getInfo's extensions are exactly the registry's, once each, in its order")
    func infoListsTheRegistry() async throws {
        let harness = CTAP2Harness()
        let (status, info) = try await harness.send(0x04)
        #expect(status == 0)
        #expect(info?[2] == .array(CTAP2Extensions.identifiers.map(CBORValue.text)))
        #expect(CTAP2Extensions.identifiers == [CredProtectExtension.identifier, HMACSecretExtension.identifier])
        #expect(Set(CTAP2Extensions.identifiers).count == CTAP2Extensions.all.count)
    }

    @Test("P5: an extension not in the registry is ignored (CTAP 2.1 §12): the credential is made and signs, with no output for it")
    func unknownExtensionsIgnored() async throws {
        let harness = CTAP2Harness()
        let unknown: [CBORValue: CBORValue] = [
            "txAuthSimple": "Pay 100", "largeBlobKey": .map([1: .bytes([0xFF])]), "credBlob": .array([1, "x"]), 7: .bytes([1, 2]),
        ]
        let (id, authData) = try await harness.makeCredential(CTAP2Harness.makeCredential(extensions: unknown))
        #expect(try Self.outputs(authData, attested: id) == nil)
        #expect(try #require(await harness.store.all.first).creation.extensions.isEmpty)
        let (status, assertion) = try await harness.send(0x02, Self.getAssertion(allowList: [id], extensions: unknown))
        #expect(status == 0)
        #expect(try Self.outputs(try #require(assertion?[2]?.bytesValue)) == nil)
        // Known and unknown together: the known one answers alone.
        let (both, bothData) = try await harness.makeCredential(
            CTAP2Harness.makeCredential(user: [9], extensions: unknown.merging(["credProtect": 2]) { $1 }))
        #expect(try Self.outputs(bothData, attested: both) == .map(["credProtect": 2]))
    }

    @Test("P5: credProtect's makeCredential input: not an integer is CBOR_UNEXPECTED_TYPE, no level 1 to 3 INVALID_PARAMETER, before any prompt",
          arguments: [
              (CBORValue.text("3"), UInt8(0x11)), (.bool(true), 0x11), (.bytes([3]), 0x11), (.unsigned(UInt64.max), 0x11),
              (0, 0x02), (4, 0x02), (-1, 0x02), (.negative(UInt64.max), 0x11),
          ])
    func credProtectHostile(_ input: CBORValue, _ expected: UInt8) async throws {
        let harness = CTAP2Harness()
        #expect(try await harness.send(0x01, CTAP2Harness.makeCredential(extensions: ["credProtect": input])).status == expected)
        #expect(await harness.store.prompts.isEmpty)
        #expect(await harness.store.all.isEmpty)
    }

    @Test("P1: credProtect has no getAssertion input: whatever comes under its name is ignored")
    func credProtectAssertionInputIgnored() async throws {
        let harness = CTAP2Harness()
        let (id, _) = try await harness.makeCredential()
        #expect(try await harness.send(0x02, Self.getAssertion(allowList: [id], extensions: ["credProtect": "anything"])).status == 0)
    }

    @Test("P1: a credProtect state this Sesame cannot read reads as the strictest level, never the loosest", arguments: [[], [0], [4], [1, 1], [0xFF]] as [[UInt8]])
    func credProtectUnreadableState(_ state: [UInt8]) throws {
        let creation = PasskeyCreation(relyingPartyID: "example.com", userHandle: [1], isDiscoverable: true,
                                       extensions: [CredProtectExtension.identifier: state])
        #expect(CredProtectExtension.protection(of: creation) == .userVerificationRequired)
        let publicKey = try PublicKey(algorithm: .ed25519, rawRepresentation: [UInt8](repeating: 1, count: 32))
        let credential = PasskeyCredential(id: [1], creation: creation, publicKey: publicKey, created: Date(), signatureCount: 0)
        #expect(!CTAP2Extensions.permit(credential, userVerificationAsked: false, credentialNamed: true))
        #expect(CTAP2Extensions.permit(credential, userVerificationAsked: true, credentialNamed: false))
    }

    @Test("P5: hmac-secret's makeCredential input: not a boolean is CBOR_UNEXPECTED_TYPE before any prompt; false enables nothing",
          arguments: [CBORValue.int(1), .text("true"), .map([:]), .bytes([])])
    func hmacSecretMakeCredentialHostile(_ input: CBORValue) async throws {
        let harness = CTAP2Harness()
        #expect(try await harness.send(0x01, CTAP2Harness.makeCredential(extensions: ["hmac-secret": input])).status == 0x11)
        #expect(await harness.store.prompts.isEmpty)
        let (id, authData) = try await harness.makeCredential(CTAP2Harness.makeCredential(extensions: ["hmac-secret": false]))
        #expect(try Self.outputs(authData, attested: id) == nil)
        #expect(!HMACSecretExtension.isEnabled(for: try #require(await harness.store.all.first).creation))
    }

    @Test("P5: hmac-secret's getAssertion input: each malformed part has its CTAP error, before any prompt")
    func hmacSecretGetAssertionHostile() async throws {
        let harness = CTAP2Harness()
        let (id, _) = try await harness.makeCredential(CTAP2Harness.makeCredential(extensions: ["hmac-secret": true]))
        let platform = try await PlatformPinUvAuth(number: 2, harness: harness)
        let saltEnc = try platform.encrypt([UInt8](repeating: 1, count: 32))
        let saltAuth = platform.authenticate(key: platform.sharedSecret, saltEnc)
        let shortSalt = try platform.encrypt([UInt8](repeating: 1, count: 16))
        let zero = CBORValue.bytes([UInt8](repeating: 0, count: 32))
        let offCurve: CBORValue = .map([1: 2, 3: -25, -1: 1, -2: zero, -3: zero])
        let cases: [(CBORValue, UInt8, String)] = [
            (true, 0x11, "not a map"),
            (.map([:]), 0x14, "no keyAgreement"),
            (.map([1: platform.coseKey, 3: .bytes(saltAuth), 4: 2]), 0x14, "no saltEnc"),
            (.map([1: platform.coseKey, 2: "salt", 3: .bytes(saltAuth), 4: 2]), 0x11, "saltEnc as text"),
            (.map([1: platform.coseKey, 2: .bytes(saltEnc), 3: .bytes(saltAuth), 4: 3]), 0x02, "an unknown PIN/UV auth protocol"),
            (.map([1: offCurve, 2: .bytes(saltEnc), 3: .bytes(saltAuth), 4: 2]), 0x02, "a key off the curve"),
            (.map([1: platform.coseKey, 2: .bytes(saltEnc), 3: .bytes([UInt8](repeating: 0, count: 32)), 4: 2]), 0x33, "a forged saltAuth"),
            (.map([1: platform.coseKey, 2: .bytes(shortSalt), 3: .bytes(platform.authenticate(key: platform.sharedSecret, shortSalt)), 4: 2]),
             0x03, "a 16-byte salt"),
        ]
        let prompts = await harness.store.prompts.count
        for (input, expected, why) in cases {
            #expect(try await harness.send(0x02, Self.getAssertion(allowList: [id], extensions: ["hmac-secret": input])).status == expected, "\(why)")
        }
        #expect(await harness.store.prompts.count == prompts)
    }
}
