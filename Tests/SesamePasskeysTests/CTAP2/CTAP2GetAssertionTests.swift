import Crypto
import Foundation
import Sesame
import SesamePasskeys
import Testing

@Suite("CTAP2 getAssertion: discoverable credentials, credProtect, hmac-secret")
struct CTAP2GetAssertionTests {
    private static func getAssertion(
        rp: String = "example.com", allowList: [[UInt8]]? = nil, uv: Bool? = nil, extensions: [CBORValue: CBORValue]? = nil
    ) -> [CBORValue: CBORValue] {
        var parameters: [CBORValue: CBORValue] = [1: .text(rp), 2: .bytes(CTAP2Harness.clientDataHash)]
        if let allowList { parameters[3] = CTAP2Harness.descriptors(allowList) }
        if let extensions { parameters[4] = .map(extensions) }
        if let uv { parameters[5] = .map(["uv": .bool(uv)]) }
        return parameters
    }

    @Test("P1: without allowList the discoverable credentials come newest first, the rest by getNextAssertion under one verification")
    func discoverable() async throws {
        let harness = CTAP2Harness()
        var ids: [[UInt8]] = []
        for user in [UInt8(1), 2, 3] {
            ids.append(try await harness.makeCredential(CTAP2Harness.makeCredential(user: [user], name: "user\(user)")).id)
        }
        _ = try await harness.makeCredential(CTAP2Harness.makeCredential(user: [4], rk: false))
        let before = await harness.store.prompts.count
        let (status, first) = try await harness.send(0x02, Self.getAssertion())
        try #require(status == 0)
        #expect(first?[5] == 3)
        #expect(first?[1]?["id"] == .bytes(ids[2]))
        #expect(first?[4] == .map(["id": .bytes([3]), "name": "user3", "displayName": "User3"]))
        let (_, second) = try await harness.send(0x08)
        #expect(second?[1]?["id"] == .bytes(ids[1]))
        #expect(second?[5] == nil)
        let (_, third) = try await harness.send(0x08)
        #expect(third?[1]?["id"] == .bytes(ids[0]))
        #expect(try await harness.send(0x08).status == 0x30)
        #expect(await harness.store.prompts.count == before + 1)
        // Any other command ends the state.
        _ = try await harness.send(0x02, Self.getAssertion())
        _ = try await harness.send(0x04)
        #expect(try await harness.send(0x08).status == 0x30)
    }

    @Test("P4: the signed counter is taken when signing, so a value another process took after the lookup is never repeated")
    func counterTakenWhenSigning() async throws {
        let harness = CTAP2Harness()
        let id = try await harness.makeCredential(CTAP2Harness.makeCredential(rk: false)).id
        await harness.store.setAnotherProcessSignsAfterLookup()
        var counters: [UInt32] = []
        for _ in 0..<2 {
            let (status, response) = try await harness.send(0x02, Self.getAssertion(allowList: [id]))
            try #require(status == 0)
            let authData = try #require(response?[2]?.bytesValue)
            counters.append(authData[33..<37].reduce(0) { $0 << 8 | UInt32($1) })
        }
        // Each lookup let the other process take one value first: 1 and 3 were its, 2 and 4 are ours.
        #expect(counters == [2, 4])
    }

    @Test("P2: no credential answers NO_CREDENTIALS, but only after the owner acted")
    func none() async throws {
        let harness = CTAP2Harness()
        #expect(try await harness.send(0x02, Self.getAssertion(allowList: [[7, 7, 7]])).status == 0x2E)
        #expect(try await harness.send(0x02, Self.getAssertion()).status == 0x2E)
        #expect(await harness.store.prompts == ["Sign in to example.com", "Sign in to example.com"])
    }

    @Test("P1: credProtect 3 hides a credential from a request without uv; 2 from one without its id")
    func credProtect() async throws {
        let harness = CTAP2Harness()
        let (id, authData) = try await harness.makeCredential(CTAP2Harness.makeCredential(extensions: ["credProtect": 3]))
        #expect(authData[32] & 0x80 != 0)
        let (_, length) = try CBORValue.decodePrefix(authData[(55 + id.count)...])
        #expect(try CBORValue(decoding: authData[(55 + id.count + length)...]) == .map(["credProtect": 3]))
        #expect(try await harness.send(0x02, Self.getAssertion(allowList: [id])).status == 0x2E)
        #expect(try await harness.send(0x02, Self.getAssertion(allowList: [id], uv: true)).status == 0)
        let (two, _) = try await harness.makeCredential(CTAP2Harness.makeCredential(rp: "two.example", extensions: ["credProtect": 2]))
        #expect(try await harness.send(0x02, Self.getAssertion(rp: "two.example")).status == 0x2E)
        #expect(try await harness.send(0x02, Self.getAssertion(rp: "two.example", allowList: [two])).status == 0)
        #expect(try await harness.send(0x01, CTAP2Harness.makeCredential(extensions: ["credProtect": 4])).status == 0x02)
    }

    @Test("P1: hmac-secret gives the same output for the same salt and another for another salt, with protocols one and two", arguments: [1, 2])
    func hmacSecret(_ number: Int) async throws {
        let harness = CTAP2Harness()
        let (id, _) = try await harness.makeCredential(CTAP2Harness.makeCredential(extensions: ["hmac-secret": true]))
        func output(_ salt: [UInt8]) async throws -> [UInt8] {
            let platform = try await PlatformPinUvAuth(number: number, harness: harness)
            let saltEnc = try platform.encrypt(salt)
            let input: CBORValue = .map([
                1: platform.coseKey, 2: .bytes(saltEnc), 3: .bytes(platform.authenticate(key: platform.sharedSecret, saltEnc)),
                4: .int(number),
            ])
            let (status, response) = try await harness.send(0x02, Self.getAssertion(allowList: [id], extensions: ["hmac-secret": input]))
            try #require(status == 0)
            let authData = try #require(response?[2]?.bytesValue)
            #expect(authData[32] & 0x80 != 0)
            let extensions = try CBORValue(decoding: authData[37...])
            return try platform.decrypt(try #require(extensions["hmac-secret"]?.bytesValue))
        }
        let salt1 = [UInt8](repeating: 1, count: 32), salt2 = [UInt8](repeating: 2, count: 32)
        let first = try await output(salt1)
        #expect(first.count == 32)
        #expect(try await output(salt1) == first)
        #expect(try await output(salt2) != first)
        let both = try await output(salt1 + salt2)
        #expect(both.count == 64 && Array(both[..<32]) == first)

        let platform = try await PlatformPinUvAuth(number: number, harness: harness)
        let saltEnc = try platform.encrypt(salt1)
        let forged: CBORValue = .map([1: platform.coseKey, 2: .bytes(saltEnc), 3: .bytes([UInt8](repeating: 0, count: number == 1 ? 16 : 32)), 4: .int(number)])
        #expect(try await harness.send(0x02, Self.getAssertion(allowList: [id], extensions: ["hmac-secret": forged])).status == 0x33)
    }
}
