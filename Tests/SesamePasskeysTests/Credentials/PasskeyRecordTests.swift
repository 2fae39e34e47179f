import Crypto
import Foundation
import Sesame
@testable import SesamePasskeys
import SesameTesting
import Testing

/// Passkeys made before the extensions' state was one map: their records
/// kept credProtect's level and hmac-secret's flag at keys 9 and 10, and
/// hmac-secret's CredRandoms in `passkeys.hmac-secret`. They are written
/// here as that Sesame wrote them, by hand and not by the code under test,
/// and must read and answer as they did.
@Suite("SPEC P1, P4: passkeys from before the extensions map read and answer as they did")
struct PasskeyRecordTests {
    /// A record as the Sesame before the map wrote it (its id 16 × 0xAA,
    /// credProtect 3, hmac-secret, 41 signatures), CBOR made by another
    /// encoder (Python) from the map in ``legacyRecord(id:)``. Frozen.
    static let legacyGolden = hex(
        "ac0150aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa026b6578616d706c652e636f6d03674578616d706c65044401020304056f616461406578616d706c652e636f6d"
            + "0663416461072608f509030af50b1a6b49d2000c1829")

    /// That record's map, key by key.
    static func legacyRecord(id: [UInt8]) -> [UInt8] {
        CBORValue.map([
            1: .bytes(id), 2: "example.com", 3: "Example", 4: .bytes([1, 2, 3, 4]), 5: "ada@example.com", 6: "Ada", 7: -7, 8: true,
            9: 3, 10: true, 11: .unsigned(1_800_000_000), 12: 41,
        ]).encoded
    }

    /// hmac-secret's CredRandomWithUV ‖ CredRandomWithoutUV of the old passkey.
    static let credRandoms = [UInt8](repeating: 0x5A, count: 32) + [UInt8](repeating: 0xC3, count: 32)

    static let expectedCreation = PasskeyCreation(
        relyingPartyID: "example.com", relyingPartyName: "Example", userHandle: [1, 2, 3, 4], userName: "ada@example.com",
        userDisplayName: "Ada", algorithm: .es256, isDiscoverable: true,
        extensions: [CredProtectExtension.identifier: [3], HMACSecretExtension.identifier: []])

    private static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = [], digits = Array(text)
        while digits.count >= 2 {
            bytes.append(UInt8(String(digits[0..<2]), radix: 16)!)
            digits.removeFirst(2)
        }
        return bytes
    }

    @Test("SPEC P4: the old record's bytes are the golden ones, and read as credProtect 3 with hmac-secret, 41 signatures")
    func legacyBytes() throws {
        #expect(Self.legacyRecord(id: [UInt8](repeating: 0xAA, count: 16)) == Self.legacyGolden)
        let record = try #require(PasskeyRecord(decoding: Self.legacyGolden))
        #expect(record.creation == Self.expectedCreation)
        #expect(CredProtectExtension.protection(of: record.creation) == .userVerificationRequired)
        #expect(HMACSecretExtension.isEnabled(for: record.creation))
        #expect(record.signatureCount == 41 && record.created == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test("SPEC P4: an old record without hmac-secret or with level 1 reads so; one missing a legacy key, or a malformed map, is no record")
    func legacyVariants() throws {
        var map = try #require(try CBORValue(decoding: Self.legacyGolden).mapValue)
        map[9] = 1
        map[10] = false
        let plain = try #require(PasskeyRecord(decoding: CBORValue.map(map).encoded))
        #expect(plain.creation.extensions == [CredProtectExtension.identifier: [1]])
        #expect(CredProtectExtension.protection(of: plain.creation) == .userVerificationOptional)
        for broken: [CBORValue: CBORValue] in [
            map.filter { $0.key != 9 }, map.filter { $0.key != 10 }, map.merging([9: 4]) { $1 },
            map.merging([13: .array([])]) { $1 }, map.merging([13: .map(["credProtect": 3])]) { $1 },
            map.merging([13: .map([1: .bytes([])])]) { $1 },
        ] {
            #expect(PasskeyRecord(decoding: CBORValue.map(broken).encoded) == nil)
        }
    }

    @Test("SPEC P4: a new record keeps the map at 13 and still writes 9 and 10 for the Sesame before it; it reads back as written")
    func newRecord() throws {
        let record = PasskeyRecord(id: [7], creation: Self.expectedCreation, created: Date(timeIntervalSince1970: 1_800_000_000), signatureCount: 2)
        let value = try CBORValue(decoding: record.encoded)
        #expect(value[9] == 3 && value[10] == true)
        #expect(value[13] == .map(["credProtect": .bytes([3]), "hmac-secret": .bytes([])]))
        #expect(PasskeyRecord(decoding: record.encoded) == record)
        var none = Self.expectedCreation
        none.extensions = [:]
        let bare = try CBORValue(decoding: PasskeyRecord(id: [7], creation: none, created: Date(), signatureCount: 0).encoded)
        #expect(bare[9] == 1 && bare[10] == false && bare[13] == .map([:]))
    }

    @Test("SPEC P1, P4: an old passkey in a vault answers as before: credProtect 3 hides it without uv, hmac-secret gives HMAC-SHA-256 under CredRandomWithUV, the counter goes on",
          arguments: [1, 2])
    func legacyVaultPasskey(_ number: Int) async throws {
        let directory = try TemporaryDirectory()
        let machine = TestMachine()
        let vault = try await Vault.create(at: directory.path + "/vault.sqlite", slots: [.device()], authenticators: machine.authenticators).vault
        let store = VaultPasskeyStore(vault: vault)

        // The passkey, made as the Sesame before the map made it.
        let name = "00112233445566778899aabbccddeeff"
        let id = try vault.keys.handle(service: "passkeys", name: name, binding: Array(SHA256.hash(data: Array("example.com".utf8))))
        let context = machine.context()
        machine.sensor.present(.match)
        try await store.verifyOwner(for: "example.com", reason: "Create a passkey for example.com", context: context)
        let key = try await vault.keys.create(service: "passkeys", name: name, algorithm: .p256, label: "example.com",
                                            accessibility: .whenUnlockedThisDeviceOnly, accessControl: .biometryAny, context: context)
        try await vault.items.add(SecretBytes(Self.credRandoms), service: "passkeys.hmac-secret", account: name,
                            accessibility: .whenUnlockedThisDeviceOnly, accessControl: .biometryAny, context: context)
        try await vault.items.add(SecretBytes(Self.legacyRecord(id: id)), service: "passkeys", account: name, label: "example.com",
                            accessibility: .whenUnlockedThisDeviceOnly)
        context.invalidate()

        let found = try #require(try await store.credentials(relyingPartyID: "example.com", ids: [id]).first)
        #expect(found.creation == Self.expectedCreation && found.signatureCount == 41 && found.publicKey == key.publicKey)

        let authenticator = CTAP2Authenticator(store: store, aaguid: CTAP2Harness.aaguid, makeContext: { machine.context() })
        func getAssertion(uv: Bool, hmacSecret: CBORValue? = nil) async throws -> (status: UInt8, response: CBORValue?) {
            var parameters: [CBORValue: CBORValue] = [
                1: "example.com", 2: .bytes(CTAP2Harness.clientDataHash), 3: CTAP2Harness.descriptors([id]), 5: .map(["uv": .bool(uv)]),
            ]
            if let hmacSecret { parameters[4] = .map(["hmac-secret": hmacSecret]) }
            machine.sensor.present(.match)
            let answer = await authenticator.handle([0x02] + CBORValue.map(parameters).encoded) { _ in }
            return (answer[0], answer.count > 1 ? try CBORValue(decoding: answer.dropFirst()) : nil)
        }
        // credProtect 3, as before: not even named without user verification asked for.
        #expect(try await getAssertion(uv: false).status == 0x2E)

        // hmac-secret, as before: the bytes any hmac-secret of these CredRandoms gives.
        let salt1 = [UInt8](repeating: 1, count: 32), salt2 = [UInt8](repeating: 2, count: 32)
        let withUV = SymmetricKey(data: Self.credRandoms[..<32])
        let expected = Array(HMAC<SHA256>.authenticationCode(for: salt1, using: withUV))
            + Array(HMAC<SHA256>.authenticationCode(for: salt2, using: withUV))
        let platform = try await PlatformPinUvAuth(number: number, authenticator: authenticator)
        let saltEnc = try platform.encrypt(salt1 + salt2)
        let input: CBORValue = .map([
            1: platform.coseKey, 2: .bytes(saltEnc), 3: .bytes(platform.authenticate(key: platform.sharedSecret, saltEnc)), 4: .int(number),
        ])
        let (status, response) = try await getAssertion(uv: true, hmacSecret: input)
        try #require(status == 0)
        let authData = try #require(response?[2]?.bytesValue)
        #expect(authData[33..<37].reduce(0) { $0 << 8 | UInt32($1) } == 42)
        let outputs = try CBORValue(decoding: authData[37...])
        #expect(try platform.decrypt(try #require(outputs["hmac-secret"]?.bytesValue)) == expected)

        // The count rewrote the record: the map at 13, and 9 and 10 still for the Sesame before it.
        let rewritten = try await vault.items.read(service: "passkeys", account: name, operationPrompt: "Read a passkey's record")
        let value = try rewritten.withUnsafeBytes { try CBORValue(decoding: Array($0)) }
        #expect(value[9] == 3 && value[10] == true && value[12] == 42)
        #expect(value[13] == .map(["credProtect": .bytes([3]), "hmac-secret": .bytes([])]))

        // Deleting it deletes its hmac-secret item too.
        try await store.delete(found)
        #expect(try await vault.items.list(service: "passkeys.hmac-secret").isEmpty)
    }
}
